#include "core/ir/IRVerifier.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/IRVisitor.h"
#include "core/ir/TypeRules.h"
#include "core/base/Diagnostic.h"

namespace tilescope::ir {

namespace {

class Verifier {
public:
  explicit Verifier(const Kernel& k) : kernel_(k) {}

  std::vector<std::string> problems;

  bool declares(int id) const { return ids_.count(id) > 0; }
  const Var* var(int id) const {
    auto it = ids_.find(id);
    return it == ids_.end() ? nullptr : it->second;
  }

  void run() {
    if (!kernel_.body) {
      problems.push_back("kernel '" + kernel_.name + "' has no body");
      return;
    }
    scopes_.emplace_back();
    stmt(kernel_.body);
    scopes_.pop_back();
  }

private:
  const Kernel& kernel_;
  std::vector<std::unordered_set<const Var*>> scopes_;
  std::unordered_set<const Var*> introduced_;
  std::unordered_map<int, const Var*> ids_;
  int loopDepth_ = 0;

  void fail(const SourceRange& r, const std::string& msg) {
    problems.push_back((r.valid() ? r.str() + ": " : std::string()) + msg);
  }

  bool inScope(const Var* v) const {
    for (const auto& s : scopes_)
      if (s.count(v)) return true;
    return false;
  }

  void introduce(const VarPtr& v, const SourceRange& r) {
    if (!v) {
      fail(r, "null var");
      return;
    }
    if (!introduced_.insert(v.get()).second) fail(r, "var '" + v->name + "' is introduced twice");
    auto [it, fresh] = ids_.emplace(v->id, v.get());
    if (!fresh && it->second != v.get()) fail(r, "vars '" + v->name + "' and '" + it->second->name + "' share id " + std::to_string(v->id));
    if (kernel_.varCount && (v->id < 0 || v->id >= kernel_.varCount))
      fail(r, "var '" + v->name + "' has id " + std::to_string(v->id) + " outside 0.." + std::to_string(kernel_.varCount - 1));
    scopes_.back().insert(v.get());
  }

  void use(const VarPtr& v, const SourceRange& r) {
    if (!v) {
      fail(r, "null var");
      return;
    }
    if (!inScope(v.get())) fail(r, "var '" + v->name + "' is used where it is not defined");
  }

