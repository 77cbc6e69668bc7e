#include "core/ir/Var.h"

namespace tilescope::ir {

VarPtr Var::make(std::string name, int id, Type type, lang::SourceRange range, bool isMutable) {
  auto v = std::make_shared<Var>();
  v->name = std::move(name);
  v->id = id;
  v->type = std::move(type);
  v->range = range;
  v->isMutable = isMutable;
  return v;
}

}  // namespace tilescope::ir
