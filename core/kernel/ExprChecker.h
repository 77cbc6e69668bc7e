#pragma once
// Type-checks Python expressions inside a @triton.jit function and emits their IR: names,
// constants (folded with Python semantics), operators on tensors (Triton's promotion and
// broadcasting, with every cast and broadcast made explicit), indexing, attributes, and calls
// (builtins, tensor methods, inlined jit helpers, host calls).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/TypeRules.h"
#include "core/kernel/CheckContext.h"
#include "core/kernel/Scope.h"

namespace tilescope::lang {

class FunctionChecker;

// Evaluated arguments of a call, with ranges for diagnostics.
struct CallArgs {
  ValueList args;
  std::vector<SourceRange> argRanges;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<SourceRange> kwargRanges;
  SourceRange range;        // the whole call
  SourceRange calleeRange;  // the callee expression
  std::string calleeText;   // the callee as written, e.g. "tl.arange"
};

// Binds a call's arguments to `params` by Python's rule (util::ArgumentBinding). A binding error is
// reported through ctx at the argument at fault (the call for a missing one), as `name()` would.
util::ArgumentBinding bindCallArgs(CheckContext& ctx, std::string_view name, const std::vector<util::ParameterInfo>& params,
                                   const CallArgs& args);

class ExprChecker {
public:
  ExprChecker(CheckContext& ctx, FunctionChecker& fn) : ctx_(ctx), fn_(fn) {}

  CheckContext& ctx() { return ctx_; }
  Emitter& emitter() { return ctx_.emitter; }
  Scope& scope();

  // Every tile an expression makes is held to Triton's element limit here, at the expression, so an
  // oversized tile (an outer product, a dot of large blocks, ...) is a diagnostic at its line instead
  // of gigabytes in the simulator.
  Value check(const Expr& e);
  // Checks e and demands a runtime-or-constexpr value (not a module, function, ...).
  Value checkValue(const Expr& e, std::string_view what);

  [[noreturn]] void error(SourceRange range, std::string message) { ctx_.error(range, std::move(message)); }

  // --- names
  Value lookupName(const std::string& name, SourceRange range);
  // Candidates for "did you mean" on an unknown name: locals, globals, Python builtins.
  std::vector<std::string> visibleNames() const;

  // --- operators (Python semantics on constexprs, Triton semantics on tensors)
  Value binary(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range);
  Value logical(bool isAnd, const Value& a, const Value& b, SourceRange range);
  Value compare(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range);
  Value unary(UnaryOp op, const Value& a, SourceRange range);
  // tl.where(cond, a, b) with Triton's promotion of a and b.
  Value select(const Value& cond, const Value& a, const Value& b, SourceRange range);
  // tl.minimum / tl.maximum
  Value minMax(bool isMax, const Value& a, const Value& b, bool propagateNan, SourceRange range);

  // --- conversions
  // A tensor expression for v: constexpr numbers become scalars typed like Triton's to_tensor
  // (int -> i32/u32/i64, float -> fp32/fp64, bool -> i1). Anything else is an error naming `what`.
  ir::Expr tensorOf(const Value& v, SourceRange range, std::string_view what);
  // v as a tensor of exactly dtype t (constexprs materialized in t, tensors cast).
  ir::Expr tensorAs(const Value& v, ir::DType t, SourceRange range, std::string_view what);
  // v converted to i1 (x != 0 for other dtypes).
  ir::Expr toBool(const ir::Expr& e, SourceRange range);
  // The promotion operand for v (a tensor's dtype, or a weakly typed literal).
  ir::Operand operandOf(const Value& v, SourceRange range, std::string_view what);
  // Broadcasts both to their common shape, or reports "cannot broadcast shapes ..." at range.
  std::pair<ir::Expr, ir::Expr> broadcastPair(const ir::Expr& a, const ir::Expr& b, SourceRange range);
  ir::Expr broadcastTo(const ir::Expr& e, const ir::Shape& shape, SourceRange range, std::string_view what);

  const ConstValue& requireConst(const Value& v, SourceRange range, std::string_view what);
  int64_t requireConstInt(const Value& v, SourceRange range, std::string_view what);
  bool requireConstBool(const Value& v, SourceRange range, std::string_view what);
  std::string requireConstString(const Value& v, SourceRange range, std::string_view what);
  ir::DType requireDType(const Value& v, SourceRange range, std::string_view what);
  // A shape: a tuple/list of constexpr ints (or a single int).
  ir::Shape requireShape(const Value& v, SourceRange range, std::string_view what);

  // --- calls
  CallArgs evaluateArgs(const Call& call);
  Value call(const Value& callee, CallArgs& args);

private:
  CheckContext& ctx_;
  FunctionChecker& fn_;

  Value checkUnlimited(const Expr& e);
  void requireTileSize(const Value& v, SourceRange range);

  Value checkName(const Name& e);
  Value checkAttribute(const Attribute& e);
  Value checkSubscript(const Subscript& e);
  Value checkCall(const Call& e);
  Value checkBinary(const Binary& e);
  Value checkBoolOp(const BoolOp& e);
  Value checkCompare(const Compare& e);
  Value checkIfExp(const IfExp& e);
  Value checkFString(const FString& e);

  Value tensorAttribute(const Value& self, const std::string& attr, SourceRange range, SourceRange attrRange);
  Value dtypeAttribute(const ConstValue& self, const std::string& attr, SourceRange range, SourceRange attrRange);
  Value indexTensor(const Value& self, const Expr& index, SourceRange range);
  Value callMethod(const Value& method, CallArgs& args);
  Value callHost(const Value& fn, CallArgs& args);
  Value tensorBinary(ir::BinaryOp op, const Value& a, const Value& b, SourceRange range);
};

// The IR operator for a Python binary operator; nullopt for `**` and `@`.
std::optional<ir::BinaryOp> irBinaryOp(BinaryOp op);

}  // namespace tilescope::lang
