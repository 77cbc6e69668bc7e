#include "core/gpu/passes/InductionTiles.h"

#include "core/gpu/passes/RecomputedValues.h"
#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

namespace {

// `x + splat(s)` or `splat(s) + x` with x a read of var `tile`: the scalar s, else an undefined Expr.
ir::Expr scalarStepOf(const ir::Expr& value, int tile) {
  const auto* add = value.as<ir::Binary>();
  if (!add || add->op != ir::BinaryOp::Add) return {};
  for (int side = 0; side < 2; ++side) {
    const ir::Expr& x = side == 0 ? add->a : add->b;
    const ir::Expr& y = side == 0 ? add->b : add->a;
    const auto* ref = x.as<ir::VarRef>();
    const auto* splat = y.as<ir::Splat>();
    if (ref && ref->var->id == tile && splat && splat->value.type().isScalar() && ir::isInt(splat->value.type().dtype()))
      return splat->value;
  }
  return {};
}

}  // namespace

std::map<int, ir::InductionTile> findInductionTiles(const ir::Kernel& kernel) {
  std::map<int, ir::InductionTile> tiles;
  VarCensus census;
  census.visitStmt(kernel.body);
  for (const auto& [id, let] : census.lets) {
    const ir::VarPtr& var = let->var;
    const ir::Type& t = var->type;
    if (!var->isMutable || !t.isTile() || !(t.isPointer() || ir::isInt(t.dtype())) || !indexPure(let->value)) continue;
    auto assigned = census.assigns.find(id);
    if (assigned == census.assigns.end()) continue;
    ir::InductionTile tile{var, let->value, {}};
    bool ok = true;
    for (const ir::Assign* a : assigned->second) {
      const auto* from = a->value.as<ir::VarRef>();
      auto stepLet = from ? census.lets.find(from->var->id) : census.lets.end();
      if (stepLet == census.lets.end() || census.readCount(from->var->id) != 1) {
        ok = false;
        break;
      }
      const ir::Expr step = scalarStepOf(stepLet->second->value, id);
      if (!step.defined() || !indexPure(step)) {
        ok = false;
        break;
      }
      tile.steps[from->var->id] = step;
    }
    if (ok) tiles[id] = std::move(tile);
  }
  return tiles;
}

ir::Kernel recordInductionTiles(const ir::Kernel& kernel) {
  ir::Kernel out = kernel;
  out.inductionTiles = findInductionTiles(kernel);
  return out;
}

}  // namespace tilescope::gpu::passes
