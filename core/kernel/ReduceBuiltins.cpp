// Reductions (tl.sum/max/min/argmax/argmin/xor_sum, tl.reduce), scans (cumsum/cumprod,
// tl.associative_scan) and tl.dot, with Triton's input promotions made explicit as casts.
#include "core/syntax/Ast.h"
#include "core/kernel/BuiltinRegistry.h"

#include <unordered_map>

#include "core/ir/IRMutator.h"
#include "core/kernel/Emitter.h"

namespace tilescope::lang {

namespace {

using builtin::tensorArg;
using builtin::tileArg;

ir::Expr reductionInput(ExprChecker& ec, const BoundArgs& a) {
  ir::Expr x = tensorArg(ec, a, "input");
  if (x.type().isScalar())
    ec.error(a.range("input"), a.name() + " reduces a tensor, but " + builtin::describeArg(a, "input") + " (a scalar)");
  if (x.type().isPointer()) ec.error(a.range("input"), a.name() + " cannot reduce pointers");
  return x;
}

std::optional<int> axisArg(ExprChecker& ec, const BoundArgs& a, int rank) {
  if (!a.given("axis")) return std::nullopt;
  const int64_t axis = ec.requireConstInt(a.get("axis"), a.range("axis"), a.name() + " axis");
  auto n = ir::normalizeAxis(axis, rank, a.name());
  if (!n) ec.error(a.range("axis"), n.error());
  return *n;
}

bool flag(ExprChecker& ec, const BoundArgs& a, const std::string& param, bool dflt) {
  if (!a.given(param)) return dflt;
  return ec.requireConstBool(a.get(param), a.range(param), a.name() + " " + param);
}

Value reduce(ExprChecker& ec, const BoundArgs& a, ir::ReduceOp op) {
  ir::Expr x = reductionInput(ec, a);
  const std::optional<int> axis = axisArg(ec, a, x.type().rank());
  const bool keepDims = flag(ec, a, "keep_dims", false);
  const bool returnIndices = op == ir::ReduceOp::Max || op == ir::ReduceOp::Min ? flag(ec, a, "return_indices", false) : false;
  std::optional<ir::DType> in;
  if (returnIndices) {
    in = x.type().dtype() == ir::DType::BF16 ? ir::DType::FP32 : x.type().dtype();
  } else {
    in = ir::reductionInputDType(op, x.type().dtype());
  }
  if (op == ir::ReduceOp::Sum && a.given("dtype")) in = ec.requireDType(a.get("dtype"), a.range("dtype"), "tl.sum dtype");
  if (!in) ec.error(a.callRange(), a.name() + " needs integer input, got " + x.type().str());
  x = Emitter::cast(x, *in, a.callRange());
  if (returnIndices) {
    const bool tieLeft = flag(ec, a, "return_indices_tie_break_left", true);
    const ir::ReduceOp idxOp = op == ir::ReduceOp::Max ? ir::ReduceOp::ArgMax : ir::ReduceOp::ArgMin;
    ir::Expr values = ir::Reduce::make(op, x, axis, keepDims, a.callRange());
    ir::Expr indices = ir::Reduce::make(idxOp, x, axis, keepDims, a.callRange(), tieLeft);
    return Value::ofTuple({Value::ofTensor(values), Value::ofTensor(indices)});
  }
  const bool tieLeft = flag(ec, a, "tie_break_left", true);
  return Value::ofTensor(ir::Reduce::make(op, x, axis, keepDims, a.callRange(), tieLeft));
}

Value scan(ExprChecker& ec, const BoundArgs& a, ir::ScanOp op) {
  ir::Expr x = reductionInput(ec, a);
  const int64_t axis = a.given("axis") ? ec.requireConstInt(a.get("axis"), a.range("axis"), a.name() + " axis") : 0;
  auto n = ir::normalizeAxis(axis, x.type().rank(), a.name());
  if (!n) ec.error(a.range("axis"), n.error());
  std::optional<ir::DType> in = ir::scanInputDType(op, x.type().dtype());
  if (op == ir::ScanOp::CumSum && a.given("dtype")) in = ec.requireDType(a.get("dtype"), a.range("dtype"), "tl.cumsum dtype");
  x = Emitter::cast(x, *in, a.callRange());
  return Value::ofTensor(ir::Scan::make(op, x, *n, flag(ec, a, "reverse", false), a.callRange()));
}

// What a user combine function of tl.reduce / tl.associative_scan computes, when it is one of the
// operations the IR has: a @triton.jit function of two parameters returning `a + b`, `a * b`,
// `a ^ b`, `a | b`, `a & b`, `tl.maximum(a, b)` or `tl.minimum(a, b)` (either order).
enum class Combine { Add, Mul, Xor, Or, And, Max, Min };

std::optional<Combine> combineOf(const Value& fn) {
  if (fn.kind != Value::Kind::JitFunction || !fn.function) return std::nullopt;
  const FunctionDef& def = *fn.function;
  if (def.params.params.size() != 2) return std::nullopt;
  const std::string& p0 = def.params.params[0].name;
  const std::string& p1 = def.params.params[1].name;
  const Return* ret = nullptr;
  for (const StmtPtr& st : def.body) {
    if (st.get() == def.body.front().get() && def.docstring()) continue;
    if (ret || !(ret = st->as<Return>()) || !ret->value) return std::nullopt;
  }
  if (!ret) return std::nullopt;
  auto isName = [](const ExprPtr& e, const std::string& name) {
    const auto* n = e ? e->as<Name>() : nullptr;
    return n && n->id == name;
  };
  auto bothParams = [&](const ExprPtr& x, const ExprPtr& y) { return (isName(x, p0) && isName(y, p1)) || (isName(x, p1) && isName(y, p0)); };
  if (const auto* b = ret->value->as<Binary>(); b && bothParams(b->left, b->right)) {
    switch (b->op) {
      case BinaryOp::Add: return Combine::Add;
      case BinaryOp::Mult: return Combine::Mul;
      case BinaryOp::BitXor: return Combine::Xor;
      case BinaryOp::BitOr: return Combine::Or;
      case BinaryOp::BitAnd: return Combine::And;
      default: return std::nullopt;
    }
  }
  if (const auto* c = ret->value->as<Call>(); c && c->args.size() == 2 && c->keywords.empty() && bothParams(c->args[0], c->args[1])) {
    std::string callee;
    if (const auto* at = c->func->as<Attribute>()) callee = at->attr;
    else if (const auto* n = c->func->as<Name>()) callee = n->id;
    if (callee == "maximum") return Combine::Max;
    if (callee == "minimum") return Combine::Min;
  }
  return std::nullopt;
}

// Replaces the combine function's Let-bound names by their values, so that its results are
// expressions of its parameters alone.
class InlineLets : public ir::IRMutator {
public:
  std::unordered_map<const ir::Var*, ir::Expr> values;

protected:
  ir::Expr mutateVarRef(const ir::VarRef& n, const ir::Expr& self) override {
    auto it = values.find(n.var.get());
    return it != values.end() ? it->second : self;
  }
};

void flattenInto(const ir::Stmt& s, std::vector<ir::Stmt>& out) {
  if (const auto* seq = s.as<ir::Seq>()) {
    for (const ir::Stmt& c : seq->stmts) flattenInto(c, out);
    return;
  }
  out.push_back(s);
}

// The inputs of tl.reduce / tl.associative_scan: one tensor or a tuple of tensors of one shape.
std::vector<ir::Expr> combineInputs(ExprChecker& ec, const BoundArgs& a) {
  const Value& in = a.get("input");
  ValueList values = in.isTuple() ? in.elements : ValueList{in};
  if (values.empty()) ec.error(a.range("input"), a.name() + " needs at least one tensor, got an empty tuple");
  std::vector<ir::Expr> inputs;
  for (const Value& v : values) {
    ir::Expr x = ec.tensorOf(v, a.range("input"), a.name() + "'s input");
    if (x.type().isScalar())
      ec.error(a.range("input"), a.name() + " reduces tensors, but its input holds the scalar " + x.type().str());
    if (x.type().isPointer()) ec.error(a.range("input"), a.name() + " cannot combine pointers; combine integer offsets instead");
    if (!inputs.empty() && x.type().shape() != inputs[0].type().shape())
      ec.error(a.range("input"), a.name() + " needs tensors of one shape, got " + inputs[0].type().str() + " and " + x.type().str());
    inputs.push_back(x);
  }
  return inputs;
}

// Inlines the combine function once on scalar parameters (acc_0..acc_{N-1}, x_0..x_{N-1}) and
// makes N Combine nodes of its results: the general path of tl.reduce / tl.associative_scan.
Value generalCombine(ExprChecker& ec, const BoundArgs& a, bool scan) {
  const std::vector<ir::Expr> inputs = combineInputs(ec, a);
  const size_t n = inputs.size();
  const int rank = inputs[0].type().rank();
  std::optional<int> axis;
  if (scan) {
    const int64_t raw = ec.requireConstInt(a.get("axis"), a.range("axis"), a.name() + " axis");
    auto norm = ir::normalizeAxis(raw, rank, a.name());
    if (!norm) ec.error(a.range("axis"), norm.error());
    axis = *norm;
  } else {
    axis = axisArg(ec, a, rank);
  }
  const Value& fn = a.get("combine_fn");
  const SourceRange fnRange = a.range("combine_fn");
  const FunctionDef& def = *fn.function;
  size_t required = 0;
  for (const Param& p : def.params.params)
    if (p.kind == ParamKind::Normal && !p.defaultValue) ++required;
  if (required != 2 * n)
    ec.error(fnRange, a.name() + " calls its combine function with " + std::to_string(2 * n) + " values (the " + std::to_string(n) +
                          " accumulated, then the " + std::to_string(n) + " next), but '" + fn.name + "' takes " +
                          std::to_string(required) + "; give it one parameter per value");

  std::vector<ir::VarPtr> params;
  CallArgs call;
  call.range = fnRange;
  call.calleeRange = fnRange;
  call.calleeText = fn.name;
  for (size_t i = 0; i < 2 * n; ++i) {
    const ir::DType dt = inputs[i % n].type().dtype();
    ir::VarPtr v = ec.emitter().newVar(def.params.params[i].name, ir::Type::scalar(dt), def.params.params[i].nameRange);
    params.push_back(v);
    call.args.push_back(Value::ofTensor(ir::VarRef::make(v, fnRange)));
    call.argRanges.push_back(fnRange);
  }
  ec.emitter().pushBlock();
  Value ret = ec.call(fn, call);
  const ir::Stmt body = ec.emitter().popBlock(fnRange);

  // Only pure values can be inlined into every step of the reduction.
  InlineLets inline_;
  std::vector<ir::Stmt> stmts;
  flattenInto(body, stmts);
  for (const ir::Stmt& st : stmts) {
    const auto* let = st.as<ir::Let>();
    if (!let || let->value.hasEffects() || let->var->isMutable)
      ec.error(st.range().valid() ? st.range() : fnRange,
               "the combine function '" + fn.name + "' of " + a.name() +
                   " may only compute values from its parameters (arithmetic, comparisons, tl.where, constexpr `if`s); "
                   "memory accesses, prints and runtime `if`s or loops cannot run inside every step of the combination");
    inline_.values[let->var.get()] = inline_.mutateExpr(let->value);
  }
  ValueList outs = ret.isTuple() ? ret.elements : ValueList{ret};
  if (outs.size() != n)
    ec.error(fnRange, "the combine function '" + fn.name + "' of " + a.name() + " must return " + std::to_string(n) +
                          (n == 1 ? " value" : " values (a tuple, one per input)") + ", but it returns " +
                          std::to_string(outs.size()));
  std::vector<ir::Expr> results;
  for (size_t i = 0; i < n; ++i) {
    const ir::DType dt = inputs[i].type().dtype();
    ir::Expr r = inline_.mutateExpr(ec.tensorAs(outs[i], dt, fnRange, "the combine function's result"));
    if (!r.type().isScalar())
      ec.error(fnRange, "the combine function '" + fn.name + "' of " + a.name() + " must return scalars (it combines two elements), but result " +
                            std::to_string(i) + " is " + r.type().str());
    results.push_back(r);
  }
  const bool keepDims = !scan && flag(ec, a, "keep_dims", false);
  const bool reverse = scan && flag(ec, a, "reverse", false);
  ValueList nodes;
  for (size_t i = 0; i < n; ++i)
    nodes.push_back(Value::ofTensor(
        ir::Combine::make(inputs, params, results, static_cast<int>(i), scan, axis, keepDims, reverse, a.callRange())));
  return n == 1 && !a.get("input").isTuple() ? nodes[0] : Value::ofTuple(nodes);
}

// tl.reduce_or: a reduction whose combine is `a | b` (Triton's _or_combine), of integers.
Value reduceOr(ExprChecker& ec, const BoundArgs& a) {
  const ir::Expr x = reductionInput(ec, a);
  if (!x.type().isInt()) ec.error(a.range("input"), "tl.reduce_or needs an integer tensor, got " + x.type().str());
  const std::optional<int> axis = axisArg(ec, a, x.type().rank());
  const ir::Type scalar = ir::Type::scalar(x.type().dtype());
  ir::VarPtr acc = ec.emitter().newVar("a", scalar, a.callRange());
  ir::VarPtr next = ec.emitter().newVar("b", scalar, a.callRange());
  ir::Expr result = ir::Binary::make(ir::BinaryOp::Or, ir::VarRef::make(acc, a.callRange()), ir::VarRef::make(next, a.callRange()), a.callRange());
  return Value::ofTensor(ir::Combine::make({x}, {acc, next}, {result}, 0, false, axis, flag(ec, a, "keep_dims", false), false, a.callRange()));
}

void requireJitCombine(ExprChecker& ec, const BoundArgs& a) {
  const Value& fn = a.get("combine_fn");
  if (fn.kind != Value::Kind::JitFunction || !fn.function)
    ec.error(a.range("combine_fn"), a.name() + " combine_fn must be a @triton.jit function of two values, not " + fn.describe());
}

// Triton's tl.reduce / associative_scan keep the input's dtype; tl.sum / tl.cumsum widen small
// integers, so the result goes back (modular arithmetic gives the same bits).
Value inInputDType(const BoundArgs& a, const ir::Expr& input, const Value& result) {
  if (result.expr.type().dtype() == input.type().dtype()) return result;
  return Value::ofTensor(Emitter::cast(result.expr, input.type().dtype(), a.callRange()));
}

// A single tensor whose combine function is one operation the IR has as a reduction keeps the
// fast paths (Reduce: the GPU's shuffle tree); anything else is a general Combine.
Value reduceWith(ExprChecker& ec, const BoundArgs& a) {
  requireJitCombine(ec, a);
  if (!a.get("input").isTuple()) {
    std::optional<ir::ReduceOp> op;
    switch (combineOf(a.get("combine_fn")).value_or(Combine::Mul)) {
      case Combine::Add: op = ir::ReduceOp::Sum; break;
      case Combine::Xor: op = ir::ReduceOp::XorSum; break;
      case Combine::Max: op = ir::ReduceOp::Max; break;
      case Combine::Min: op = ir::ReduceOp::Min; break;
      default: break;
    }
    const ir::Expr x = reductionInput(ec, a);
    if (op && (*op != ir::ReduceOp::XorSum || x.type().isInt())) return inInputDType(a, x, reduce(ec, a, *op));
  }
  return generalCombine(ec, a, false);
}

Value scanWith(ExprChecker& ec, const BoundArgs& a) {
  requireJitCombine(ec, a);
  if (!a.get("input").isTuple()) {
    const std::optional<Combine> c = combineOf(a.get("combine_fn"));
    if (c == Combine::Add || c == Combine::Mul)
      return inInputDType(a, reductionInput(ec, a), scan(ec, a, c == Combine::Add ? ir::ScanOp::CumSum : ir::ScanOp::CumProd));
  }
  return generalCombine(ec, a, true);
}

Value dot(ExprChecker& ec, const BoundArgs& a) {
  ir::Expr x = tileArg(ec, a, "input");
  ir::Expr y = tileArg(ec, a, "other");
  std::optional<ir::Expr> acc;
  if (a.given("acc")) acc = tileArg(ec, a, "acc");
  std::optional<ir::DType> outDType;
  if (a.given("out_dtype")) outDType = ec.requireDType(a.get("out_dtype"), a.range("out_dtype"), "tl.dot out_dtype");
  auto typing = ir::dotTyping(x.type(), y.type(), acc ? std::optional<ir::Type>(acc->type()) : std::nullopt, outDType);
  if (!typing) ec.error(a.callRange(), typing.error());
  if (a.given("input_precision") && a.given("allow_tf32"))
    ec.error(a.callRange(), "tl.dot takes input_precision or allow_tf32, not both");
  // NVIDIA's default for fp32 inputs is tf32 (TRITON_F32_DEFAULT); it only matters for fp32.
  ir::InputPrecision precision = ir::InputPrecision::TF32;
  if (a.given("allow_tf32"))
    precision = flag(ec, a, "allow_tf32", true) ? ir::InputPrecision::TF32 : ir::InputPrecision::IEEE;
  if (a.given("input_precision")) {
    const std::string p = ec.requireConstString(a.get("input_precision"), a.range("input_precision"), "input_precision");
    auto parsed = ir::parseInputPrecision(p);
    if (!parsed) ec.error(a.range("input_precision"), "tl.dot input_precision must be 'tf32', 'tf32x3' or 'ieee', not '" + p + "'");
    precision = *parsed;
  }
  if (x.type().dtype() != ir::DType::FP32) precision = ir::InputPrecision::IEEE;
  int maxImprecise = 0;
  if (a.given("max_num_imprecise_acc"))
    maxImprecise = static_cast<int>(ec.requireConstInt(a.get("max_num_imprecise_acc"), a.range("max_num_imprecise_acc"),
                                                       "max_num_imprecise_acc"));
  return Value::ofTensor(ir::Dot::make(x, y, acc ? *acc : ir::Expr(), typing->resultDType, precision, a.callRange(), maxImprecise));
}

}  // namespace

void registerReduceBuiltins(BuiltinRegistry& r) {
  r.add("tl.sum", "input, axis=None, keep_dims=False, dtype=None",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::Sum); });
  r.add("tl.max", "input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::Max); });
  r.add("tl.min", "input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::Min); });
  r.add("tl.argmax", "input, axis, tie_break_left=True, keep_dims=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::ArgMax); });
  r.add("tl.argmin", "input, axis, tie_break_left=True, keep_dims=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::ArgMin); });
  r.add("tl.xor_sum", "input, axis=None, keep_dims=False",
        [](ExprChecker& ec, const BoundArgs& a) { return reduce(ec, a, ir::ReduceOp::XorSum); });
  r.add("tl.cumsum", "input, axis=0, reverse=False, dtype=None",
        [](ExprChecker& ec, const BoundArgs& a) { return scan(ec, a, ir::ScanOp::CumSum); });
  r.add("tl.cumprod", "input, axis=0, reverse=False",
        [](ExprChecker& ec, const BoundArgs& a) { return scan(ec, a, ir::ScanOp::CumProd); });
  r.add("tl.reduce_or", "input, axis, keep_dims=False", reduceOr);
  r.add("tl.reduce", "input, axis, combine_fn, keep_dims=False", reduceWith);
  r.add("tl.associative_scan", "input, axis, combine_fn, reverse=False", scanWith);
  r.add("tl.dot", "input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, out_dtype=None", dot);
}

}  // namespace tilescope::lang
