#pragma once
// Read-only traversal of the IR. visitExpr/visitStmt dispatch on the node kind to one visitX per
// node; the defaults visit every child in evaluation order (operands left to right, statements in
// order), so a subclass overrides only the nodes it cares about. The names are distinct (no
// overloads) so that overriding one never hides another.
#include "core/ir/Kernel.h"

namespace tilescope::ir {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;

  // Dispatch; undefined handles (absent optional operands) are skipped.
  virtual void visitExpr(const Expr& e);
  virtual void visitStmt(const Stmt& s);
  void visitKernel(const Kernel& k) { visitStmt(k.body); }

protected:
  virtual void visitIntImm(const IntImm&) {}
  virtual void visitFloatImm(const FloatImm&) {}
  virtual void visitParamRef(const ParamRef&) {}
  virtual void visitVarRef(const VarRef&) {}
  virtual void visitProgramId(const ProgramId&) {}
  virtual void visitNumPrograms(const NumPrograms&) {}
  virtual void visitArange(const Arange&) {}
  virtual void visitSplat(const Splat& n);
  virtual void visitBroadcast(const Broadcast& n);
  virtual void visitExpandDims(const ExpandDims& n);
  virtual void visitReshape(const Reshape& n);
  virtual void visitPermute(const Permute& n);
  virtual void visitCast(const Cast& n);
  virtual void visitUnary(const Unary& n);
  virtual void visitBinary(const Binary& n);
  virtual void visitSelect(const Select& n);
  virtual void visitMathCall(const MathCall& n);
  virtual void visitLoad(const Load& n);
  virtual void visitAtomicRMW(const AtomicRMW& n);
  virtual void visitAtomicCAS(const AtomicCAS& n);
  virtual void visitReduce(const Reduce& n);
  virtual void visitScan(const Scan& n);
  virtual void visitDot(const Dot& n);
  virtual void visitRand(const Rand& n);
  virtual void visitHint(const Hint& n);
  // The inputs, then the combine function's results (which read only its params).
  virtual void visitCombine(const Combine& n);
  virtual void visitInlineAsm(const InlineAsm& n);
  virtual void visitConvertLayout(const ConvertLayout& n);

  virtual void visitLet(const Let& n);
  virtual void visitAssign(const Assign& n);
  virtual void visitStore(const Store& n);
  virtual void visitSeq(const Seq& n);
  virtual void visitIf(const If& n);
  virtual void visitFor(const For& n);
  virtual void visitWhile(const While& n);
  virtual void visitPrint(const Print& n);
  virtual void visitAssert(const Assert& n);
  virtual void visitBarrier(const Barrier&) {}
  virtual void visitHostCall(const HostCall& n);
  virtual void visitReturn(const Return&) {}
};

}  // namespace tilescope::ir
