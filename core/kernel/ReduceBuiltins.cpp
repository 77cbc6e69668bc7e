// Reductions (tl.sum/max/min/argmax/argmin/xor_sum, tl.reduce), scans (cumsum/cumprod,
// tl.associative_scan) and tl.dot, with Triton's input promotions made explicit as casts; and
// tl.map_elementwise, which shares the inlining of a jit function on scalars with general combines.
#include "core/syntax/Ast.h"
#include "core/kernel/BuiltinRegistry.h"

#include <unordered_map>

#include "core/ir/IRMutator.h"
#include "core/ir/TypeRules.h"
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

// A @triton.jit function inlined once on scalar parameters, as pure expressions of them: Lets and
// Assigns are substituted, and a runtime `if` becomes selects of the values its branches assign
// (both branches are computed; they have no effects). Memory accesses, prints and loops are errors:
// the function runs inside every step of a combination or on every element.
struct ScalarFunction {
  std::vector<ir::VarPtr> params;
  ValueList results;  // tensors: scalar expressions of params
};

class ScalarInliner {
public:
  ScalarInliner(ExprChecker& ec, std::string role) : ec_(ec), role_(std::move(role)) {}

  ScalarFunction run(const Value& fn, const std::vector<ir::DType>& paramTypes, SourceRange fnRange) {
    const FunctionDef& def = *fn.function;
    ScalarFunction out;
    CallArgs call;
    call.range = fnRange;
    call.calleeRange = fnRange;
    call.calleeText = fn.name;
    for (size_t i = 0; i < paramTypes.size(); ++i) {
      const Param* p = i < def.params.params.size() ? &def.params.params[i] : nullptr;
      ir::VarPtr v = ec_.emitter().newVar(p ? p->name : "x" + std::to_string(i), ir::Type::scalar(paramTypes[i]),
                                          p ? p->nameRange : fnRange);
      out.params.push_back(v);
      call.args.push_back(Value::ofTensor(ir::VarRef::make(v, fnRange)));
      call.argRanges.push_back(fnRange);
    }
    ec_.emitter().pushBlock();
    const Value ret = ec_.call(fn, call);
    const ir::Stmt body = ec_.emitter().popBlock(fnRange);
    fnName_ = fn.name;
    fnRange_ = fnRange;
    stmt(body);
    for (const Value& v : ret.isTuple() ? ret.elements : ValueList{ret}) {
      if (!v.isTensor() && !v.isConst())
        ec_.error(fnRange, "'" + fn.name + "', " + role_ + ", must return tensors or numbers, not " + v.describe());
      out.results.push_back(v.isTensor() ? Value::ofTensor(sub_.mutateExpr(v.expr)) : v);
    }
    return out;
  }

private:
  ExprChecker& ec_;
  std::string role_;
  std::string fnName_;
  SourceRange fnRange_;
  InlineLets sub_;

  [[noreturn]] void unsupported(const ir::Stmt& st) {
    ec_.error(st.range().valid() ? st.range() : fnRange_,
              "'" + fnName_ + "', " + role_ + ", may only compute values from its parameters (arithmetic, comparisons, "
                  "tl.where, `if`s); memory accesses, prints and loops cannot run inside it");
  }

  void stmt(const ir::Stmt& st) {
    if (const auto* seq = st.as<ir::Seq>()) {
      for (const ir::Stmt& c : seq->stmts) stmt(c);
    } else if (const auto* let = st.as<ir::Let>()) {
      if (let->value.hasEffects()) unsupported(st);
      sub_.values[let->var.get()] = sub_.mutateExpr(let->value);
    } else if (const auto* assign = st.as<ir::Assign>()) {
      sub_.values[assign->var.get()] = sub_.mutateExpr(assign->value);
    } else if (const auto* branch = st.as<ir::If>()) {
      const ir::Expr cond = sub_.mutateExpr(branch->cond);
      const auto before = sub_.values;
      stmt(branch->thenBody);
      const auto afterThen = sub_.values;
      sub_.values = before;
      if (branch->elseBody) stmt(branch->elseBody);
      const auto afterElse = sub_.values;
      // Vars both paths know get the value of the path taken; a var bound in one branch only is
      // not visible after the if (the checker's rule), so either value will do.
      sub_.values = afterElse;
      for (const auto& [var, thenValue] : afterThen) {
        auto other = afterElse.find(var);
        if (other == afterElse.end()) {
          sub_.values[var] = thenValue;
        } else if (!other->second.sameAs(thenValue)) {
          sub_.values[var] = ir::Select::make(cond, thenValue, other->second, st.range());
        }
      }
    } else {
      unsupported(st);
    }
  }
};

