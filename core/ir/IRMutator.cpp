#include "core/ir/IRMutator.h"

#include "core/base/Diagnostic.h"

namespace tilescope::ir {

namespace {

// Mutates every element; returns true when any changed.
template <class M>
bool mutateAll(M& m, const std::vector<Expr>& in, std::vector<Expr>& out) {
  bool changed = false;
  out.reserve(in.size());
  for (const Expr& e : in) {
    out.push_back(m.mutateExpr(e));
    changed |= !out.back().sameAs(e);
  }
  return changed;
}

}  // namespace

Expr IRMutator::mutateExpr(const Expr& e) {
  if (!e) return e;
  switch (e.kind()) {
    case ExprKind::IntImm: return mutateIntImm(*e.as<IntImm>(), e);
    case ExprKind::FloatImm: return mutateFloatImm(*e.as<FloatImm>(), e);
    case ExprKind::ParamRef: return mutateParamRef(*e.as<ParamRef>(), e);
    case ExprKind::VarRef: return mutateVarRef(*e.as<VarRef>(), e);
    case ExprKind::ProgramId: return mutateProgramId(*e.as<ProgramId>(), e);
    case ExprKind::NumPrograms: return mutateNumPrograms(*e.as<NumPrograms>(), e);
    case ExprKind::Arange: return mutateArange(*e.as<Arange>(), e);
    case ExprKind::Splat: return mutateSplat(*e.as<Splat>(), e);
    case ExprKind::Broadcast: return mutateBroadcast(*e.as<Broadcast>(), e);
    case ExprKind::ExpandDims: return mutateExpandDims(*e.as<ExpandDims>(), e);
    case ExprKind::Reshape: return mutateReshape(*e.as<Reshape>(), e);
    case ExprKind::Permute: return mutatePermute(*e.as<Permute>(), e);
    case ExprKind::Cast: return mutateCast(*e.as<Cast>(), e);
    case ExprKind::Unary: return mutateUnary(*e.as<Unary>(), e);
    case ExprKind::Binary: return mutateBinary(*e.as<Binary>(), e);
    case ExprKind::Select: return mutateSelect(*e.as<Select>(), e);
    case ExprKind::MathCall: return mutateMathCall(*e.as<MathCall>(), e);
    case ExprKind::Load: return mutateLoad(*e.as<Load>(), e);
    case ExprKind::AtomicRMW: return mutateAtomicRMW(*e.as<AtomicRMW>(), e);
    case ExprKind::AtomicCAS: return mutateAtomicCAS(*e.as<AtomicCAS>(), e);
    case ExprKind::Reduce: return mutateReduce(*e.as<Reduce>(), e);
    case ExprKind::Scan: return mutateScan(*e.as<Scan>(), e);
    case ExprKind::Dot: return mutateDot(*e.as<Dot>(), e);
    case ExprKind::Rand: return mutateRand(*e.as<Rand>(), e);
    case ExprKind::Hint: return mutateHint(*e.as<Hint>(), e);
    case ExprKind::Combine: return mutateCombine(*e.as<Combine>(), e);
    case ExprKind::InlineAsm: return mutateInlineAsm(*e.as<InlineAsm>(), e);
    case ExprKind::ConvertLayout: return mutateConvertLayout(*e.as<ConvertLayout>(), e);
  }
  throw lang::InternalError("IRMutator: unknown expression kind");
}

Stmt IRMutator::mutateStmt(const Stmt& s) {
  if (!s) return s;
  switch (s.kind()) {
    case StmtKind::Let: return mutateLet(*s.as<Let>(), s);
    case StmtKind::Assign: return mutateAssign(*s.as<Assign>(), s);
    case StmtKind::Store: return mutateStore(*s.as<Store>(), s);
    case StmtKind::Seq: return mutateSeq(*s.as<Seq>(), s);
    case StmtKind::If: return mutateIf(*s.as<If>(), s);
    case StmtKind::For: return mutateFor(*s.as<For>(), s);
    case StmtKind::While: return mutateWhile(*s.as<While>(), s);
    case StmtKind::Print: return mutatePrint(*s.as<Print>(), s);
    case StmtKind::Assert: return mutateAssert(*s.as<Assert>(), s);
    case StmtKind::Barrier: return mutateBarrier(*s.as<Barrier>(), s);
    case StmtKind::HostCall: return mutateHostCall(*s.as<HostCall>(), s);
    case StmtKind::Return: return mutateReturn(*s.as<Return>(), s);
  }
  throw lang::InternalError("IRMutator: unknown statement kind");
}

Kernel IRMutator::mutateKernel(const Kernel& k) {
  // Everything but the body as it was, the pipeline's tables (registerLoops, layouts) included: a
  // pass after the layout pass must not drop its decisions.
  Kernel out = k;
  out.body = mutateStmt(k.body);
  return out;
}

Expr IRMutator::mutateSplat(const Splat& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Splat::make(v, n.type.shape(), n.range);
}

Expr IRMutator::mutateBroadcast(const Broadcast& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Broadcast::make(v, n.type.shape(), n.range);
}

Expr IRMutator::mutateExpandDims(const ExpandDims& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : ExpandDims::make(v, n.axis, n.range);
}

Expr IRMutator::mutateReshape(const Reshape& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Reshape::make(v, n.type.shape(), n.canReorder, n.range);
}

Expr IRMutator::mutatePermute(const Permute& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Permute::make(v, n.order, n.range);
}

Expr IRMutator::mutateCast(const Cast& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  if (v.sameAs(n.value)) return self;
  return Cast::make(v, n.type.dtype(), n.type.isPointer(), n.bitcast, n.rounding, n.range);
}

Expr IRMutator::mutateUnary(const Unary& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Unary::make(n.op, v, n.range);
}

Expr IRMutator::mutateBinary(const Binary& n, const Expr& self) {
  Expr a = mutateExpr(n.a);
  Expr b = mutateExpr(n.b);
  if (a.sameAs(n.a) && b.sameAs(n.b)) return self;
  return Binary::make(n.op, a, b, n.range, n.propagateNan);
}

Expr IRMutator::mutateSelect(const Select& n, const Expr& self) {
  Expr c = mutateExpr(n.cond);
  Expr a = mutateExpr(n.a);
  Expr b = mutateExpr(n.b);
  if (c.sameAs(n.cond) && a.sameAs(n.a) && b.sameAs(n.b)) return self;
  return Select::make(c, a, b, n.range);
}

Expr IRMutator::mutateMathCall(const MathCall& n, const Expr& self) {
  std::vector<Expr> args;
  if (!mutateAll(*this, n.args, args)) return self;
  return MathCall::make(n.fn, std::move(args), n.range);
}

Expr IRMutator::mutateLoad(const Load& n, const Expr& self) {
  Expr p = mutateExpr(n.ptr);
  Expr m = mutateExpr(n.mask);
  Expr o = mutateExpr(n.other);
  std::shared_ptr<const TensorBox> box = n.box;
  if (box) {
    TensorBox b = *box;
    bool same = true;
    b.base = mutateExpr(box->base);
    same = same && b.base.sameAs(box->base);
    for (auto* list : {&b.shape, &b.strides, &b.offsets})
      for (Expr& e : *list) {
        Expr m2 = mutateExpr(e);
        same = same && m2.sameAs(e);
        e = std::move(m2);
      }
    if (!same) box = std::make_shared<const TensorBox>(std::move(b));
  }
  if (p.sameAs(n.ptr) && m.sameAs(n.mask) && o.sameAs(n.other) && box == n.box) return self;
  return Load::make(p, m, o, n.range, n.cache, n.eviction, n.isVolatile, box);
}

Expr IRMutator::mutateAtomicRMW(const AtomicRMW& n, const Expr& self) {
  Expr p = mutateExpr(n.ptr);
  Expr v = mutateExpr(n.val);
  Expr m = mutateExpr(n.mask);
  if (p.sameAs(n.ptr) && v.sameAs(n.val) && m.sameAs(n.mask)) return self;
  return AtomicRMW::make(n.op, p, v, m, n.range, n.sem, n.scope);
}

Expr IRMutator::mutateAtomicCAS(const AtomicCAS& n, const Expr& self) {
  Expr p = mutateExpr(n.ptr);
  Expr c = mutateExpr(n.cmp);
  Expr v = mutateExpr(n.val);
  if (p.sameAs(n.ptr) && c.sameAs(n.cmp) && v.sameAs(n.val)) return self;
  return AtomicCAS::make(p, c, v, n.range, n.sem, n.scope);
}

Expr IRMutator::mutateReduce(const Reduce& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Reduce::make(n.op, v, n.axis, n.keepDims, n.range, n.tieBreakLeft);
}

Expr IRMutator::mutateScan(const Scan& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Scan::make(n.op, v, n.axis, n.reverse, n.range);
}

Expr IRMutator::mutateDot(const Dot& n, const Expr& self) {
  Expr a = mutateExpr(n.a);
  Expr b = mutateExpr(n.b);
  Expr c = mutateExpr(n.acc);
  if (a.sameAs(n.a) && b.sameAs(n.b) && c.sameAs(n.acc)) return self;
  return Dot::make(a, b, c, n.type.dtype(), n.precision, n.range, n.maxNumImpreciseAcc);
}

Expr IRMutator::mutateRand(const Rand& n, const Expr& self) {
  Expr s = mutateExpr(n.seed);
  Expr o = mutateExpr(n.offset);
  if (s.sameAs(n.seed) && o.sameAs(n.offset)) return self;
  return Rand::make(n.kind, s, o, n.nRounds, n.component, n.range);
}

Expr IRMutator::mutateHint(const Hint& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Hint::make(n.hint, v, n.values, n.range);
}

Expr IRMutator::mutateInlineAsm(const InlineAsm& n, const Expr& self) {
  bool same = true;
  std::vector<Expr> args;
  for (const Expr& a : n.args) {
    args.push_back(mutateExpr(a));
    same = same && args.back().sameAs(a);
  }
  if (same) return self;
  return InlineAsm::make(n.asmText, n.constraints, std::move(args), n.resultDTypes, n.output, n.isPure, n.pack, n.type.shape(), n.range);
}

Expr IRMutator::mutateConvertLayout(const ConvertLayout& n, const Expr& self) {
  Expr v = mutateExpr(n.value);
  if (v.sameAs(n.value)) return self;
  return ConvertLayout::make(std::move(v), n.layout, n.range);
}

Expr IRMutator::mutateCombine(const Combine& n, const Expr& self) {
  bool same = true;
  auto all = [&](const std::vector<Expr>& xs) {
    std::vector<Expr> out;
    for (const Expr& x : xs) {
      out.push_back(mutateExpr(x));
      same = same && out.back().sameAs(x);
    }
    return out;
  };
  std::vector<Expr> inputs = all(n.inputs);
  std::vector<Expr> results = all(n.results);
  if (same) return self;
  return Combine::make(std::move(inputs), n.params, std::move(results), n.output, n.scan, n.axis, n.keepDims, n.reverse, n.range);
}

Stmt IRMutator::mutateLet(const Let& n, const Stmt& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Let::make(n.var, v, n.range);
}

Stmt IRMutator::mutateAssign(const Assign& n, const Stmt& self) {
  Expr v = mutateExpr(n.value);
  return v.sameAs(n.value) ? self : Assign::make(n.var, v, n.range);
}

Stmt IRMutator::mutateStore(const Store& n, const Stmt& self) {
  Expr p = mutateExpr(n.ptr);
  Expr v = mutateExpr(n.value);
  Expr m = mutateExpr(n.mask);
  if (p.sameAs(n.ptr) && v.sameAs(n.value) && m.sameAs(n.mask)) return self;
  return Store::make(p, v, m, n.range, n.cache, n.eviction);
}

Stmt IRMutator::mutateSeq(const Seq& n, const Stmt& self) {
  std::vector<Stmt> stmts;
  stmts.reserve(n.stmts.size());
  bool changed = false;
  for (const Stmt& s : n.stmts) {
    stmts.push_back(mutateStmt(s));
    changed |= !stmts.back().sameAs(s);
  }
  return changed ? Seq::make(std::move(stmts), n.range) : self;
}

Stmt IRMutator::mutateIf(const If& n, const Stmt& self) {
  Expr c = mutateExpr(n.cond);
  Stmt t = mutateStmt(n.thenBody);
  Stmt e = mutateStmt(n.elseBody);
  if (c.sameAs(n.cond) && t.sameAs(n.thenBody) && e.sameAs(n.elseBody)) return self;
  return If::make(c, t, e, n.range);
}

Stmt IRMutator::mutateFor(const For& n, const Stmt& self) {
  Expr a = mutateExpr(n.start);
  Expr b = mutateExpr(n.end);
  Expr c = mutateExpr(n.step);
  Stmt body = mutateStmt(n.body);
  if (a.sameAs(n.start) && b.sameAs(n.end) && c.sameAs(n.step) && body.sameAs(n.body)) return self;
  return For::make(n.iv, a, b, c, body, n.loopKind, n.hints, n.range);
}

Stmt IRMutator::mutateWhile(const While& n, const Stmt& self) {
  Stmt body = mutateStmt(n.body);
  return body.sameAs(n.body) ? self : While::make(n.cond, body, n.range);
}

Stmt IRMutator::mutatePrint(const Print& n, const Stmt& self) {
  std::vector<Expr> args;
  if (!mutateAll(*this, n.args, args)) return self;
  return Print::make(n.prefix, std::move(args), n.hex, n.isDevicePrint, n.range);
}

Stmt IRMutator::mutateAssert(const Assert& n, const Stmt& self) {
  Expr c = mutateExpr(n.cond);
  return c.sameAs(n.cond) ? self : Assert::make(c, n.message, n.range);
}

Stmt IRMutator::mutateHostCall(const HostCall& n, const Stmt& self) {
  bool changed = false;
  auto mutateArg = [&](const HostArg& a) {
    HostArg out = a;
    out.value = mutateExpr(a.value);
    changed |= !out.value.sameAs(a.value);
    for (FormatPart& p : out.parts) {
      Expr v = mutateExpr(p.value);
      changed |= !v.sameAs(p.value);
      p.value = v;
    }
    return out;
  };
  std::vector<HostArg> args;
  for (const HostArg& a : n.args) args.push_back(mutateArg(a));
  std::vector<std::pair<std::string, HostArg>> kwargs;
  for (const auto& [name, a] : n.kwargs) kwargs.emplace_back(name, mutateArg(a));
  return changed ? HostCall::make(n.callee, std::move(args), std::move(kwargs), n.range) : self;
}

}  // namespace tilescope::ir
