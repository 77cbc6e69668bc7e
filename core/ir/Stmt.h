#pragma once
// Statements of the typed tile IR. Like expressions they are immutable shared nodes behind the
// handle `Stmt`. Control flow is structured (no goto, no break/continue: Triton has none).
//
// Invariants (checked by IRVerifier):
//  * A Var is introduced by exactly one Let (or For as its induction variable) before any use,
//    in a scope enclosing the use. Assign targets are mutable Vars and keep their type exactly
//    (Triton requires loop-carried values to keep their type).
//  * If conditions are scalar i1; While conditions are mutable scalar i1 Vars.
//  * Store: value has the pointee type and the pointer's shape; mask is i1 of that shape.
//  * Effects (Load/AtomicRMW/AtomicCAS) appear only as the whole value of a Let.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/Constant.h"
#include "core/ir/Expr.h"

namespace tilescope::ir {

enum class StmtKind : uint8_t { Let, Assign, Store, Seq, If, For, While, Print, Assert, Barrier, HostCall, Return };

std::string_view stmtKindName(StmtKind k);

struct StmtNode {
  explicit StmtNode(StmtKind k) : kind(k) {}
  virtual ~StmtNode() = default;
  StmtNode(const StmtNode&) = delete;
  StmtNode& operator=(const StmtNode&) = delete;

  const StmtKind kind;
  SourceRange range;
};

template <StmtKind K>
struct StmtNodeBase : StmtNode {
  static constexpr StmtKind kKind = K;
  StmtNodeBase() : StmtNode(K) {}
};

class Stmt {
public:
  Stmt() = default;
  explicit Stmt(std::shared_ptr<const StmtNode> node) : node_(std::move(node)) {}

  bool defined() const { return node_ != nullptr; }
  explicit operator bool() const { return defined(); }
  const StmtNode* get() const { return node_.get(); }
  const StmtNode* operator->() const { return node_.get(); }
  const std::shared_ptr<const StmtNode>& ptr() const { return node_; }
  StmtKind kind() const { return node_->kind; }
  const SourceRange& range() const { return node_->range; }

