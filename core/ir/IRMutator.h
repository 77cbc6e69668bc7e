#pragma once
// Rebuilding traversal of the IR. Each mutateX receives the node and its handle (`self`); the
// default mutates the children and returns `self` itself when none changed, so an untouched tree
// comes back pointer-identical (cheap passes, and tests can check identity). Rebuilt nodes go
// through the make() functions, which re-check local typing. Vars are kept as they are; a pass
// that changes a var's type must make a new Var and map its uses itself.
#include "core/ir/Kernel.h"

namespace tilescope::ir {

class IRMutator {
public:
  virtual ~IRMutator() = default;

  // Dispatch; an undefined handle comes back undefined.
  virtual Expr mutateExpr(const Expr& e);
  virtual Stmt mutateStmt(const Stmt& s);
  // A copy of the kernel with a mutated body (the same body object when nothing changed).
  Kernel mutateKernel(const Kernel& k);

protected:
  virtual Expr mutateIntImm(const IntImm&, const Expr& self) { return self; }
  virtual Expr mutateFloatImm(const FloatImm&, const Expr& self) { return self; }
  virtual Expr mutateParamRef(const ParamRef&, const Expr& self) { return self; }
  virtual Expr mutateVarRef(const VarRef&, const Expr& self) { return self; }
  virtual Expr mutateProgramId(const ProgramId&, const Expr& self) { return self; }
  virtual Expr mutateNumPrograms(const NumPrograms&, const Expr& self) { return self; }
  virtual Expr mutateArange(const Arange&, const Expr& self) { return self; }
  virtual Expr mutateSplat(const Splat& n, const Expr& self);
  virtual Expr mutateBroadcast(const Broadcast& n, const Expr& self);
  virtual Expr mutateExpandDims(const ExpandDims& n, const Expr& self);
  virtual Expr mutateReshape(const Reshape& n, const Expr& self);
  virtual Expr mutatePermute(const Permute& n, const Expr& self);
  virtual Expr mutateCast(const Cast& n, const Expr& self);
  virtual Expr mutateUnary(const Unary& n, const Expr& self);
  virtual Expr mutateBinary(const Binary& n, const Expr& self);
  virtual Expr mutateSelect(const Select& n, const Expr& self);
  virtual Expr mutateMathCall(const MathCall& n, const Expr& self);
  virtual Expr mutateLoad(const Load& n, const Expr& self);
  virtual Expr mutateAtomicRMW(const AtomicRMW& n, const Expr& self);
  virtual Expr mutateAtomicCAS(const AtomicCAS& n, const Expr& self);
  virtual Expr mutateReduce(const Reduce& n, const Expr& self);
  virtual Expr mutateScan(const Scan& n, const Expr& self);
  virtual Expr mutateDot(const Dot& n, const Expr& self);
  virtual Expr mutateRand(const Rand& n, const Expr& self);
  virtual Expr mutateHint(const Hint& n, const Expr& self);
  virtual Expr mutateCombine(const Combine& n, const Expr& self);
  virtual Expr mutateInlineAsm(const InlineAsm& n, const Expr& self);
  virtual Expr mutateConvertLayout(const ConvertLayout& n, const Expr& self);

  virtual Stmt mutateLet(const Let& n, const Stmt& self);
  virtual Stmt mutateAssign(const Assign& n, const Stmt& self);
  virtual Stmt mutateStore(const Store& n, const Stmt& self);
  virtual Stmt mutateSeq(const Seq& n, const Stmt& self);
  virtual Stmt mutateIf(const If& n, const Stmt& self);
  virtual Stmt mutateFor(const For& n, const Stmt& self);
  virtual Stmt mutateWhile(const While& n, const Stmt& self);
  virtual Stmt mutatePrint(const Print& n, const Stmt& self);
  virtual Stmt mutateAssert(const Assert& n, const Stmt& self);
  virtual Stmt mutateBarrier(const Barrier&, const Stmt& self) { return self; }
  virtual Stmt mutateHostCall(const HostCall& n, const Stmt& self);
  virtual Stmt mutateReturn(const Return&, const Stmt& self) { return self; }
};

}  // namespace tilescope::ir
