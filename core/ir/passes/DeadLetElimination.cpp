#include "core/ir/passes/DeadLetElimination.h"

#include <unordered_set>

#include "core/ir/IRMutator.h"
#include "core/ir/IRVisitor.h"

namespace tilescope::ir::passes {

namespace {

// Vars read (VarRef, a While's condition) or assigned anywhere in the kernel.
class LiveVars : public IRVisitor {
public:
  std::unordered_set<const Var*> live;

protected:
  void visitVarRef(const VarRef& n) override { live.insert(n.var.get()); }
  void visitAssign(const Assign& n) override {
    live.insert(n.var.get());
    IRVisitor::visitAssign(n);
  }
  void visitWhile(const While& n) override {
    live.insert(n.cond.get());
    IRVisitor::visitWhile(n);
  }
};

class DeadLetRemover : public IRMutator {
public:
  explicit DeadLetRemover(const std::unordered_set<const Var*>& live) : live_(live) {}
  bool removedAny = false;

protected:
  Stmt mutateSeq(const Seq& n, const Stmt& self) override {
    std::vector<Stmt> kept;
    kept.reserve(n.stmts.size());
    bool changed = false;
    for (const Stmt& s : n.stmts) {
      if (dead(s)) {
        changed = removedAny = true;
        continue;
      }
      kept.push_back(mutateStmt(s));
      changed |= !kept.back().sameAs(s);
    }
    return changed ? Seq::make(std::move(kept), n.range) : self;
  }

private:
  const std::unordered_set<const Var*>& live_;

  bool dead(const Stmt& s) const {
    const auto* let = s.as<Let>();
    if (!let || live_.count(let->var.get()) || let->value.hasEffects()) return false;
    // An impure inline asm (is_pure=False) may do what nobody reads.
    const auto* asmNode = let->value.as<InlineAsm>();
    return !asmNode || asmNode->isPure;
  }
};

}  // namespace

Kernel eliminateDeadLets(const Kernel& kernel) {
  Kernel current = kernel;
  // Each round removes the Lets dead now; the values only they read die in the next round.
  for (;;) {
    LiveVars liveVars;
    liveVars.visitKernel(current);
    DeadLetRemover remover(liveVars.live);
    Kernel next = remover.mutateKernel(current);
    if (!remover.removedAny) return next;
    current = std::move(next);
  }
}

}  // namespace tilescope::ir::passes
