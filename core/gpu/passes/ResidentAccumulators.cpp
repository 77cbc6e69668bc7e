#include "core/gpu/passes/ResidentAccumulators.h"

#include "core/gpu/passes/VarCensus.h"

namespace tilescope::gpu::passes {

namespace {

const ir::VarRef* asVarRef(const ir::Expr& e) { return e.defined() ? e.as<ir::VarRef>() : nullptr; }

class StoreFinder : public ir::IRVisitor {
public:
  bool found = false;

protected:
  void visitStore(const ir::Store& n) override {
    found = true;
    ir::IRVisitor::visitStore(n);
  }
};

bool containsStore(const ir::Stmt& s) {
  StoreFinder f;
  f.visitStmt(s);
  return f.found;
}

std::vector<ir::Stmt> bodyStmts(const ir::For& loop) {
  if (const auto* seq = loop.body.as<ir::Seq>()) return seq->stmts;
  return {loop.body};
}

class Loops : public ir::IRVisitor {
public:
  std::vector<const ir::For*> loops;

protected:
  void visitFor(const ir::For& n) override {
    loops.push_back(&n);
    ir::IRVisitor::visitFor(n);
  }
};

}  // namespace

const ir::VarRef* transposedVarRef(const ir::Expr& e) {
  const auto* p = e.defined() ? e.as<ir::Permute>() : nullptr;
  if (!p || p->order != std::vector<int>{1, 0}) return nullptr;
  return asVarRef(p->value);
}

std::set<int> deferrableOperandLoads(const ir::For& loop, const ir::Dot& dot, int resultId, bool transposedB) {
  std::set<int> out;
  const auto* seq = loop.body.as<ir::Seq>();
  if (!seq || containsStore(loop.body)) return out;
  VarCensus uses;
  uses.visitStmt(loop.body);
  size_t dotAt = seq->stmts.size();
  for (size_t i = 0; i < seq->stmts.size(); ++i)
    if (const auto* let = seq->stmts[i].as<ir::Let>(); let && let->var->id == resultId) dotAt = i;
  for (const ir::Expr* operand : {&dot.a, &dot.b}) {
    const ir::VarRef* ref = asVarRef(*operand);
    if (!ref && transposedB && operand == &dot.b) ref = transposedVarRef(*operand);
    if (!ref || uses.readCount(ref->var->id) != 1) continue;
    for (size_t i = 0; i < dotAt; ++i) {
      const auto* let = seq->stmts[i].as<ir::Let>();
      if (!let || let->var->id != ref->var->id) continue;
      const auto* load = let->value.as<ir::Load>();
      bool onlyLetsBetween = true;
      for (size_t j = i + 1; j < dotAt; ++j) onlyLetsBetween = onlyLetsBetween && seq->stmts[j].as<ir::Let>() != nullptr;
      if (load && !load->isVolatile && onlyLetsBetween) out.insert(ref->var->id);
    }
  }
  return out;
}

ir::Kernel keepAccumulatorsResident(const ir::Kernel& kernel) {
  ir::Kernel out = kernel;
  out.dotPlan.resident.clear();
  if (!kernel.body) return out;
  std::map<const ir::Dot*, int> dotIndex;
  const std::vector<const ir::Dot*> dots = ir::dotsInOrder(kernel.body);
  for (size_t i = 0; i < dots.size(); ++i) dotIndex.emplace(dots[i], static_cast<int>(i));
  Loops loops;
  loops.visitStmt(kernel.body);
  for (const ir::For* loop : loops.loops) {
    if (kernel.registerLoops.count(loop->iv->id)) continue;  // assign-layouts keeps it in registers its own way
    const std::vector<ir::Stmt> body = bodyStmts(*loop);
    VarCensus uses;
    uses.visitStmt(loop->body);
    for (const ir::Stmt& s : body) {
      const auto* let = s.as<ir::Let>();
      if (!let) continue;
      // acc + dot(a, b), dot(a, b) + acc, or dot(a, b, acc)
      const ir::Dot* dot = nullptr;
      const ir::VarRef* acc = nullptr;
      if (const auto* d = let->value.as<ir::Dot>()) {
        dot = d;
        acc = asVarRef(d->acc);
      } else if (const auto* add = let->value.as<ir::Binary>(); add && add->op == ir::BinaryOp::Add) {
        for (int side = 0; side < 2 && !dot; ++side) {
          const ir::Expr& x = side == 0 ? add->a : add->b;
          const ir::Expr& y = side == 0 ? add->b : add->a;
          const auto* d = y.as<ir::Dot>();
          if (asVarRef(x) && d && !d->acc.defined()) {
            dot = d;
            acc = asVarRef(x);
          }
        }
      }
      if (!dot || !acc || !acc->var->isMutable || !(acc->var->type == let->var->type)) continue;
      auto index = dotIndex.find(dot);
      if (index == dotIndex.end()) continue;
      auto lowering = out.dotPlan.dots.find(index->second);
      if (lowering == out.dotPlan.dots.end() || lowering->second.engine != ir::DotEngine::Wmma) continue;
      const ir::TensorCoreShape& l = lowering->second.tensorCores;
      if (l.blocksPerWarp * l.fm * l.fn * 8 > 128) continue;  // registers
      // acc is read only here and assigned only from this result, which nothing else reads.
      const int accId = acc->var->id, resultId = let->var->id;
      if (uses.readCount(accId) != 1 || uses.assignCount(accId) != 1 || uses.readCount(resultId) != 1) continue;
      bool assignedBack = false;
      for (const ir::Stmt& t : body)
        if (const auto* a = t.as<ir::Assign>(); a && a->var->id == accId && asVarRef(a->value) && asVarRef(a->value)->var->id == resultId)
          assignedBack = true;
      if (!assignedBack) continue;
      ir::ResidentAccumulatorPlan r;
      r.acc = accId;
      r.result = resultId;
      r.dot = index->second;
      r.deferredLoads = deferrableOperandLoads(*loop, *dot, resultId, false);
      out.dotPlan.resident[loop->iv->id] = r;
      break;
    }
  }
  return out;
}

}  // namespace tilescope::gpu::passes