  // Re-derives a node's type through its make() rules. Throws InternalError when they reject it.
  Type rederive(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::IntImm: {
        const auto& n = *e.as<IntImm>();
        if (n.value != wrapToDType(n.type.dtype(), n.value)) throw lang::InternalError("IntImm value does not fit its dtype");
        return IntImm::make(n.type.dtype(), n.value).type();
      }
      case ExprKind::FloatImm: return FloatImm::make(e.type().dtype(), 0).type();
      case ExprKind::ParamRef: {
        const auto& n = *e.as<ParamRef>();
        if (n.index < 0 || n.index >= static_cast<int>(kernel_.params.size()))
          throw lang::InternalError("ParamRef index " + std::to_string(n.index) + " out of range");
        const KernelParam& p = kernel_.params[n.index];
        if (p.isConstexpr) throw lang::InternalError("ParamRef to constexpr parameter '" + p.name + "'");
        if (p.name != n.name) throw lang::InternalError("ParamRef name '" + n.name + "' != parameter '" + p.name + "'");
        return p.type;
      }
      case ExprKind::VarRef: {
        const auto& n = *e.as<VarRef>();
        use(n.var, e.range());
        return n.var ? n.var->type : e.type();
      }
      case ExprKind::ProgramId: return ProgramId::make(e.as<ProgramId>()->axis).type();
      case ExprKind::NumPrograms: return NumPrograms::make(e.as<NumPrograms>()->axis).type();
      case ExprKind::Arange: {
        const auto& n = *e.as<Arange>();
        return Arange::make(n.start, n.end).type();
      }
      case ExprKind::Splat: return Splat::make(e.as<Splat>()->value, e.type().shape()).type();
      case ExprKind::Broadcast: return Broadcast::make(e.as<Broadcast>()->value, e.type().shape()).type();
      case ExprKind::ExpandDims: {
        const auto& n = *e.as<ExpandDims>();
        return ExpandDims::make(n.value, n.axis).type();
      }
      case ExprKind::Reshape: return Reshape::make(e.as<Reshape>()->value, e.type().shape()).type();
      case ExprKind::Permute: {
        const auto& n = *e.as<Permute>();
        return Permute::make(n.value, n.order).type();
      }
      case ExprKind::Cast: {
        const auto& n = *e.as<Cast>();
        return Cast::make(n.value, n.type.dtype(), n.type.isPointer(), n.bitcast, n.rounding).type();
      }
      case ExprKind::Unary: {
        const auto& n = *e.as<Unary>();
        return Unary::make(n.op, n.value).type();
      }
      case ExprKind::Binary: {
        const auto& n = *e.as<Binary>();
        return Binary::make(n.op, n.a, n.b).type();
      }
      case ExprKind::Select: {
        const auto& n = *e.as<Select>();
        return Select::make(n.cond, n.a, n.b).type();
      }
      case ExprKind::MathCall: {
        const auto& n = *e.as<MathCall>();
        return MathCall::make(n.fn, n.args).type();
      }
      case ExprKind::Load: {
        const auto& n = *e.as<Load>();
        return Load::make(n.ptr, n.mask, n.other, {}, n.cache, n.eviction, n.isVolatile, n.box).type();
      }
      case ExprKind::AtomicRMW: {
        const auto& n = *e.as<AtomicRMW>();
        return AtomicRMW::make(n.op, n.ptr, n.val, n.mask).type();
      }
      case ExprKind::AtomicCAS: {
        const auto& n = *e.as<AtomicCAS>();
        return AtomicCAS::make(n.ptr, n.cmp, n.val).type();
      }
      case ExprKind::Reduce: {
        const auto& n = *e.as<Reduce>();
        return Reduce::make(n.op, n.value, n.axis, n.keepDims).type();
      }
      case ExprKind::Scan: {
        const auto& n = *e.as<Scan>();
        return Scan::make(n.op, n.value, n.axis, n.reverse).type();
      }
      case ExprKind::Dot: {
        const auto& n = *e.as<Dot>();
        return Dot::make(n.a, n.b, n.acc, n.type.dtype(), n.precision).type();
      }
      case ExprKind::Rand: {
        const auto& n = *e.as<Rand>();
        return Rand::make(n.kind, n.seed, n.offset, n.nRounds, n.component).type();
      }
      case ExprKind::Hint: {
        const auto& n = *e.as<Hint>();
        return Hint::make(n.hint, n.value, n.values).type();
      }
      case ExprKind::InlineAsm: {
        const auto& n = *e.as<InlineAsm>();
        return InlineAsm::make(n.asmText, n.constraints, n.args, n.resultDTypes, n.output, n.isPure, n.pack, n.type.shape()).type();
      }
      case ExprKind::ConvertLayout: {
        const auto& n = *e.as<ConvertLayout>();
        return ConvertLayout::make(n.value, n.layout).type();
      }
      case ExprKind::Combine: {
        const auto& n = *e.as<Combine>();
        return Combine::make(n.inputs, n.params, n.results, n.output, n.scan, n.axis, n.keepDims, n.reverse).type();
      }
    }
    throw lang::InternalError("unknown expression kind");
  }

  // Checks e and its operands. `effectAllowed` is true only for the root of a Let's value.
  void expr(const Expr& e, bool effectAllowed = false) {
    if (!e) return;
    if (e.hasEffects() && !effectAllowed)
      fail(e.range(), std::string(exprKindName(e.kind())) + " has memory effects but is not the value of a Let");
    // Children first, so that an ill-typed leaf is reported where it is.
    children(e);
    try {
      const Type t = rederive(e);
      if (t != e.type())
        fail(e.range(), std::string(exprKindName(e.kind())) + " has type " + e.type().str() + " but its operands give " + t.str());
    } catch (const lang::InternalError& err) {
      fail(e.range(), std::string(exprKindName(e.kind())) + ": " + err.what());
    }
  }