  template <class T>
  const T* as() const {
    return node_ && node_->kind == T::kKind ? static_cast<const T*>(node_.get()) : nullptr;
  }
  bool sameAs(const Stmt& other) const { return node_ == other.node_; }

private:
  std::shared_ptr<const StmtNode> node_;
};

// Introduces `var` (immutable or mutable) with an initial value of exactly var->type.
struct Let : StmtNodeBase<StmtKind::Let> {
  VarPtr var;
  Expr value;
  static Stmt make(VarPtr var, Expr value, SourceRange r = {});
};

// Rebinds a mutable var; value has exactly var->type.
struct Assign : StmtNodeBase<StmtKind::Assign> {
  VarPtr var;
  Expr value;
  static Stmt make(VarPtr var, Expr value, SourceRange r = {});
};

// Writes value to *ptr elementwise where mask is true. The checker casts the value to the pointee
// dtype and broadcasts it to the pointer's shape (Triton does the same).
struct Store : StmtNodeBase<StmtKind::Store> {
  Expr ptr;
  Expr value;
  Expr mask;  // optional
  CacheModifier cache = CacheModifier::None;
  EvictionPolicy eviction = EvictionPolicy::Normal;
  static Stmt make(Expr ptr, Expr value, Expr mask = {}, SourceRange r = {},
                   CacheModifier cache = CacheModifier::None, EvictionPolicy eviction = EvictionPolicy::Normal);
};

// Statements in order. Vars introduced inside a Seq are visible to the rest of that Seq only.
struct Seq : StmtNodeBase<StmtKind::Seq> {
  std::vector<Stmt> stmts;
  static Stmt make(std::vector<Stmt> stmts, SourceRange r = {});
};

// Runtime branch on a scalar i1 (constexpr conditions are folded by the checker).
struct If : StmtNodeBase<StmtKind::If> {
  Expr cond;
  Stmt thenBody;
  Stmt elseBody;  // optional
  static Stmt make(Expr cond, Stmt thenBody, Stmt elseBody = {}, SourceRange r = {});
};

// Pipelining/unrolling hints of tl.range; the simulator ignores them.
struct LoopHints {
  std::optional<int> numStages;
  std::optional<int> loopUnrollFactor;
  bool disallowAccMultiBuffer = false;
  bool flatten = false;
  bool warpSpecialize = false;
};

// for iv in range(start, end, step): start/end/step are scalars of iv's integer type, evaluated
// once before the loop. Iterates while (step > 0 ? iv < end : iv > end); step == 0 is a runtime
// error. iv is immutable inside the body.
struct For : StmtNodeBase<StmtKind::For> {
  VarPtr iv;
  Expr start;
  Expr end;
  Expr step;
  Stmt body;
  LoopKind loopKind = LoopKind::Range;
  LoopHints hints;
  static Stmt make(VarPtr iv, Expr start, Expr end, Expr step, Stmt body, LoopKind kind = LoopKind::Range,
                   LoopHints hints = {}, SourceRange r = {});
};

// while cond: body. `cond` is a mutable scalar i1 Var; the checker lowers `while c:` to
//   Let cond = c; While(cond) { body; Assign cond = c }
struct While : StmtNodeBase<StmtKind::While> {
  VarPtr cond;
  Stmt body;
  static Stmt make(VarPtr cond, Stmt body, SourceRange r = {});
};

// tl.device_print / Python print inside a kernel. isDevicePrint distinguishes the two because the
// interpreter prints Python's print() like Python (the seeds rely on it) and device_print like the
// GPU ("pid (0, 0, 0) idx (3) prefix: value"). `prefix` is as the user wrote it; Triton's
// decoration (a leading space and a trailing ": " when there are args) is applied when printing.
struct Print : StmtNodeBase<StmtKind::Print> {
  std::string prefix;
  std::vector<Expr> args;
  bool hex = false;
  bool isDevicePrint = true;
  static Stmt make(std::string prefix, std::vector<Expr> args, bool hex, bool isDevicePrint, SourceRange r = {});
};

// tl.device_assert: fails when any element of cond (i1, scalar or tile) is false.
struct Assert : StmtNodeBase<StmtKind::Assert> {
  Expr cond;
  std::string message;
  static Stmt make(Expr cond, std::string message, SourceRange r = {});
};

// tl.debug_barrier(): all threads of the program reach this point before any continues.
struct Barrier : StmtNodeBase<StmtKind::Barrier> {
  static Stmt make(SourceRange r = {});
};

// An argument of a HostCall. The simulator evaluates exprs and calls back into the host runtime.
struct FormatPart {
  std::string literal;     // text before the replacement field (may be empty)
  Expr value;              // the `{...}` expression; undefined for a trailing literal
  char conversion = 0;     // 0, 'r', 's' or 'a' (`{x!r}`)
  std::string formatSpec;  // text after ':' in `{x:>8}`
};

struct HostArg {
  enum class Kind : uint8_t { Value, Constant, Format };
  Kind kind = Kind::Constant;
  Expr value;                     // Kind::Value
  Constant constant;              // Kind::Constant
  std::vector<FormatPart> parts;  // Kind::Format (an f-string)

  static HostArg ofValue(Expr e);
  static HostArg ofConstant(Constant c);
  static HostArg ofFormat(std::vector<FormatPart> parts);
};

// A call to a plain (non-jit) Python function from inside a kernel, e.g. the seeds'
// print_if(f'pid = {pid} | offs = {offs}', ''). Only the interpreter can run it; codegen rejects it.
struct HostCall : StmtNodeBase<StmtKind::HostCall> {
  std::string callee;
  std::vector<HostArg> args;
  std::vector<std::pair<std::string, HostArg>> kwargs;
  static Stmt make(std::string callee, std::vector<HostArg> args, std::vector<std::pair<std::string, HostArg>> kwargs,
                   SourceRange r = {});
};

// Ends the current program instance (a bare `return` in the kernel outside loops).
struct Return : StmtNodeBase<StmtKind::Return> {
  static Stmt make(SourceRange r = {});
};

}  // namespace tilescope::ir
