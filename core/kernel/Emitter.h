#pragma once
// Builds the IR of one kernel while the checker walks the Python: a stack of statement blocks
// (the innermost receives new statements), fresh variables with kernel-unique ids, and the
// explicit conversions the IR demands (casts, splats, broadcasts). It knows nothing of Python;
// it only refuses to build ill-typed IR (InternalError from the ir make() functions).
#include <string>
#include <vector>

#include "core/ir/Stmt.h"

namespace tilescope::lang {

class Emitter {
public:
  void pushBlock();
  // The statements emitted since the matching pushBlock, as one Seq.
  ir::Stmt popBlock(SourceRange range = {});
  void emit(ir::Stmt stmt);
  // Statements of the innermost block so far (read-only).
  const std::vector<ir::Stmt>& currentBlock() const { return blocks_.back(); }

  ir::VarPtr newVar(std::string name, ir::Type type, SourceRange range, bool isMutable = false);
  int varCount() const { return nextVarId_; }

  // `let name = value`; returns a reference to the new var.
  ir::Expr let(const std::string& name, ir::Expr value, SourceRange range);
  // Memory effects must be Let values: binds `value` to a temporary and returns its reference.
  ir::Expr effect(ir::Expr value, SourceRange range);
  // When `ref` reads the temporary the last statement introduced (`let tmp = <load>`), re-emits that
  // statement as `let name = <load>` and returns the new reference; else returns an undefined Expr.
  // Keeps `x = tl.load(...)` to one Let named x.
  ir::Expr renameLastTemp(const ir::Expr& ref, const std::string& name, SourceRange range);

  // Converts e's elements to dtype t (no-op when already t).
  static ir::Expr cast(const ir::Expr& e, ir::DType t, SourceRange range);
  // Splat (scalar), expand dims (lower rank) and broadcast (size-1 dims) e to `shape`. The caller
  // has checked that the shapes are compatible.
  static ir::Expr broadcastTo(const ir::Expr& e, const ir::Shape& shape, SourceRange range);
  // The constant `value` as a scalar of dtype t.
  static ir::Expr constant(ir::DType t, double value, SourceRange range);
  static ir::Expr intConstant(ir::DType t, int64_t value, SourceRange range);

private:
  std::vector<std::vector<ir::Stmt>> blocks_;
  std::vector<const ir::Var*> temps_;  // temporaries made by effect(), renameable
  int nextVarId_ = 0;
};

}  // namespace tilescope::lang
