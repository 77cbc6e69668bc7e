#pragma once
// The `torch` module of host code (torch, torch.cuda, torch.testing, torch.nn.functional) over the
// tensor library of core/tensor (Tensor*.h).
#include <optional>
#include <string>

#include "core/host/Value.h"

namespace tilescope::host {

class Interpreter;

void installTorchModule(Interpreter& in);
// torch.<name> usable as a tensor method with the tensor as first argument (x.sum(), x.softmax(-1)).
std::optional<Value> torchFunctionAsMethod(Interpreter& in, const std::string& name);

}  // namespace tilescope::host
