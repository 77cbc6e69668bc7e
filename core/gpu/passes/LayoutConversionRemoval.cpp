#include "core/gpu/passes/LayoutConversionRemoval.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/ir/IRMutator.h"
#include "core/ir/IRVisitor.h"
#include "core/ir/passes/DeadLetElimination.h"

namespace tilescope::gpu::passes {

using namespace ir;

namespace {

// Layouts compare by what they print (every field that places an element shows there).
bool sameLayout(const TileLayout& a, const TileLayout& b) { return a.str() == b.str(); }

class Definitions : public IRVisitor {
public:
  std::map<int, const Let*> lets;
  std::set<int> declared;

protected:
  void visitLet(const Let& n) override {
    lets[n.var->id] = &n;
    declared.insert(n.var->id);
    IRVisitor::visitLet(n);
  }
  void visitFor(const For& n) override {
    declared.insert(n.iv->id);
    IRVisitor::visitFor(n);
  }
};

// Whether a statement assigns var anywhere inside it.
class AssignsVar : public IRVisitor {
public:
  explicit AssignsVar(int id) : id_(id) {}
  bool found = false;

protected:
  void visitAssign(const Assign& n) override { found = found || n.var->id == id_; }
  void visitExpr(const Expr&) override {}  // expressions assign nothing

private:
  int id_;
};

class Remover : public IRMutator {
public:
  Remover(const Kernel& kernel, const std::map<int, const Let*>& lets) : kernel_(kernel), lets_(lets) {}

protected:
  Expr mutateConvertLayout(const ConvertLayout& n, const Expr& self) override {
    Expr v = mutateExpr(n.value);
    // A conversion of a conversion: the first one's value converted once.
    while (const auto* inner = v.as<ConvertLayout>()) v = inner->value;
    // Recomputed in the target layout where it is used.
    if (indexPure(v)) return v;
    if (std::optional<TileLayout> l = layoutOf(v); l && sameLayout(*l, n.layout)) return v;
    return v.sameAs(n.value) ? self : ConvertLayout::make(v, n.layout, n.range);
  }

  Stmt mutateSeq(const Seq& n, const Stmt& self) override {
    bool same = true;
    std::vector<Stmt> stmts;
    for (size_t i = 0; i < n.stmts.size(); ++i) {
      Stmt s = mutateStmt(n.stmts[i]);
      // `v = convert_layout v, L` where the value reaching it is a constant splat: that constant,
      // assigned in the target layout.
      if (const auto* a = s.as<Assign>()) {
        const auto* c = a->value.as<ConvertLayout>();
        const auto* ref = c ? c->value.as<VarRef>() : nullptr;
        if (ref && ref->var->id == a->var->id)
          if (Expr k = reachingConstant(n.stmts, i, a->var->id); k.defined()) s = Assign::make(a->var, k, a->range);
      }
      same = same && s.sameAs(n.stmts[i]);
      stmts.push_back(std::move(s));
    }
    return same ? self : Seq::make(std::move(stmts), n.range);
  }

private:
  const Kernel& kernel_;
  const std::map<int, const Let*>& lets_;

  // The layout a value has wherever it is read, when known: an immutable var's (blocked unless the
  // kernel's table says otherwise) or a conversion's target.
  std::optional<TileLayout> layoutOf(const Expr& e) const {
    if (const auto* c = e.as<ConvertLayout>()) return c->layout;
    const auto* ref = e.as<VarRef>();
    if (!ref || ref->var->isMutable || !ref->var->type.isTile()) return std::nullopt;
    if (auto it = kernel_.layouts.find(ref->var->id); it != kernel_.layouts.end()) return it->second;
    TileLayout blocked;
    blocked.kind = LayoutKind::Blocked;
    return blocked;
  }

  bool indexPure(const Expr& e) const {
    if (!e.defined()) return true;
    using K = ExprKind;
    switch (e.kind()) {
      case K::IntImm:
      case K::FloatImm:
      case K::ParamRef:
      case K::ProgramId:
      case K::NumPrograms:
      case K::Arange: return true;
      case K::VarRef: {
        const VarPtr& v = e.as<VarRef>()->var;
        if (v->type.isScalar()) return true;  // every thread holds the scalars
        if (v->isMutable) return false;
        auto it = lets_.find(v->id);
        return it != lets_.end() && indexPure(it->second->value);
      }
      case K::Splat: return indexPure(e.as<Splat>()->value);
      case K::Broadcast: return indexPure(e.as<Broadcast>()->value);
      case K::ExpandDims: return indexPure(e.as<ExpandDims>()->value);
      case K::Reshape: return indexPure(e.as<Reshape>()->value);
      case K::Cast: return !e.as<Cast>()->bitcast && indexPure(e.as<Cast>()->value);
      case K::Unary: return indexPure(e.as<Unary>()->value);
      case K::Binary: return indexPure(e.as<Binary>()->a) && indexPure(e.as<Binary>()->b);
      case K::Select: {
        const auto* n = e.as<Select>();
        return indexPure(n->cond) && indexPure(n->a) && indexPure(n->b);
      }
      case K::Hint: return indexPure(e.as<Hint>()->value);
      default: return false;
    }
  }

  // A constant splat (through immutable vars bound to one), else undefined.
  Expr constantOf(const Expr& e) const {
    if (const auto* s = e.as<Splat>()) return s->value.as<IntImm>() || s->value.as<FloatImm>() ? e : Expr();
    if (const auto* ref = e.as<VarRef>(); ref && !ref->var->isMutable)
      if (auto it = lets_.find(ref->var->id); it != lets_.end()) return constantOf(it->second->value);
    return {};
  }

  // The constant var `id` holds before stmts[at], when the statements before it in this Seq bind it
  // to one and nothing between assigns it; else undefined.
  Expr reachingConstant(const std::vector<Stmt>& stmts, size_t at, int id) const {
    for (size_t j = at; j-- > 0;) {
      const Stmt& s = stmts[j];
      if (const auto* let = s.as<Let>(); let && let->var->id == id) return constantOf(let->value);
      if (const auto* a = s.as<Assign>(); a && a->var->id == id) return constantOf(a->value);
      AssignsVar assigns(id);
      assigns.visitStmt(s);
      if (assigns.found) return {};
    }
    return {};
  }
};

}  // namespace

Kernel removeLayoutConversions(const Kernel& kernel) {
  Definitions defs;
  defs.visitKernel(kernel);
  Remover remover(kernel, defs.lets);
  Kernel out = remover.mutateKernel(kernel);
  // Conversions whose result is no longer read (and what only they read) go with the dead Lets;
  // the table forgets the vars that went.
  out = ir::passes::eliminateDeadLets(out);
  Definitions left;
  left.visitKernel(out);
  for (auto it = out.layouts.begin(); it != out.layouts.end();)
    it = left.declared.count(it->first) || out.registerLoops.count(it->first) ? std::next(it) : out.layouts.erase(it);
  return out;
}

}  // namespace tilescope::gpu::passes
