#pragma once
// The standard-library modules host code may import (math, os, functools, time, sys) and the two
// compatibility modules the seed tutorials need: IPython.core.debugger (set_trace) and triton_util
// (Python source shipped in resources/host/triton_util.py, interpreted like user code).
#include <optional>
#include <string>

namespace tilescope::host {

class Interpreter;

void installPythonModules(Interpreter& in);

// Path of a file under resources/host/ (TILESCOPE_RESOURCE_DIR, next to the executable, or in the
// source tree this binary was built from); nullopt when none exists.
std::optional<std::string> findHostResource(const std::string& name);

}  // namespace tilescope::host
