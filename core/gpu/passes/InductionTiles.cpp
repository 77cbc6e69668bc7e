#include "core/gpu/passes/InductionTiles.h"

#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

bool recomputable(const ir::Expr& e) {
  using K = ir::ExprKind;
  switch (e.kind()) {
    case K::IntImm:
    case K::FloatImm:
    case K::ParamRef:
    case K::ProgramId:
    case K::NumPrograms:
    case K::Arange: return true;
    case K::VarRef: return !e.as<ir::VarRef>()->var->isMutable;
    case K::Splat: return recomputable(e.as<ir::Splat>()->value);
    case K::Broadcast: return recomputable(e.as<ir::Broadcast>()->value);
    case K::ExpandDims: return recomputable(e.as<ir::ExpandDims>()->value);
    case K::Reshape: return recomputable(e.as<ir::Reshape>()->value);
    case K::Permute: return recomputable(e.as<ir::Permute>()->value);
    case K::Cast: return recomputable(e.as<ir::Cast>()->value);
    case K::Unary: return recomputable(e.as<ir::Unary>()->value);
    case K::Binary: return recomputable(e.as<ir::Binary>()->a) && recomputable(e.as<ir::Binary>()->b);
    case K::Select: {
      const auto* n = e.as<ir::Select>();
      return recomputable(n->cond) && recomputable(n->a) && recomputable(n->b);
    }
    case K::Hint: return recomputable(e.as<ir::Hint>()->value);
    default: return false;  // math calls, random numbers, memory, reductions, scans, dots: computed once
  }
}

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

std::map<int, InductionFacts> InductionTileSteps::facts() const {
  std::map<int, InductionFacts> out;
  for (const auto& [id, value] : init) out[id].init = value;
  for (const auto& [letId, step] : steps) out[step.tile].steps.push_back(step.step);
  return out;
}

InductionTileSteps findInductionTiles(const ir::Stmt& body) {
  InductionTileSteps out;
  VarCensus census;
  census.visitStmt(body);
  for (const auto& [id, let] : census.lets) {
    const ir::VarPtr& var = let->var;
    const ir::Type& t = var->type;
    if (!var->isMutable || !t.isTile() || !(t.isPointer() || ir::isInt(t.dtype())) || !recomputable(let->value)) continue;
    auto assigned = census.assigns.find(id);
    if (assigned == census.assigns.end()) continue;
    std::map<int, InductionTileSteps::Step> steps;
    bool ok = true;
    for (const ir::Assign* a : assigned->second) {
      const auto* from = a->value.as<ir::VarRef>();
      auto stepLet = from ? census.lets.find(from->var->id) : census.lets.end();
      if (stepLet == census.lets.end() || census.readCount(from->var->id) != 1) {
        ok = false;
        break;
      }
      const ir::Expr step = scalarStepOf(stepLet->second->value, id);
      if (!step.defined() || !recomputable(step)) {
        ok = false;
        break;
      }
      steps[from->var->id] = InductionTileSteps::Step{id, step};
    }
    if (!ok) continue;
    out.init[id] = let->value;
    out.vars[id] = var;
    out.steps.insert(steps.begin(), steps.end());
  }
  return out;
}

}  // namespace tilescope::gpu::passes