  void children(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::Splat: return expr(e.as<Splat>()->value);
      case ExprKind::Broadcast: return expr(e.as<Broadcast>()->value);
      case ExprKind::ExpandDims: return expr(e.as<ExpandDims>()->value);
      case ExprKind::Reshape: return expr(e.as<Reshape>()->value);
      case ExprKind::Permute: return expr(e.as<Permute>()->value);
      case ExprKind::Cast: return expr(e.as<Cast>()->value);
      case ExprKind::Unary: return expr(e.as<Unary>()->value);
      case ExprKind::Binary:
        expr(e.as<Binary>()->a);
        return expr(e.as<Binary>()->b);
      case ExprKind::Select:
        expr(e.as<Select>()->cond);
        expr(e.as<Select>()->a);
        return expr(e.as<Select>()->b);
      case ExprKind::MathCall:
        for (const Expr& a : e.as<MathCall>()->args) expr(a);
        return;
      case ExprKind::Load:
        expr(e.as<Load>()->ptr);
        expr(e.as<Load>()->mask);
        if (const auto& box = e.as<Load>()->box) {
          expr(box->base);
          for (const auto* list : {&box->shape, &box->strides, &box->offsets})
            for (const Expr& x : *list) expr(x);
        }
        return expr(e.as<Load>()->other);
      case ExprKind::AtomicRMW:
        expr(e.as<AtomicRMW>()->ptr);
        expr(e.as<AtomicRMW>()->val);
        return expr(e.as<AtomicRMW>()->mask);
      case ExprKind::AtomicCAS:
        expr(e.as<AtomicCAS>()->ptr);
        expr(e.as<AtomicCAS>()->cmp);
        return expr(e.as<AtomicCAS>()->val);
      case ExprKind::Reduce: return expr(e.as<Reduce>()->value);
      case ExprKind::Scan: return expr(e.as<Scan>()->value);
      case ExprKind::Dot:
        expr(e.as<Dot>()->a);
        expr(e.as<Dot>()->b);
        return expr(e.as<Dot>()->acc);
      case ExprKind::Rand:
        expr(e.as<Rand>()->seed);
        return expr(e.as<Rand>()->offset);
      case ExprKind::Hint: return expr(e.as<Hint>()->value);
      case ExprKind::ConvertLayout: return expr(e.as<ConvertLayout>()->value);
      case ExprKind::InlineAsm:
        for (const Expr& a : e.as<InlineAsm>()->args) expr(a);
        return;
      case ExprKind::Combine: {
        const auto& n = *e.as<Combine>();
        for (const Expr& in : n.inputs) expr(in);
        // The params are the combine function's own: visible in its results only, and shared by the
        // nodes of one tuple, so they are scoped here rather than introduced once per kernel.
        scopes_.emplace_back();
        for (const VarPtr& p : n.params) {
          if (!p) continue;
          if (kernel_.varCount && (p->id < 0 || p->id >= kernel_.varCount))
            fail(e.range(), "combine param '" + p->name + "' has id " + std::to_string(p->id) + " outside the kernel's vars");
          scopes_.back().insert(p.get());
        }
        for (const Expr& r : n.results) {
          if (r && r.type().isTile()) fail(r.range(), "a combine function's result must be a scalar");
          expr(r);
        }
        scopes_.pop_back();
        return;
      }
      default: return;  // leaves
    }
  }

  void body(const Stmt& s) {
    scopes_.emplace_back();
    stmt(s);
    scopes_.pop_back();
  }

