// tl.program_id, num_programs, arange, zeros, full, *_like, cast / x.to, constexpr, pointer_type,
// random numbers, and the tl.* names tilescope knows but does not support yet.
#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

using builtin::tensorArg;

int axisArg(ExprChecker& ec, const BoundArgs& a) {
  const Value& v = a.get("axis");
  if (!v.isConst() || !v.constant.isIntegral())
    ec.error(a.range("axis"), a.name() + " axis must be a constexpr 0, 1 or 2, not " + v.describe());
  const int64_t axis = v.constant.toInt();
  if (axis < 0 || axis > 2)
    ec.error(a.range("axis"), a.name() + " axis must be 0, 1 or 2 (got " + std::to_string(axis) +
                                  "); Triton launches at most a 3-D grid");
  return static_cast<int>(axis);
}

int64_t arangeBound(ExprChecker& ec, const BoundArgs& a, const std::string& param) {
  const Value& v = a.get(param);
  if (v.isConst() && v.constant.isIntegral()) return v.constant.toInt();
  const std::string text = a.text(param);
  if (v.isTensor()) {
    if (v.expr.as<ir::ParamRef>())
      ec.error(a.range(param), "tl.arange bounds must be constexpr; '" + text + "' is a runtime argument - mark it '" +
                                   text + ": tl.constexpr' or pass a constant");
    ec.error(a.range(param), "tl.arange bounds must be constexpr; '" + text + "' is a runtime value of type " +
                                 v.expr.type().str());
  }
  ec.error(a.range(param), "tl.arange bounds must be constexpr ints; '" + text + "' is " + v.describe());
}

ir::Expr splatConstant(ir::DType t, const Value& v, const ir::Shape& shape, ExprChecker& ec, SourceRange r) {
  ir::Expr scalar = ec.tensorAs(v, t, r, "the fill value");
  if (scalar.type().isTile()) ec.error(r, "the fill value must be a scalar, got " + scalar.type().str());
  return shape.empty() ? scalar : ir::Splat::make(scalar, shape, r);
}

ir::Shape checkedShape(ExprChecker& ec, const BoundArgs& a, const std::string& param) {
  ir::Shape shape = ec.requireShape(a.get(param), a.range(param), a.name() + " shape");
  if (std::string err = ir::tileShapeError(shape, a.name()); !err.empty()) ec.error(a.range(param), err);
  return shape;
}

Value castTo(ExprChecker& ec, const BoundArgs& a, const std::string& valueParam) {
  ir::Expr x = tensorArg(ec, a, valueParam);
  const Value& dt = a.get("dtype");
  if (!dt.isConst() || !dt.constant.isDType())
    ec.error(a.range("dtype"), a.name() + " needs a dtype such as tl.float16, not " + dt.describe());
  const DTypeValue target = dt.constant.asDType();
  const bool bitcast = a.has("bitcast") && ec.requireConstBool(a.get("bitcast"), a.range("bitcast"), "bitcast");
  ir::RoundingMode rounding = ir::RoundingMode::None;
  if (a.given("fp_downcast_rounding")) {
    const std::string mode = ec.requireConstString(a.get("fp_downcast_rounding"), a.range("fp_downcast_rounding"),
                                                   "fp_downcast_rounding");
    auto parsed = ir::parseRoundingMode(mode);
    if (!parsed) ec.error(a.range("fp_downcast_rounding"), "fp_downcast_rounding must be 'rtne' or 'rtz', not '" + mode + "'");
    rounding = *parsed;
    const ir::Type& from = x.type();
    if (!(from.isFloat() && ir::isFloat(target.dtype) && !target.isPointer &&
          ir::bitWidth(target.dtype) < ir::bitWidth(from.dtype())))
      ec.error(a.range("fp_downcast_rounding"),
               "fp_downcast_rounding applies only to narrowing float conversions, not " + from.elementString() + " to " +
                   ConstValue::dtype(target.dtype, target.isPointer).str());
  }
  if (x.type().dtype() == target.dtype && x.type().isPointer() == target.isPointer) return Value::ofTensor(x);
  if (std::string err = ir::castError(x.type(), target.dtype, target.isPointer, bitcast); !err.empty())
    ec.error(a.callRange(), err);
  return Value::ofTensor(ir::Cast::make(x, target.dtype, target.isPointer, bitcast, rounding, a.callRange()));
}

