#pragma once
// A variable of the tile IR. Let introduces one; Assign rebinds a mutable one (loop-carried values
// and values merged after a runtime `if`). Vars are shared, immutable objects compared by identity;
// `id` is unique within a kernel and only there to keep dumps and debugging stable.
#include <memory>
#include <string>

#include "core/ir/Type.h"
#include "core/base/SourceFile.h"

namespace tilescope::ir {

struct Var;
using VarPtr = std::shared_ptr<const Var>;

struct Var {
  std::string name;  // the Python name, or a checker temporary such as "tmp"
  int id = 0;
  Type type;
  lang::SourceRange range;  // where the name was first bound
  bool isMutable = false;   // only mutable vars may be targets of Assign (and While conditions)

  static VarPtr make(std::string name, int id, Type type, lang::SourceRange range, bool isMutable = false);
};

}  // namespace tilescope::ir