// Lifts the scalar expressions of a ScalarFunction to tiles of `shape`: its params become the
// (broadcast) arguments, every other scalar is splat. Elementwise ops keep their meaning.
class LiftToTiles : public ir::IRMutator {
public:
  LiftToTiles(ir::Shape shape, std::unordered_map<const ir::Var*, ir::Expr> args) : shape_(std::move(shape)), args_(std::move(args)) {}

  ir::Expr mutateExpr(const ir::Expr& e) override {
    ir::Expr r = ir::IRMutator::mutateExpr(e);
    return r && r.type().isScalar() && !shape_.empty() ? ir::Splat::make(r, shape_, e.range()) : r;
  }

protected:
  ir::Expr mutateVarRef(const ir::VarRef& n, const ir::Expr& self) override {
    auto it = args_.find(n.var.get());
    return it != args_.end() ? it->second : self;
  }

private:
  ir::Shape shape_;
  std::unordered_map<const ir::Var*, ir::Expr> args_;
};

// tl.map_elementwise(scalar_fn, *args, pack=1): scalar_fn applied to every element of the args
// (broadcast to one shape), its `if`s on elements turned into selects.
Value mapElementwise(ExprChecker& ec, const BoundArgs& a) {
  const Value& fn = a.get("scalar_fn");
  if (fn.kind != Value::Kind::JitFunction || !fn.function)
    ec.error(a.range("scalar_fn"), "tl.map_elementwise scalar_fn must be a @triton.jit function, not " + fn.describe());
  if (a.given("pack") && ec.requireConstInt(a.get("pack"), a.range("pack"), "tl.map_elementwise pack") < 1)
    ec.error(a.range("pack"), "tl.map_elementwise pack must be at least 1");
  std::vector<ir::Expr> args;
  ir::Shape shape;
  for (size_t i = 0; i < a.rest().size(); ++i) {
    ir::Expr e = ec.tensorOf(a.rest()[i], a.restRanges()[i], "an argument of tl.map_elementwise");
    if (e.type().isPointer()) ec.error(a.restRanges()[i], "tl.map_elementwise maps values, not pointers; load them first");
    auto common = ir::broadcastShapes(shape, e.type().shape());
    if (!common) ec.error(a.restRanges()[i], "tl.map_elementwise arguments: " + common.error());
    shape = *common;
    args.push_back(e);
  }
  std::vector<ir::DType> types;
  for (const ir::Expr& e : args) types.push_back(e.type().dtype());
  const ScalarFunction f = ScalarInliner(ec, "the function of tl.map_elementwise").run(fn, types, a.range("scalar_fn"));
  std::unordered_map<const ir::Var*, ir::Expr> bound;
  for (size_t i = 0; i < args.size(); ++i) bound[f.params[i].get()] = Emitter::broadcastTo(args[i], shape, a.callRange());
  LiftToTiles lift(shape, bound);
  ValueList out;
  for (const Value& r : f.results)
    out.push_back(r.isTensor() ? Value::ofTensor(lift.mutateExpr(r.expr)) : r);
  return out.size() == 1 ? out[0] : Value::ofTuple(out);
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

  std::vector<ir::DType> types;
  for (size_t i = 0; i < 2 * n; ++i) types.push_back(inputs[i % n].type().dtype());
  const ScalarFunction f = ScalarInliner(ec, "the combine function of " + a.name()).run(fn, types, fnRange);
  if (f.results.size() != n)
    ec.error(fnRange, "the combine function '" + fn.name + "' of " + a.name() + " must return " + std::to_string(n) +
                          (n == 1 ? " value" : " values (a tuple, one per input)") + ", but it returns " +
                          std::to_string(f.results.size()));
  std::vector<ir::Expr> results;
  for (size_t i = 0; i < n; ++i) {
    const ir::DType dt = inputs[i].type().dtype();
    ir::Expr r = ec.tensorAs(f.results[i], dt, fnRange, "the combine function's result");
    if (!r.type().isScalar())
      ec.error(fnRange, "the combine function '" + fn.name + "' of " + a.name() + " must return scalars (it combines two elements), but result " +
                            std::to_string(i) + " is " + r.type().str());
    results.push_back(r);
  }
  const std::vector<ir::VarPtr>& params = f.params;
  const bool keepDims = !scan && flag(ec, a, "keep_dims", false);
  const bool reverse = scan && flag(ec, a, "reverse", false);
  ValueList nodes;
  for (size_t i = 0; i < n; ++i)
    nodes.push_back(Value::ofTensor(
        ir::Combine::make(inputs, params, results, static_cast<int>(i), scan, axis, keepDims, reverse, a.callRange())));
  return n == 1 && !a.get("input").isTuple() ? nodes[0] : Value::ofTuple(nodes);
}

