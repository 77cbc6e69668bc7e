#include "core/gpu/passes/RecomputedValues.h"

#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

bool indexPure(const ir::Expr& e) {
  using K = ir::ExprKind;
  switch (e.kind()) {
    case K::IntImm:
    case K::FloatImm:
    case K::ParamRef:
    case K::ProgramId:
    case K::NumPrograms:
    case K::Arange: return true;
    case K::VarRef: return !e.as<ir::VarRef>()->var->isMutable;
    case K::Splat: return indexPure(e.as<ir::Splat>()->value);
    case K::Broadcast: return indexPure(e.as<ir::Broadcast>()->value);
    case K::ExpandDims: return indexPure(e.as<ir::ExpandDims>()->value);
    case K::Reshape: return indexPure(e.as<ir::Reshape>()->value);
    case K::Permute: return indexPure(e.as<ir::Permute>()->value);
    case K::Cast: return indexPure(e.as<ir::Cast>()->value);
    case K::Unary: return indexPure(e.as<ir::Unary>()->value);
    case K::Binary: return indexPure(e.as<ir::Binary>()->a) && indexPure(e.as<ir::Binary>()->b);
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      return indexPure(n->cond) && indexPure(n->a) && indexPure(n->b);
    }
    case K::Hint: return indexPure(e.as<ir::Hint>()->value);
    default: return false;  // math calls, random numbers, memory, reductions, scans, dots: computed once
  }
}

ir::Kernel markRecomputedValues(const ir::Kernel& kernel) {
  ir::Kernel out = kernel;
  out.recomputedAtUse.clear();
  VarCensus census;
  census.visitStmt(kernel.body);
  for (const auto& [id, let] : census.lets)
    if (let->var->type.isTile() && !let->var->isMutable && indexPure(let->value)) out.recomputedAtUse.insert(id);
  return out;
}

}  // namespace tilescope::gpu::passes