  void stmt(const Stmt& s) {
    if (!s) {
      fail({}, "undefined statement");
      return;
    }
    const SourceRange& r = s.range();
    switch (s.kind()) {
      case StmtKind::Let: {
        const auto& n = *s.as<Let>();
        expr(n.value, /*effectAllowed=*/true);
        if (n.var && n.value && n.var->type != n.value.type())
          fail(r, "let '" + n.var->name + "' has type " + n.var->type.str() + " but its value is " + n.value.type().str());
        // A var bound to a conversion has the layout it converts to (the table may leave it out).
        if (const auto* c = n.value.as<ConvertLayout>(); c && n.var)
          if (auto it = kernel_.layouts.find(n.var->id); it != kernel_.layouts.end() && it->second.str() != c->layout.str())
            fail(r, "let '" + n.var->name + "' is listed in layout " + it->second.str() + " but converts to " + c->layout.str());
        introduce(n.var, r);
        return;
      }
      case StmtKind::Assign: {
        const auto& n = *s.as<Assign>();
        expr(n.value);
        use(n.var, r);
        if (n.var && !n.var->isMutable) fail(r, "assign to immutable var '" + n.var->name + "'");
        if (n.var && n.value && n.var->type != n.value.type())
          fail(r, "assign to '" + n.var->name + "' of type " + n.var->type.str() + " changes it to " + n.value.type().str());
        return;
      }
      case StmtKind::Store: {
        const auto& n = *s.as<Store>();
        expr(n.ptr);
        expr(n.value);
        expr(n.mask);
        if (!n.ptr || !n.value) {
          fail(r, "store without pointer or value");
          return;
        }
        if (!n.ptr.type().isPointer()) {
          fail(r, "store to a non-pointer " + n.ptr.type().str());
          return;
        }
        if (n.value.type() != n.ptr.type().pointee())
          fail(r, "store value " + n.value.type().str() + " does not match pointer " + n.ptr.type().str());
        if (n.mask && n.mask.type() != n.ptr.type().withDType(DType::I1))
          fail(r, "store mask " + n.mask.type().str() + " does not match pointer " + n.ptr.type().str());
        return;
      }
      case StmtKind::Seq:
        for (const Stmt& c : s.as<Seq>()->stmts) stmt(c);
        return;
      case StmtKind::If: {
        const auto& n = *s.as<If>();
        expr(n.cond);
        if (n.cond && n.cond.type() != Type::scalar(DType::I1)) fail(r, "if condition is " + n.cond.type().str() + ", not i1");
        body(n.thenBody);
        if (n.elseBody) body(n.elseBody);
        return;
      }
      case StmtKind::For: {
        const auto& n = *s.as<For>();
        expr(n.start);
        expr(n.end);
        expr(n.step);
        if (!n.iv || !n.start || !n.end || !n.step) {
          fail(r, "for loop with missing parts");
          return;
        }
        if (!(n.iv->type.isScalar() && n.iv->type.isInt() && !n.iv->type.isBool()))
          fail(r, "loop variable '" + n.iv->name + "' is " + n.iv->type.str() + ", not an integer scalar");
        for (const Expr* b : {&n.start, &n.end, &n.step})
          if (b->type() != n.iv->type) fail(r, "loop bound " + b->type().str() + " differs from loop variable " + n.iv->type.str());
        if (n.iv->isMutable) fail(r, "loop variable '" + n.iv->name + "' must be immutable");
        scopes_.emplace_back();
        introduce(n.iv, r);
        ++loopDepth_;
        body(n.body);
        --loopDepth_;
        scopes_.pop_back();
        return;
      }
      case StmtKind::While: {
        const auto& n = *s.as<While>();
        use(n.cond, r);
        if (n.cond && !(n.cond->isMutable && n.cond->type == Type::scalar(DType::I1)))
          fail(r, "while condition '" + n.cond->name + "' must be a mutable i1 var");
        ++loopDepth_;
        body(n.body);
        --loopDepth_;
        return;
      }
      case StmtKind::Print:
        for (const Expr& a : s.as<Print>()->args) expr(a);
        return;
      case StmtKind::Assert: {
        const auto& n = *s.as<Assert>();
        expr(n.cond);
        if (n.cond && !n.cond.type().isBool()) fail(r, "assert condition is " + n.cond.type().str() + ", not i1");
        return;
      }
      case StmtKind::Barrier: return;
      case StmtKind::HostCall: {
        const auto& n = *s.as<HostCall>();
        auto arg = [&](const HostArg& a) {
          if (a.kind == HostArg::Kind::Value && !a.value) fail(r, "host call value argument is undefined");
          expr(a.value);
          for (const FormatPart& p : a.parts) expr(p.value);
        };
        for (const HostArg& a : n.args) arg(a);
        for (const auto& [name, a] : n.kwargs) arg(a);
        return;
      }
      case StmtKind::Return:
        if (loopDepth_ > 0) fail(r, "return inside a loop");
        return;
    }
    fail(r, "unknown statement kind");
  }
};

