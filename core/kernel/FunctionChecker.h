#pragma once
// Checks the statements of one function body - the kernel itself, or a @triton.jit helper being
// inlined at a call - and emits their IR into the kernel being built.
//
// Control flow follows Triton's code generator:
//  * `if` on a constexpr checks only the taken branch; on a runtime scalar it becomes an ir::If,
//    and names assigned in a branch and used afterwards become mutable vars assigned at the end of
//    each branch (types must agree; a name bound in one branch only cannot be used afterwards).
//  * `for ... in range/tl.range` becomes an ir::For; names assigned in the body that exist before
//    the loop are loop-carried (mutable vars whose type may not change). tl.static_range loops are
//    unrolled with the loop variable as a constexpr.
//  * `while` lowers to `let c = cond; while c { body; c = cond }`, with the same carrying rules.
//  * `return` in a helper yields its value (both branches of a runtime `if` must return); in the
//    kernel it ends the program (ir::Return). No break/continue, as in Triton.
#include <optional>
#include <set>
#include <string>

#include "core/kernel/ExprChecker.h"

namespace tilescope::lang {

class FunctionChecker {
public:
  enum class Mode { Kernel, Helper };

  FunctionChecker(CheckContext& ctx, Mode mode, const FunctionDef& def);

  Scope& scope() { return scope_; }
  ExprChecker& exprs() { return exprs_; }
  const FunctionDef& def() const { return def_; }

  // Checks the body. For a helper, returns what it returns (None when it falls off the end).
  Value run();

  // Inlines a call of a @triton.jit helper (Value::JitFunction) at the current point.
  Value callHelper(const Value& fn, CallArgs& args);

  // A placeholder of type t (zeros; a null pointer), for merge vars that every path assigns.
  ir::Expr zeroOf(const ir::Type& t, SourceRange range);

  // Binds `name` as Python assignment does, emitting a Let for tensor values.
  void assignName(const std::string& name, const Value& value, SourceRange range);

private:
  enum class Flow { Normal, Returned };

  CheckContext& ctx_;
  Mode mode_;
  const FunctionDef& def_;
  Scope scope_;
  ExprChecker exprs_;
  int loopDepth_ = 0;
  int runtimeIfDepth_ = 0;

  Flow block(const StmtList& body);
  Flow stmt(const Stmt& s);
  void assignTarget(const Expr& target, const Value& value, SourceRange range);
  Flow ifStmt(const If& s);
  Flow forStmt(const For& s);
  Flow staticFor(const For& s, const std::string& target, const CallArgs& args);
  Flow whileStmt(const While& s);
  Flow returnStmt(const Return& s);
  void assertStmt(const Assert& s);

  struct Carried {
    std::string name;
    ir::VarPtr var;
    // A block pointer is carried as its offsets: var is offsets[offsetDim] of blockPointer, the
    // value the name has inside the loop (-1: var is the name's own tensor).
    int offsetDim = -1;
    Value blockPointer;
  };
  // Turns names assigned in `body` that exist now into mutable vars (emitting their Lets).
  std::vector<Carried> carryNames(const StmtList& body, SourceRange loopRange, const std::string& exclude);
  // At the end of a loop body: assigns the carried vars their new values.
  void assignCarried(const std::vector<Carried>& carried, SourceRange loopRange);
  void assignCarriedOffset(const Carried& c, const Binding& b);
  // After a loop: carried names read their vars; names first bound in the body become unusable.
  void closeLoopScope(const Scope& before, const std::vector<Carried>& carried, SourceRange loopRange, const char* what);

  static std::set<std::string> assignedNames(const StmtList& body);
};

}  // namespace tilescope::lang