Value randomNumbers(ExprChecker& ec, const BoundArgs& a, ir::RandKind kind) {
  ir::Expr seed = tensorArg(ec, a, "seed");
  if (!seed.type().isScalar() || !seed.type().isInt())
    ec.error(a.range("seed"), a.name() + " needs an integer scalar seed, got " + seed.type().str());
  ir::Expr offset = tensorArg(ec, a, "offset");
  if (!offset.type().isInt() || offset.type().isBool())
    ec.error(a.range("offset"), a.name() + " needs integer offsets, got " + offset.type().str());
  int rounds = 10;
  if (a.given("n_rounds")) rounds = static_cast<int>(ec.requireConstInt(a.get("n_rounds"), a.range("n_rounds"), "n_rounds"));
  if (kind != ir::RandKind::Int4x) return Value::ofTensor(ir::Rand::make(kind, seed, offset, rounds, 0, a.callRange()));
  ValueList four;
  for (int c = 0; c < 4; ++c) four.push_back(Value::ofTensor(ir::Rand::make(kind, seed, offset, rounds, c, a.callRange())));
  return Value::ofTuple(std::move(four));
}

// tl.rand4x / tl.randn4x as Triton's random.py writes them: tl.randint4x's four outputs made uniform
// (uint_to_uniform_float), and for randn4x paired through Box-Muller (pair_uniform_to_normal).
Value fourRandoms(ExprChecker& ec, const BoundArgs& a, bool normal) {
  const SourceRange r = a.callRange();
  const std::string offsetParam = normal ? "offset" : "offsets";
  CallArgs c;
  c.args = {a.get("seed"), a.get(offsetParam), a.has("n_rounds") ? a.get("n_rounds") : Value::ofConst(ConstValue::integer(10))};
  c.argRanges = {a.range("seed"), a.range(offsetParam), a.range("n_rounds")};
  c.range = r;
  c.calleeRange = r;
  c.calleeText = "tl.randint4x";
  const Value ints = ec.call(Value::ofBuiltin("tl.randint4x"), c);
  auto num = [](double v) { return Value::ofConst(ConstValue::floating(v)); };
  auto integer = [](int64_t v) { return Value::ofConst(ConstValue::integer(v)); };
  ValueList u;
  for (const Value& i : ints.elements) {
    const ir::Expr bits = ec.tensorOf(i, r, "tl.randint4x");
    const bool wide = ir::bitWidth(bits.type().dtype()) == 64;
    const Value x = Value::ofTensor(ir::Cast::make(bits, wide ? ir::DType::I64 : ir::DType::I32, false, true, ir::RoundingMode::None, r));
    const Value folded = ec.select(ec.compare(ir::BinaryOp::Lt, x, integer(0), r),
                                   ec.binary(ir::BinaryOp::Sub, ec.unary(UnaryOp::Neg, x, r), integer(1), r), x, r);
    u.push_back(ec.binary(ir::BinaryOp::Mul, folded, num(wide ? 1.0842020432385337e-19 : 4.6566127342e-10), r));
  }
  if (!normal) return Value::ofTuple(u);
  ValueList n;
  for (int p = 0; p < 4; p += 2) {
    const Value u1 = ec.minMax(true, num(1.0e-7), u[p], false, r);
    const Value th = ec.binary(ir::BinaryOp::Mul, num(6.283185307179586), u[p + 1], r);
    auto math = [&](ir::MathFn fn, const Value& v) { return Value::ofTensor(ir::MathCall::make(fn, {ec.tensorOf(v, r, "randn4x")}, r)); };
    const Value rad = math(ir::MathFn::Sqrt, ec.binary(ir::BinaryOp::Mul, num(-2.0), math(ir::MathFn::Log, u1), r));
    n.push_back(ec.binary(ir::BinaryOp::Mul, rad, math(ir::MathFn::Cos, th), r));
    n.push_back(ec.binary(ir::BinaryOp::Mul, rad, math(ir::MathFn::Sin, th), r));
  }
  return Value::ofTuple(n);
}

}  // namespace