// The dot passes' plan (DotPlan.h) names dots, loops and Lets of this kernel.
class DeclaredVars : public IRVisitor {
public:
  std::set<int> lets, loops, assigned;

protected:
  void visitLet(const Let& n) override {
    lets.insert(n.var->id);
    IRVisitor::visitLet(n);
  }
  void visitAssign(const Assign& n) override {
    assigned.insert(n.var->id);
    IRVisitor::visitAssign(n);
  }
  void visitFor(const For& n) override {
    loops.insert(n.iv->id);
    IRVisitor::visitFor(n);
  }
};

void checkDotPlan(const Kernel& kernel, std::vector<std::string>& problems) {
  const DotPlan& plan = kernel.dotPlan;
  if (plan.empty() || !kernel.body) return;
  DeclaredVars vars;
  vars.visitStmt(kernel.body);
  const size_t dots = dotsInOrder(kernel.body).size();
  auto bad = [&](const std::string& what) { problems.push_back("dot plan: " + what); };
  auto isLet = [&](int id) { return vars.lets.count(id) > 0; };
  auto isLoop = [&](int id) { return vars.loops.count(id) > 0; };
  for (const auto& [index, d] : plan.dots) {
    if (index < 0 || static_cast<size_t>(index) >= dots) bad("dot " + std::to_string(index) + " of " + std::to_string(dots));
    if (d.var >= 0 && !isLet(d.var) && !vars.assigned.count(d.var)) bad("dot " + std::to_string(index) + " in var id " + std::to_string(d.var) + " that is never bound");
  }
  for (const auto& [iv, r] : plan.resident) {
    if (!isLoop(iv)) bad("resident accumulator of loop var id " + std::to_string(iv) + ", which is no loop");
    if (!vars.assigned.count(r.acc) || !isLet(r.result) || !plan.dots.count(r.dot))
      bad("resident accumulator of loop var id " + std::to_string(iv) + " names a missing accumulator, result or dot");
    for (int id : r.deferredLoads)
      if (!isLet(id)) bad("deferred load var id " + std::to_string(id) + " is no Let");
  }
  for (const auto& [iv, p] : plan.pipelines) {
    if (!plan.resident.count(iv)) bad("pipeline of loop var id " + std::to_string(iv) + ", which keeps no resident accumulator");
    if (!isLet(p.a.load) || !isLet(p.b.load) || p.stages < 2)
      bad("pipeline of loop var id " + std::to_string(iv) + " with missing operand loads or fewer than 2 stages");
    for (int id : p.bodyValues)
      if (!isLet(id)) bad("pipeline value var id " + std::to_string(id) + " is no Let");
  }
  for (const auto& [iv, why] : plan.notPipelined)
    if (!isLoop(iv)) bad("unpipelined loop var id " + std::to_string(iv) + ", which is no loop");
}

}  // namespace

