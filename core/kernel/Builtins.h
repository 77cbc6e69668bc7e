#pragma once
// What a kernel can name besides its own variables: members of the modules it imports (triton,
// triton.language as tl, tl.math, torch dtypes), the Python builtins Triton allows inside jit
// functions, tensor methods (x.to, x.sum, ...) and dtype predicates. Calls go to the handlers
// registered in BuiltinRegistry.
#include <optional>
#include <string>
#include <vector>

#include "core/kernel/ExprChecker.h"

namespace tilescope::lang {

// `module.attr` for a module value: builtins, dtypes, submodules. For modules tilescope does not
// know (e.g. a user's triton_util) every attribute is a host function (called through HostCall).
std::optional<Value> moduleMember(const std::string& module, const std::string& attr);
std::vector<std::string> moduleMemberNames(const std::string& module);
bool isKnownModule(const std::string& module);
// The module value for a dotted import path ("triton.language" -> Module "triton.language").
Value moduleValue(const std::string& dottedName);

// range, min, max, float, int, bool, len, print, abs - as Triton allows them in kernels.
std::optional<Value> pythonBuiltin(const std::string& name);
std::vector<std::string> pythonBuiltinNames();

bool isTensorMethod(const std::string& name);
std::vector<std::string> tensorMethodNames();
// The builtin a tensor method forwards to (x.sum(...) -> "tl.sum"(x, ...)).
std::string tensorMethodBuiltin(const std::string& method);

bool isDTypeMethod(const std::string& name);
bool dtypePredicate(const DTypeValue& t, const std::string& method);

// Calls the builtin `name` (a Value::Builtin's name) with evaluated arguments.
Value callBuiltin(ExprChecker& ec, const std::string& name, CallArgs& args);

}  // namespace tilescope::lang