// A builtin called from another one, with keyword arguments.
Value callBuiltinNamed(ExprChecker& ec, const char* name, ValueList args, std::vector<std::pair<std::string, Value>> kwargs,
                       SourceRange range) {
  CallArgs c;
  for (Value& v : args) {
    c.args.push_back(std::move(v));
    c.argRanges.push_back(range);
  }
  for (auto& kv : kwargs) {
    c.kwargs.push_back(std::move(kv));
    c.kwargRanges.push_back(range);
  }
  c.range = range;
  c.calleeRange = range;
  c.calleeText = name;
  return ec.call(Value::ofBuiltin(name), c);
}

// tl.softmax as Triton's jit library writes it: exp(x - max) / sum, along dim (0 when None).
Value softmax(ExprChecker& ec, const BoundArgs& a) {
  const SourceRange r = a.callRange();
  const Value x = Value::ofTensor(tileArg(ec, a, "x"));
  const Value dim = a.given("dim") ? a.get("dim") : Value::ofConst(ConstValue::integer(0));
  const Value keep = a.given("keep_dims") ? a.get("keep_dims") : Value::ofConst(ConstValue::boolean(false));
  const Value ieee = a.given("ieee_rounding") ? a.get("ieee_rounding") : Value::ofConst(ConstValue::boolean(false));
  const Value z = ec.binary(ir::BinaryOp::Sub, x, callBuiltinNamed(ec, "tl.max", {x, dim}, {{"keep_dims", keep}}, r), r);
  const Value num = callBuiltinNamed(ec, "tl.exp", {z}, {}, r);
  const Value den = callBuiltinNamed(ec, "tl.sum", {num, dim}, {{"keep_dims", keep}}, r);
  return callBuiltinNamed(ec, "tl.fdiv", {num, den, ieee}, {}, r);
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
  r.add("tl.map_elementwise", "scalar_fn, *args, pack=1", mapElementwise);
  r.add("tl.softmax", "x, dim=None, keep_dims=False, ieee_rounding=False", softmax);
  r.add("tl.to_tensor", "x", [](ExprChecker& ec, const BoundArgs& a) { return Value::ofTensor(tensorArg(ec, a, "x")); });
  r.add("tl.reduce_or", "input, axis, keep_dims=False", reduceOr);
  r.add("tl.reduce", "input, axis, combine_fn, keep_dims=False", reduceWith);
  r.add("tl.associative_scan", "input, axis, combine_fn, reverse=False", scanWith);
  r.add("tl.dot", "input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, out_dtype=None", dot);
}

}  // namespace tilescope::lang
