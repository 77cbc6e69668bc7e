#pragma once
// Checks every invariant of the IR (see Expr.h and Stmt.h): node typing (each node is re-derived
// through its make() rules), effects only as whole Let values, vars defined before use and
// introduced once, Assign/While targets mutable with unchanged types, parameter references
// matching the kernel's parameters, Return outside loops, a Let of a ConvertLayout listed in the
// kernel's layout table (if at all) in the layout it converts to.
//
// The checker runs it after building a kernel in debug builds (#ifndef NDEBUG) and tests run it
// always. Problems are our bugs, never the user's: verifyOrThrow throws lang::InternalError.
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/Kernel.h"

namespace tilescope::ir {

class IRVerifier {
public:
  // One message per problem, each prefixed with the node's location when it has one; empty when
  // the kernel is well-formed.
  static std::vector<std::string> verify(const Kernel& kernel);
  // Throws InternalError listing the problems; `stage` names the pass that produced the kernel.
  static void verifyOrThrow(const Kernel& kernel, std::string_view stage);
};

// Runs verifyOrThrow in debug builds only; passes call this after rewriting a kernel.
inline void verifyInDebug([[maybe_unused]] const Kernel& kernel, [[maybe_unused]] std::string_view stage) {
#ifndef NDEBUG
  IRVerifier::verifyOrThrow(kernel, stage);
#endif
}

}  // namespace tilescope::ir
