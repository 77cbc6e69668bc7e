#pragma once
// triton.runtime.driver: what Triton's tutorials ask of the active driver (the torch device, the
// target, the device's properties), answered from the real GPU when there is one and from the
// simulator's nominal device otherwise.
#include "core/host/Value.h"

namespace tilescope::host {

class Interpreter;

// The `triton.runtime` namespace (`driver.active` inside), shared by `triton.runtime` and
// `from triton.runtime import driver`.
Value tritonRuntimeNamespace(Interpreter& in);

}  // namespace tilescope::host
