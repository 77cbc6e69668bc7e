#include "core/python/Function.h"

namespace tilescope::host {

std::string FunctionObject::repr(LaunchContext&) const { return "<function " + name + ">"; }

Value makeBuiltin(std::string name, BuiltinFn fn) { return makeObject<BuiltinFunction>(std::move(name), std::move(fn)); }

}  // namespace tilescope::host