void registerCreationBuiltins(BuiltinRegistry& r) {
  r.add("tl.program_id", "axis", [](ExprChecker& ec, const BoundArgs& a) {
    return Value::ofTensor(ir::ProgramId::make(axisArg(ec, a), a.callRange()));
  });
  r.add("tl.num_programs", "axis", [](ExprChecker& ec, const BoundArgs& a) {
    return Value::ofTensor(ir::NumPrograms::make(axisArg(ec, a), a.callRange()));
  });
  r.add("tl.arange", "start, end", [](ExprChecker& ec, const BoundArgs& a) {
    const int64_t start = arangeBound(ec, a, "start");
    const int64_t end = arangeBound(ec, a, "end");
    const int64_t int32Max = 2147483647LL, int32Min = -2147483648LL;
    if (start < int32Min || start > int32Max || end < int32Min || end > int32Max)
      ec.error(a.callRange(), "tl.arange bounds must fit in int32 (got " + std::to_string(start) + ", " + std::to_string(end) + ")");
    if (end <= start)
      ec.error(a.callRange(), "tl.arange needs end > start (got tl.arange(" + std::to_string(start) + ", " + std::to_string(end) + "))");
    const int64_t n = end - start;
    if (!ir::isPowerOf2(n))
      ec.error(a.callRange(), "tl.arange range must be a power of 2 (got " + std::to_string(n) +
                                  "); round up with triton.next_power_of_2 and mask the extra lanes");
    if (n > (1 << 20)) ec.error(a.callRange(), "tl.arange range " + std::to_string(n) + " exceeds Triton's limit of 1048576 elements");
    return Value::ofTensor(ir::Arange::make(start, end, a.callRange()));
  });
  r.add("tl.zeros", "shape, dtype", [](ExprChecker& ec, const BoundArgs& a) {
    const ir::Shape shape = checkedShape(ec, a, "shape");
    const ir::DType t = ec.requireDType(a.get("dtype"), a.range("dtype"), "tl.zeros dtype");
    return Value::ofTensor(splatConstant(t, Value::ofConst(ConstValue::integer(0)), shape, ec, a.callRange()));
  });
  r.add("tl.full", "shape, value, dtype", [](ExprChecker& ec, const BoundArgs& a) {
    const ir::Shape shape = checkedShape(ec, a, "shape");
    const ir::DType t = ec.requireDType(a.get("dtype"), a.range("dtype"), "tl.full dtype");
    return Value::ofTensor(splatConstant(t, a.get("value"), shape, ec, a.range("value")));
  });
  r.add("tl.zeros_like", "input", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = tensorArg(ec, a, "input");
    if (x.type().isPointer()) ec.error(a.range("input"), "tl.zeros_like needs a value tensor, not pointers");
    return Value::ofTensor(splatConstant(x.type().dtype(), Value::ofConst(ConstValue::integer(0)), x.type().shape(), ec, a.callRange()));
  });
  r.add("tl.full_like", "input, fill_value, dtype=None", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = tensorArg(ec, a, "input");
    const ir::DType t = a.given("dtype") ? ec.requireDType(a.get("dtype"), a.range("dtype"), "tl.full_like dtype") : x.type().dtype();
    return Value::ofTensor(splatConstant(t, a.get("fill_value"), x.type().shape(), ec, a.range("fill_value")));
  });
  r.add("tl.cast", "input, dtype, fp_downcast_rounding=None, bitcast=False",
        [](ExprChecker& ec, const BoundArgs& a) { return castTo(ec, a, "input"); });
  r.add("tensor.to", "self, dtype, fp_downcast_rounding=None, bitcast=False",
        [](ExprChecker& ec, const BoundArgs& a) { return castTo(ec, a, "self"); });
  r.add("tl.constexpr", "value", [](ExprChecker& ec, const BoundArgs& a) {
    const Value& v = a.get("value");
    if (!v.isConstTree()) ec.error(a.range("value"), "tl.constexpr(...) needs a compile-time value, not " + v.describe());
    return v;
  });
  r.add("tl.pointer_type", "element_ty, address_space=1", [](ExprChecker& ec, const BoundArgs& a) {
    const ir::DType t = ec.requireDType(a.get("element_ty"), a.range("element_ty"), "tl.pointer_type element type");
    return Value::ofConst(ConstValue::dtype(t, true));
  });
  r.add("tl.rand", "seed, offset, n_rounds=10",
        [](ExprChecker& ec, const BoundArgs& a) { return randomNumbers(ec, a, ir::RandKind::Uniform); });
  r.add("tl.randn", "seed, offset, n_rounds=10",
        [](ExprChecker& ec, const BoundArgs& a) { return randomNumbers(ec, a, ir::RandKind::Normal); });
  r.add("tl.randint", "seed, offset, n_rounds=10",
        [](ExprChecker& ec, const BoundArgs& a) { return randomNumbers(ec, a, ir::RandKind::Int); });
  r.add("tl.randint4x", "seed, offset, n_rounds=10",
        [](ExprChecker& ec, const BoundArgs& a) { return randomNumbers(ec, a, ir::RandKind::Int4x); });
  r.add("tl.rand4x", "seed, offsets, n_rounds=10", [](ExprChecker& ec, const BoundArgs& a) { return fourRandoms(ec, a, false); });
  r.add("tl.randn4x", "seed, offset, n_rounds=10", [](ExprChecker& ec, const BoundArgs& a) { return fourRandoms(ec, a, true); });

  // Loops are handled by the statement checker; a call anywhere else is reported before this.
  for (const char* loop : {"tl.range", "tl.static_range"}) {
    r.add(loop, "arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, disallow_acc_multi_buffer=False, "
                "flatten=False, warp_specialize=False",
          [](ExprChecker& ec, const BoundArgs& a) -> Value {
            ec.error(a.callRange(), a.name() + "() can only be used as the iterable of a for loop");
          });
  }

}

}  // namespace tilescope::lang