std::vector<std::string> IRVerifier::verify(const Kernel& kernel) {
  Verifier v(kernel);
  for (const KernelParam& p : kernel.params) {
    if (!p.isConstexpr && !p.type.isScalar())
      v.problems.push_back("parameter '" + p.name + "' has tile type " + p.type.str());
  }
  v.run();
  // The layout pass's table names vars of this kernel.
  for (const auto& [id, layout] : kernel.layouts)
    if (id < 0 || id >= kernel.varCount || layout.warpsM < 1)
      v.problems.push_back("layout " + layout.str() + " given to var id " + std::to_string(id) + " outside the kernel");
  // Blocked layouts: a tile var's, with the kernel's vector width for its numel (LayoutKind::Blocked).
  for (const auto& [numel, vec] : kernel.blockedVectorWidths)
    if ((vec != 1 && vec != 2 && vec != 4 && vec != 8) || numel % vec != 0)
      v.problems.push_back("blocked vector width " + std::to_string(vec) + " for tiles of " + std::to_string(numel) + " elements");
  for (const auto& [id, layout] : kernel.layouts) {
    if (layout.kind != LayoutKind::Blocked) continue;
    const Var* var = v.var(id);
    if (!var || !var->type.isTile()) {
      v.problems.push_back("blocked layout given to var id " + std::to_string(id) + ", which is not a tile var of the kernel");
      continue;
    }
    const int64_t numel = var->type.numel();
    auto width = kernel.blockedVectorWidths.find(numel);
    const int64_t per = int64_t{layout.threads} * layout.vec;
    if (width == kernel.blockedVectorWidths.end() || width->second != layout.vec || layout.threads != kernel.options.numWarps * 32 ||
        per <= 0 || layout.slotsPerThread != (numel + per - 1) / per * layout.vec || var->type.shape().back() % layout.vec != 0 ||
        layout.order.size() != var->type.shape().size())
      v.problems.push_back("var '" + var->name + "' (" + var->type.str() + ") has the layout " + layout.str() +
                           ", which is not the kernel's blocked layout for its shape");
  }
  for (int iv : kernel.registerLoops)
    if (iv < 0 || iv >= kernel.varCount) v.problems.push_back("register loop of var id " + std::to_string(iv) + " outside the kernel");
  checkDotPlan(kernel, v.problems);
  for (int id : kernel.recomputedAtUse)
    if (const Var* var = v.var(id); !var || var->isMutable || !var->type.isTile())
      v.problems.push_back("var id " + std::to_string(id) + " marked recomputed at use is not an immutable tile var of the kernel");
  // Induction tiles: mutable tile vars, advanced through Lets the body declares.
  for (const auto& [id, tile] : kernel.inductionTiles) {
    const Var* var = v.var(id);
    if (!var || !var->isMutable || !var->type.isTile() || !tile.var || tile.var->id != id || !tile.init.defined())
      v.problems.push_back("induction tile of var id " + std::to_string(id) + ", which is not a mutable tile var of the kernel");
    for (const auto& [let, step] : tile.steps)
      if (!v.declares(let) || !step.defined() || !step.type().isScalar())
        v.problems.push_back("induction tile of var id " + std::to_string(id) + " advanced through var id " + std::to_string(let) +
                             ", which the kernel does not declare or whose step is not a scalar");
  }
  // The axis analysis's table names vars the body declares, with powers of two as facts.
  auto powerOfTwo = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  for (const auto& [id, a] : kernel.axes) {
    if (!v.declares(id)) v.problems.push_back("axis facts (" + a.info.str() + ") of var id " + std::to_string(id) + ", which the kernel does not declare");
    else if (!powerOfTwo(a.info.contiguity) || !powerOfTwo(a.info.constancy) || !powerOfTwo(a.info.divisibility))
      v.problems.push_back("axis facts (" + a.info.str() + ") of var id " + std::to_string(id) + " are not powers of two");
  }
  return v.problems;
}

void IRVerifier::verifyOrThrow(const Kernel& kernel, std::string_view stage) {
  const std::vector<std::string> problems = verify(kernel);
  if (problems.empty()) return;
  std::string msg = "IR verification failed after " + std::string(stage) + " for kernel '" + kernel.name + "':";
  for (const std::string& p : problems) msg += "\n  " + p;
  throw lang::InternalError(msg);
}

}  // namespace tilescope::ir
