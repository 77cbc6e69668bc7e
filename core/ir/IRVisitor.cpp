#include "core/ir/IRVisitor.h"

#include "core/base/Diagnostic.h"

namespace tilescope::ir {

void IRVisitor::visitExpr(const Expr& e) {
  if (!e) return;
  switch (e.kind()) {
    case ExprKind::IntImm: return visitIntImm(*e.as<IntImm>());
    case ExprKind::FloatImm: return visitFloatImm(*e.as<FloatImm>());
    case ExprKind::ParamRef: return visitParamRef(*e.as<ParamRef>());
    case ExprKind::VarRef: return visitVarRef(*e.as<VarRef>());
    case ExprKind::ProgramId: return visitProgramId(*e.as<ProgramId>());
    case ExprKind::NumPrograms: return visitNumPrograms(*e.as<NumPrograms>());
    case ExprKind::Arange: return visitArange(*e.as<Arange>());
    case ExprKind::Splat: return visitSplat(*e.as<Splat>());
    case ExprKind::Broadcast: return visitBroadcast(*e.as<Broadcast>());
    case ExprKind::ExpandDims: return visitExpandDims(*e.as<ExpandDims>());
    case ExprKind::Reshape: return visitReshape(*e.as<Reshape>());
    case ExprKind::Permute: return visitPermute(*e.as<Permute>());
    case ExprKind::Cast: return visitCast(*e.as<Cast>());
    case ExprKind::Unary: return visitUnary(*e.as<Unary>());
    case ExprKind::Binary: return visitBinary(*e.as<Binary>());
    case ExprKind::Select: return visitSelect(*e.as<Select>());
    case ExprKind::MathCall: return visitMathCall(*e.as<MathCall>());
    case ExprKind::Load: return visitLoad(*e.as<Load>());
    case ExprKind::AtomicRMW: return visitAtomicRMW(*e.as<AtomicRMW>());
    case ExprKind::AtomicCAS: return visitAtomicCAS(*e.as<AtomicCAS>());
    case ExprKind::Reduce: return visitReduce(*e.as<Reduce>());
    case ExprKind::Scan: return visitScan(*e.as<Scan>());
    case ExprKind::Dot: return visitDot(*e.as<Dot>());
    case ExprKind::Rand: return visitRand(*e.as<Rand>());
    case ExprKind::Hint: return visitHint(*e.as<Hint>());
    case ExprKind::Combine: return visitCombine(*e.as<Combine>());
    case ExprKind::InlineAsm: return visitInlineAsm(*e.as<InlineAsm>());
    case ExprKind::ConvertLayout: return visitConvertLayout(*e.as<ConvertLayout>());
  }
  throw lang::InternalError("IRVisitor: unknown expression kind");
}

void IRVisitor::visitStmt(const Stmt& s) {
  if (!s) return;
  switch (s.kind()) {
    case StmtKind::Let: return visitLet(*s.as<Let>());
    case StmtKind::Assign: return visitAssign(*s.as<Assign>());
    case StmtKind::Store: return visitStore(*s.as<Store>());
    case StmtKind::Seq: return visitSeq(*s.as<Seq>());
    case StmtKind::If: return visitIf(*s.as<If>());
    case StmtKind::For: return visitFor(*s.as<For>());
    case StmtKind::While: return visitWhile(*s.as<While>());
    case StmtKind::Print: return visitPrint(*s.as<Print>());
    case StmtKind::Assert: return visitAssert(*s.as<Assert>());
    case StmtKind::Barrier: return visitBarrier(*s.as<Barrier>());
    case StmtKind::HostCall: return visitHostCall(*s.as<HostCall>());
    case StmtKind::Return: return visitReturn(*s.as<Return>());
  }
  throw lang::InternalError("IRVisitor: unknown statement kind");
}

void IRVisitor::visitSplat(const Splat& n) { visitExpr(n.value); }
void IRVisitor::visitBroadcast(const Broadcast& n) { visitExpr(n.value); }
void IRVisitor::visitExpandDims(const ExpandDims& n) { visitExpr(n.value); }
void IRVisitor::visitReshape(const Reshape& n) { visitExpr(n.value); }
void IRVisitor::visitPermute(const Permute& n) { visitExpr(n.value); }
void IRVisitor::visitCast(const Cast& n) { visitExpr(n.value); }
void IRVisitor::visitUnary(const Unary& n) { visitExpr(n.value); }
void IRVisitor::visitBinary(const Binary& n) {
  visitExpr(n.a);
  visitExpr(n.b);
}
void IRVisitor::visitSelect(const Select& n) {
  visitExpr(n.cond);
  visitExpr(n.a);
  visitExpr(n.b);
}
void IRVisitor::visitMathCall(const MathCall& n) {
  for (const Expr& a : n.args) visitExpr(a);
}
void IRVisitor::visitLoad(const Load& n) {
  visitExpr(n.ptr);
  visitExpr(n.mask);
  visitExpr(n.other);
  if (n.box) {
    visitExpr(n.box->base);
    for (const auto* list : {&n.box->shape, &n.box->strides, &n.box->offsets})
      for (const Expr& e : *list) visitExpr(e);
  }
}
void IRVisitor::visitAtomicRMW(const AtomicRMW& n) {
  visitExpr(n.ptr);
  visitExpr(n.val);
  visitExpr(n.mask);
}
void IRVisitor::visitAtomicCAS(const AtomicCAS& n) {
  visitExpr(n.ptr);
  visitExpr(n.cmp);
  visitExpr(n.val);
}
void IRVisitor::visitReduce(const Reduce& n) { visitExpr(n.value); }
void IRVisitor::visitScan(const Scan& n) { visitExpr(n.value); }
void IRVisitor::visitDot(const Dot& n) {
  visitExpr(n.a);
  visitExpr(n.b);
  visitExpr(n.acc);
}
void IRVisitor::visitRand(const Rand& n) {
  visitExpr(n.seed);
  visitExpr(n.offset);
}
void IRVisitor::visitHint(const Hint& n) { visitExpr(n.value); }
void IRVisitor::visitInlineAsm(const InlineAsm& n) {
  for (const Expr& a : n.args) visitExpr(a);
}
void IRVisitor::visitConvertLayout(const ConvertLayout& n) { visitExpr(n.value); }
void IRVisitor::visitCombine(const Combine& n) {
  for (const Expr& in : n.inputs) visitExpr(in);
  for (const Expr& r : n.results) visitExpr(r);
}

void IRVisitor::visitLet(const Let& n) { visitExpr(n.value); }
void IRVisitor::visitAssign(const Assign& n) { visitExpr(n.value); }
void IRVisitor::visitStore(const Store& n) {
  visitExpr(n.ptr);
  visitExpr(n.value);
  visitExpr(n.mask);
}
void IRVisitor::visitSeq(const Seq& n) {
  for (const Stmt& s : n.stmts) visitStmt(s);
}
void IRVisitor::visitIf(const If& n) {
  visitExpr(n.cond);
  visitStmt(n.thenBody);
  visitStmt(n.elseBody);
}
void IRVisitor::visitFor(const For& n) {
  visitExpr(n.start);
  visitExpr(n.end);
  visitExpr(n.step);
  visitStmt(n.body);
}
void IRVisitor::visitWhile(const While& n) { visitStmt(n.body); }
void IRVisitor::visitPrint(const Print& n) {
  for (const Expr& a : n.args) visitExpr(a);
}
void IRVisitor::visitAssert(const Assert& n) { visitExpr(n.cond); }
void IRVisitor::visitHostCall(const HostCall& n) {
  auto visitArg = [&](const HostArg& a) {
    visitExpr(a.value);
    for (const FormatPart& p : a.parts) visitExpr(p.value);
  };
  for (const HostArg& a : n.args) visitArg(a);
  for (const auto& [name, a] : n.kwargs) visitArg(a);
}

}  // namespace tilescope::ir
