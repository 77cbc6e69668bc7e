// Elementwise math: tl.exp & co (with Triton's dtype lists), fdiv, div_rn, fma, umulhi, maximum,
// minimum, where, clamp, and the jit-library functions cdiv and swizzle2d lowered to the integer
// arithmetic of Triton's own implementation.
#include <limits>
#include <tuple>

#include "core/kernel/BuiltinRegistry.h"
#include "core/kernel/Emitter.h"

namespace tilescope::lang {

namespace {

using builtin::tensorArg;

ir::Expr mathOperand(ExprChecker& ec, const BoundArgs& a, const std::string& param, ir::MathFn fn) {
  ir::Expr x = tensorArg(ec, a, param);
  if (x.type().isPointer()) ec.error(a.range(param), a.name() + " needs values, not pointers (" + x.type().str() + ")");
  if (std::string err = ir::mathDTypeError(fn, x.type().dtype()); !err.empty()) ec.error(a.range(param), err);
  return x;
}

void addUnaryMath(BuiltinRegistry& r, const std::string& name, ir::MathFn fn) {
  r.add(name, "x", [fn](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = mathOperand(ec, a, "x", fn);
    return Value::ofTensor(ir::MathCall::make(fn, {x}, a.callRange()));
  });
}

// Promotes several operands to their common dtype and shape (Triton's binary_op_type_legalization).
std::vector<ir::Expr> legalize(ExprChecker& ec, const BoundArgs& a, const std::vector<std::string>& params, bool divOrMod) {
  ir::Operand acc = ec.operandOf(a.get(params[0]), a.range(params[0]), a.name() + " " + params[0]);
  for (size_t i = 1; i < params.size(); ++i) {
    ir::Operand next = ec.operandOf(a.get(params[i]), a.range(params[i]), a.name() + " " + params[i]);
    if (acc.isPointer || next.isPointer) ec.error(a.callRange(), a.name() + " needs values, not pointers");
    auto dt = ir::computationDType(acc, next, divOrMod);
    if (!dt) ec.error(a.callRange(), dt.error());
    const bool bothLiteral = acc.isLiteral && next.isLiteral;
    acc = ir::Operand::tensor(*dt);
    acc.isLiteral = bothLiteral;
  }
  std::vector<ir::Expr> out;
  ir::Shape shape;
  for (const std::string& p : params) {
    out.push_back(ec.tensorAs(a.get(p), acc.dtype, a.range(p), a.name() + " " + p));
    auto s = ir::broadcastShapes(shape, out.back().type().shape());
    if (!s) ec.error(a.callRange(), s.error());
    shape = *s;
  }
  for (ir::Expr& e : out) e = Emitter::broadcastTo(e, shape, a.callRange());
  return out;
}

bool propagateNanArg(ExprChecker& ec, const BoundArgs& a) {
  if (!a.given("propagate_nan")) return false;
  const Value& v = a.get("propagate_nan");
  if (v.isConst() && v.constant.isString()) {
    if (v.constant.asString() == "PropagateNan.ALL") return true;
    if (v.constant.asString() == "PropagateNan.NONE") return false;
  }
  ec.error(a.range("propagate_nan"), "propagate_nan must be tl.PropagateNan.ALL or tl.PropagateNan.NONE");
}

// cdiv(x, div) = (x + div - 1) // div, on constexprs with Python semantics, else on tensors.
Value cdiv(ExprChecker& ec, const Value& x, const Value& div, SourceRange r) {
  const Value one = Value::ofConst(ConstValue::integer(1));
  Value t = ec.binary(ir::BinaryOp::Add, x, div, r);
  t = ec.binary(ir::BinaryOp::Sub, t, one, r);
  return ec.binary(ir::BinaryOp::Div, t, div, r);
}

// Binds a tensor intermediate to a named Let so the IR mirrors Triton's swizzle2d source.
Value named(ExprChecker& ec, const std::string& name, const Value& v, SourceRange r) {
  if (!v.isTensor()) return v;
  ir::Expr ref = ec.emitter().let(name, v.expr, r);
  ec.ctx().letValues[ref.as<ir::VarRef>()->var.get()] = v.expr;
  return Value::ofTensor(ref);
}

Value swizzle2d(ExprChecker& ec, const BoundArgs& a) {
  const SourceRange r = a.callRange();
  for (const char* p : {"i", "j", "size_i", "size_j", "size_g"}) {
    const Value& v = a.get(p);
    const bool integral = (v.isConst() && v.constant.isIntegral()) || (v.isTensor() && v.expr.type().isInt());
    if (!integral) ec.error(a.range(p), "tl.swizzle2d needs integer arguments; " + builtin::describeArg(a, p));
  }
  using ir::BinaryOp;
  const Value &i = a.get("i"), &j = a.get("j"), &sizeI = a.get("size_i"), &sizeJ = a.get("size_j");
  Value sizeG = a.get("size_g");
  // Same steps as triton.language.standard.swizzle2d.
  Value ij = named(ec, "ij", ec.binary(BinaryOp::Add, ec.binary(BinaryOp::Mul, i, sizeJ, r), j, r), r);
  Value sizeGJ = named(ec, "size_gj", ec.binary(BinaryOp::Mul, sizeG, sizeJ, r), r);
  Value groupId = named(ec, "group_id", ec.binary(BinaryOp::Div, ij, sizeGJ, r), r);
  Value offI = named(ec, "off_i", ec.binary(BinaryOp::Mul, groupId, sizeG, r), r);
  sizeG = named(ec, "size_g", ec.minMax(false, ec.binary(BinaryOp::Sub, sizeI, offI, r), sizeG, false, r), r);
  ij = named(ec, "ij", ec.binary(BinaryOp::Mod, ij, sizeGJ, r), r);
  Value newI = ec.binary(BinaryOp::Add, offI, ec.binary(BinaryOp::Mod, ij, sizeG, r), r);
  Value newJ = ec.binary(BinaryOp::Div, ij, sizeG, r);
  return Value::ofTuple({newI, newJ});
}

// libdevice's classification functions (isnan, isinf, isfinited, finitef, signbit): int32 0 or 1
// of an fp32/fp64 operand, composed of comparisons as CUDA defines them.
void addClassification(BuiltinRegistry& r, const std::string& name, bool fp32Only, bool fp64Only) {
  r.add("libdevice." + name, "arg0", [name, fp32Only, fp64Only](ExprChecker& ec, const BoundArgs& a) {
    const ir::Expr x = tensorArg(ec, a, "arg0");
    const ir::DType t = x.type().dtype();
    const bool ok = x.type().isPointer() ? false : fp32Only ? t == ir::DType::FP32 : fp64Only ? t == ir::DType::FP64 : t == ir::DType::FP32 || t == ir::DType::FP64;
    if (!ok)
      ec.error(a.range("arg0"), "libdevice." + name + " expects " + (fp32Only ? "fp32" : fp64Only ? "fp64" : "fp32 or fp64") + " (got " +
                                    x.type().str() + ")");
    const SourceRange r = a.callRange();
    const Value v = Value::ofTensor(x);
    const Value inf = Value::ofConst(ConstValue::floating(std::numeric_limits<double>::infinity()));
    const Value absV = Value::ofTensor(ir::MathCall::make(ir::MathFn::Abs, {x}, r));
    Value b;
    if (name == "isnan") b = ec.compare(ir::BinaryOp::Ne, v, v, r);
    else if (name == "isinf") b = ec.compare(ir::BinaryOp::Eq, absV, inf, r);
    else if (name == "signbit") {
      const ir::DType bits = t == ir::DType::FP32 ? ir::DType::I32 : ir::DType::I64;
      b = ec.compare(ir::BinaryOp::Lt, Value::ofTensor(ir::Cast::make(x, bits, false, true, ir::RoundingMode::None, r)),
                     Value::ofConst(ConstValue::integer(0)), r);
    } else {
      b = ec.compare(ir::BinaryOp::Lt, absV, inf, r);  // isfinited, finitef: NaN is not finite
    }
    return Value::ofTensor(Emitter::cast(ec.tensorOf(b, r, name), ir::DType::I32, r));
  });
}

// libdevice's integer bit functions and other helpers, composed of ops the IR has (shifts, masks,
// wider arithmetic), so the simulator and the GPU compute them alike.
class BitOps {
public:
  BitOps(ExprChecker& ec, const BoundArgs& a) : ec_(ec), a_(a), r_(a.callRange()) {}

  static Value i(int64_t v) { return Value::ofConst(ConstValue::integer(v)); }
  static Value f(double v) { return Value::ofConst(ConstValue::floating(v)); }
  Value bin(ir::BinaryOp op, const Value& x, const Value& y) { return ec_.binary(op, x, y, r_); }
  Value cast(const Value& v, ir::DType t) { return Value::ofTensor(Emitter::cast(ec_.tensorOf(v, r_, a_.name()), t, r_)); }
  Value where(const Value& c, const Value& x, const Value& y) { return ec_.select(c, x, y, r_); }
  Value cmp(ir::BinaryOp op, const Value& x, const Value& y) { return ec_.compare(op, x, y, r_); }

  // The argument, which must have one of `allowed` dtypes.
  ir::Expr arg(const std::string& param, std::initializer_list<ir::DType> allowed) {
    ir::Expr x = tensorArg(ec_, a_, param);
    for (ir::DType t : allowed)
      if (!x.type().isPointer() && x.type().dtype() == t) return x;
    std::string list;
    for (ir::DType t : allowed) list += (list.empty() ? "" : " or ") + std::string(ir::dtypeName(t));
    ec_.error(a_.range(param), a_.name() + " expects " + list + " (got " + x.type().str() + ")");
  }

  // Set bits of an unsigned 32- or 64-bit value, as int32 (SWAR).
  Value popcount(const Value& u, bool wide) {
    const uint64_t m1 = 0x5555555555555555ull, m2 = 0x3333333333333333ull, m4 = 0x0f0f0f0f0f0f0f0full, h = 0x0101010101010101ull;
    auto k = [&](uint64_t v) { return i(static_cast<int64_t>(wide ? v : v & 0xffffffffull)); };
    Value v = bin(ir::BinaryOp::Sub, u, bin(ir::BinaryOp::And, bin(ir::BinaryOp::Shr, u, i(1)), k(m1)));
    v = bin(ir::BinaryOp::Add, bin(ir::BinaryOp::And, v, k(m2)), bin(ir::BinaryOp::And, bin(ir::BinaryOp::Shr, v, i(2)), k(m2)));
    v = bin(ir::BinaryOp::And, bin(ir::BinaryOp::Add, v, bin(ir::BinaryOp::Shr, v, i(4))), k(m4));
    return cast(bin(ir::BinaryOp::Shr, bin(ir::BinaryOp::Mul, v, k(h)), i(wide ? 56 : 24)), ir::DType::I32);
  }

  // x's bits as the unsigned dtype of its width.
  std::pair<Value, bool> unsignedBits(const ir::Expr& x) {
    const bool wide = ir::bitWidth(x.type().dtype()) == 64;
    return {cast(Value::ofTensor(x), wide ? ir::DType::U64 : ir::DType::U32), wide};
  }

  Value popc() {
    auto [u, wide] = unsignedBits(arg("arg0", {ir::DType::I32, ir::DType::I64}));
    return popcount(u, wide);
  }
  Value clz() {
    auto [u, wide] = unsignedBits(arg("arg0", {ir::DType::I32, ir::DType::I64}));
    Value v = u;
    for (int s = 1; s <= (wide ? 32 : 16); s *= 2) v = bin(ir::BinaryOp::Or, v, bin(ir::BinaryOp::Shr, v, i(s)));
    return bin(ir::BinaryOp::Sub, i(wide ? 64 : 32), popcount(v, wide));
  }
  Value ffs() {
    auto [u, wide] = unsignedBits(arg("arg0", {ir::DType::I32, ir::DType::I64}));
    const Value lowest = popcount(bin(ir::BinaryOp::Xor, u, bin(ir::BinaryOp::Sub, u, i(1))), wide);
    return where(cmp(ir::BinaryOp::Eq, u, i(0)), cast(Value::ofConst(ConstValue::integer(0)), ir::DType::I32), lowest);
  }
  Value brev() {
    const ir::Expr x = arg("arg0", {ir::DType::I32, ir::DType::I64});
    auto [v, wide] = unsignedBits(x);
    const uint64_t masks[] = {0x5555555555555555ull, 0x3333333333333333ull, 0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull,
                              0x0000ffff0000ffffull, 0x00000000ffffffffull};
    for (int step = 0, s = 1; s <= (wide ? 32 : 16); ++step, s *= 2) {
      const Value m = i(static_cast<int64_t>(wide ? masks[step] : masks[step] & 0xffffffffull));
      v = bin(ir::BinaryOp::Or, bin(ir::BinaryOp::And, bin(ir::BinaryOp::Shr, v, i(s)), m), bin(ir::BinaryOp::Shl, bin(ir::BinaryOp::And, v, m), i(s)));
    }
    return cast(v, x.type().dtype());
  }
  Value saturatef() {
    const Value x = Value::ofTensor(arg("arg0", {ir::DType::FP32}));
    return where(cmp(ir::BinaryOp::Gt, x, f(0.0)), where(cmp(ir::BinaryOp::Lt, x, f(1.0)), x, f(1.0)), f(0.0));
  }
  // (x + y [+ 1]) >> 1 without overflow, in the 64-bit type of x's signedness.
  Value halvingAdd(bool round) {
    const ir::Expr x = arg("arg0", {ir::DType::I32, ir::DType::U32});
    const ir::Expr y = arg("arg1", {x.type().dtype()});
    const ir::DType wide = x.type().dtype() == ir::DType::I32 ? ir::DType::I64 : ir::DType::U64;
    Value sum = bin(ir::BinaryOp::Add, cast(Value::ofTensor(x), wide), cast(Value::ofTensor(y), wide));
    if (round) sum = bin(ir::BinaryOp::Add, sum, i(1));
    return cast(bin(ir::BinaryOp::Shr, sum, i(1)), x.type().dtype());
  }
  // The low 32 bits of the product of the low 24 bits (signed for int32).
  Value mul24() {
    const ir::Expr x = arg("arg0", {ir::DType::I32, ir::DType::U32});
    const ir::Expr y = arg("arg1", {x.type().dtype()});
    auto low24 = [&](const ir::Expr& e) {
      const Value v = Value::ofTensor(e);
      return e.type().dtype() == ir::DType::I32 ? bin(ir::BinaryOp::Shr, bin(ir::BinaryOp::Shl, v, i(8)), i(8))
                                                : bin(ir::BinaryOp::And, v, i(0xffffff));
    };
    return bin(ir::BinaryOp::Mul, low24(x), low24(y));
  }
  // The high 32 bits of the 64-bit product (int32; uint32 is tl.umulhi).
  Value mulhi() {
    const ir::Expr x = arg("arg0", {ir::DType::I32, ir::DType::U32});
    const ir::Expr y = arg("arg1", {x.type().dtype()});
    if (x.type().dtype() == ir::DType::U32) return Value::ofTensor(ir::MathCall::make(ir::MathFn::Umulhi, {x, y}, r_));
    const Value p = bin(ir::BinaryOp::Mul, cast(Value::ofTensor(x), ir::DType::I64), cast(Value::ofTensor(y), ir::DType::I64));
    return cast(bin(ir::BinaryOp::Shr, p, i(32)), ir::DType::I32);
  }
  // x * 2^n, rounded once for fp32 (the product is exact in fp64); fp64 in three exact steps.
  Value ldexp() {
    const ir::Expr x = arg("arg0", {ir::DType::FP32, ir::DType::FP64});
    const Value n = Value::ofTensor(arg("arg1", {ir::DType::I32}));
    auto pow2 = [&](const Value& k) {  // 2^k as fp64, |k| <= 1000
      return Value::ofTensor(ir::Cast::make(ec_.tensorOf(bin(ir::BinaryOp::Shl, bin(ir::BinaryOp::Add, cast(k, ir::DType::I64), i(1023)), i(52)), r_, "ldexp"),
                                            ir::DType::FP64, false, true, ir::RoundingMode::None, r_));
    };
    auto clamp = [&](const Value& v, int64_t lim) {
      return where(cmp(ir::BinaryOp::Gt, v, i(lim)), i(lim), where(cmp(ir::BinaryOp::Lt, v, i(-lim)), i(-lim), v));
    };
    const Value xd = cast(Value::ofTensor(x), ir::DType::FP64);
    if (x.type().dtype() == ir::DType::FP32) return cast(bin(ir::BinaryOp::Mul, xd, pow2(clamp(n, 400))), ir::DType::FP32);
    const Value c = clamp(n, 2400);
    const Value third = bin(ir::BinaryOp::Div, c, i(3));
    const Value rest = bin(ir::BinaryOp::Sub, c, bin(ir::BinaryOp::Mul, third, i(2)));
    // Each step is exact unless the result itself is subnormal or out of range.
    return bin(ir::BinaryOp::Mul, bin(ir::BinaryOp::Mul, bin(ir::BinaryOp::Mul, xd, pow2(third)), pow2(third)), pow2(rest));
  }

  // Conversions: `from` -> `to`, rounding float -> int to nearest (rint first), or the bits as they are.
  Value convert(ir::DType from, ir::DType to, bool bits) {
    const ir::Expr x = arg("arg0", {from});
    if (bits) return Value::ofTensor(ir::Cast::make(x, to, false, true, ir::RoundingMode::None, r_));
    Value v = Value::ofTensor(x);
    if (ir::isFloat(from) && !ir::isFloat(to)) v = Value::ofTensor(ir::MathCall::make(ir::MathFn::Rint, {x}, r_));
    return cast(v, to);
  }
  // The high or low 32 bits of an fp64, and back.
  Value doubleHalf(bool high) {
    const Value bitsV = convert(ir::DType::FP64, ir::DType::I64, true);
    return cast(high ? bin(ir::BinaryOp::Shr, bitsV, i(32)) : bitsV, ir::DType::I32);
  }
  Value hiloToDouble() {
    const Value hi = cast(Value::ofTensor(arg("arg0", {ir::DType::I32})), ir::DType::I64);
    const Value lo = cast(cast(Value::ofTensor(arg("arg1", {ir::DType::I32})), ir::DType::U32), ir::DType::I64);
    const Value bitsV = bin(ir::BinaryOp::Or, bin(ir::BinaryOp::Shl, hi, i(32)), lo);
    return Value::ofTensor(ir::Cast::make(ec_.tensorOf(bitsV, r_, "hiloint2double"), ir::DType::FP64, false, true, ir::RoundingMode::None, r_));
  }
  // ilogb: logb as int32; 0 and NaN give INT_MIN, infinities INT_MAX (CUDA's and glibc's values).
  Value ilogb() {
    const ir::Expr x = arg("arg0", {ir::DType::FP32, ir::DType::FP64});
    const Value v = Value::ofTensor(x);
    const Value logb = cast(Value::ofTensor(ir::MathCall::make(ir::MathFn::Logb, {x}, r_)), ir::DType::I32);
    const Value absV = Value::ofTensor(ir::MathCall::make(ir::MathFn::Abs, {x}, r_));
    const Value inf = f(std::numeric_limits<double>::infinity());
    const Value zeroOrNan = ec_.logical(false, cmp(ir::BinaryOp::Eq, v, f(0.0)), cmp(ir::BinaryOp::Ne, v, v), r_);
    return where(zeroOrNan, i(std::numeric_limits<int32_t>::min()), where(cmp(ir::BinaryOp::Eq, absV, inf), i(std::numeric_limits<int32_t>::max()), logb));
  }
  // norm3d/norm4d (and their reciprocals) as nested hypot, which never overflows early.
  Value norm(int n, bool reciprocal) {
    std::vector<ir::Expr> xs;
    for (int k = 0; k < n; ++k) xs.push_back(arg("arg" + std::to_string(k), {ir::DType::FP32, ir::DType::FP64}));
    Value acc = Value::ofTensor(xs[0]);
    for (int k = 1; k < n; ++k) {
      if (xs[k].type().dtype() != xs[0].type().dtype())
        ec_.error(a_.range("arg" + std::to_string(k)), a_.name() + " needs arguments of one dtype");
      auto [p, q] = ec_.broadcastPair(ec_.tensorOf(acc, r_, "norm"), xs[k], r_);
      acc = Value::ofTensor(ir::MathCall::make(ir::MathFn::Hypot, {p, q}, r_));
    }
    return reciprocal ? bin(ir::BinaryOp::TrueDiv, f(1.0), acc) : acc;
  }

private:
  ExprChecker& ec_;
  const BoundArgs& a_;
  SourceRange r_;
};

}  // namespace

void registerMathBuiltins(BuiltinRegistry& r) {
  using ir::MathFn;
  const std::pair<const char*, MathFn> unary[] = {
      {"tl.exp", MathFn::Exp},     {"tl.exp2", MathFn::Exp2},       {"tl.log", MathFn::Log},     {"tl.log2", MathFn::Log2},
      {"tl.sqrt", MathFn::Sqrt},   {"tl.sqrt_rn", MathFn::SqrtRn},  {"tl.rsqrt", MathFn::Rsqrt}, {"tl.abs", MathFn::Abs},
      {"tl.sin", MathFn::Sin},     {"tl.cos", MathFn::Cos},         {"tl.floor", MathFn::Floor}, {"tl.ceil", MathFn::Ceil},
      {"tl.erf", MathFn::Erf},     {"tl.sigmoid", MathFn::Sigmoid}, {"tl.math.tanh", MathFn::Tanh},
  };
  for (const auto& [name, fn] : unary) addUnaryMath(r, name, fn);

  // libdevice's own functions, reached as libdevice.<name> only (Builtins.cpp's libdeviceNames).
  for (int f = static_cast<int>(MathFn::Acos); f <= static_cast<int>(MathFn::Rhypot); ++f) {
    const MathFn fn = static_cast<MathFn>(f);
    const std::string name = "libdevice." + std::string(ir::mathFnName(fn));
    if (ir::mathFnArity(fn) == 1) {
      addUnaryMath(r, name, fn);
      continue;
    }
    r.add(name, "x, y", [fn](ExprChecker& ec, const BoundArgs& a) {
      auto ops = legalize(ec, a, {"x", "y"}, false);
      if (std::string err = ir::mathDTypeError(fn, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
      return Value::ofTensor(ir::MathCall::make(fn, ops, a.callRange()));
    });
  }

  addClassification(r, "isnan", false, false);
  addClassification(r, "isinf", false, false);
  addClassification(r, "signbit", false, false);
  addClassification(r, "finitef", true, false);
  addClassification(r, "isfinited", false, true);
  r.add("libdevice.popc", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).popc(); });
  r.add("libdevice.clz", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).clz(); });
  r.add("libdevice.ffs", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).ffs(); });
  r.add("libdevice.brev", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).brev(); });
  r.add("libdevice.saturatef", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).saturatef(); });
  r.add("libdevice.hadd", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).halvingAdd(false); });
  r.add("libdevice.rhadd", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).halvingAdd(true); });
  r.add("libdevice.mul24", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).mul24(); });
  r.add("libdevice.mulhi", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).mulhi(); });
  r.add("libdevice.ldexp", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).ldexp(); });
  r.add("libdevice.scalbn", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).ldexp(); });
  using ir::DType;
  const std::tuple<const char*, DType, DType, bool> conversions[] = {
      {"double2float_rn", DType::FP64, DType::FP32, false}, {"double2int_rn", DType::FP64, DType::I32, false},
      {"double2uint_rn", DType::FP64, DType::U32, false},   {"double2ll_rn", DType::FP64, DType::I64, false},
      {"double2ull_rn", DType::FP64, DType::U64, false},    {"float2int_rn", DType::FP32, DType::I32, false},
      {"float2uint_rn", DType::FP32, DType::U32, false},    {"float2ll_rn", DType::FP32, DType::I64, false},
      {"float2ull_rn", DType::FP32, DType::U64, false},     {"int2float_rn", DType::I32, DType::FP32, false},
      {"int2double_rn", DType::I32, DType::FP64, false},    {"uint2float_rn", DType::U32, DType::FP32, false},
      {"uint2double_rn", DType::U32, DType::FP64, false},   {"ll2float_rn", DType::I64, DType::FP32, false},
      {"ll2double_rn", DType::I64, DType::FP64, false},     {"ull2float_rn", DType::U64, DType::FP32, false},
      {"ull2double_rn", DType::U64, DType::FP64, false},    {"float_as_int", DType::FP32, DType::I32, true},
      {"float_as_uint", DType::FP32, DType::U32, true},     {"int_as_float", DType::I32, DType::FP32, true},
      {"uint_as_float", DType::U32, DType::FP32, true},     {"double_as_longlong", DType::FP64, DType::I64, true},
      {"longlong_as_double", DType::I64, DType::FP64, true}};
  // Init-captures rather than structured bindings: clang 14 (the fuzz build) cannot capture those.
  for (const auto& row : conversions)
    r.add(std::string("libdevice.") + std::get<0>(row), "arg0",
          [from = std::get<1>(row), to = std::get<2>(row), bits = std::get<3>(row)](ExprChecker& ec, const BoundArgs& a) {
            return BitOps(ec, a).convert(from, to, bits);
          });
  r.add("libdevice.double2hiint", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).doubleHalf(true); });
  r.add("libdevice.double2loint", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).doubleHalf(false); });
  r.add("libdevice.hiloint2double", "arg0, arg1", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).hiloToDouble(); });
  r.add("libdevice.ilogb", "arg0", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).ilogb(); });
  r.add("libdevice.norm3d", "arg0, arg1, arg2", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).norm(3, false); });
  r.add("libdevice.norm4d", "arg0, arg1, arg2, arg3", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).norm(4, false); });
  r.add("libdevice.rnorm3d", "arg0, arg1, arg2", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).norm(3, true); });
  r.add("libdevice.rnorm4d", "arg0, arg1, arg2, arg3", [](ExprChecker& ec, const BoundArgs& a) { return BitOps(ec, a).norm(4, true); });
  // rcp_rn: the correctly rounded reciprocal, IEEE division in the simulator and on the GPU.
  r.add("libdevice.rcp_rn", "arg0", [](ExprChecker& ec, const BoundArgs& a) {
    const ir::Expr x = tensorArg(ec, a, "arg0");
    if (x.type().isPointer() || (x.type().dtype() != ir::DType::FP32 && x.type().dtype() != ir::DType::FP64))
      ec.error(a.range("arg0"), "libdevice.rcp_rn expects fp32 or fp64 (got " + x.type().str() + ")");
    return ec.binary(ir::BinaryOp::TrueDiv, Value::ofConst(ConstValue::floating(1.0)), Value::ofTensor(x), a.callRange());
  });
  // llrint / llround: rint / round, then the exact integer as int64.
  for (const auto& [name, fn] : {std::pair<const char*, ir::MathFn>{"llrint", ir::MathFn::Rint}, {"llround", ir::MathFn::Round}}) {
    r.add(std::string("libdevice.") + name, "arg0", [fn = fn](ExprChecker& ec, const BoundArgs& a) {
      const ir::Expr x = mathOperand(ec, a, "arg0", fn);
      return Value::ofTensor(Emitter::cast(ir::MathCall::make(fn, {x}, a.callRange()), ir::DType::I64, a.callRange()));
    });
  }

  r.add("tl.fdiv", "x, y, ieee_rounding=False", [](ExprChecker& ec, const BoundArgs& a) {
    for (const char* p : {"x", "y"}) {
      ir::Expr e = tensorArg(ec, a, p);
      if (!e.type().isFloat()) ec.error(a.range(p), "tl.fdiv needs floating-point operands; " + builtin::describeArg(a, p));
    }
    auto ops = legalize(ec, a, {"x", "y"}, true);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::FDiv, ops, a.callRange()));
  });
  r.add("tl.div_rn", "x, y", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::DivRn, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::DivRn, ops, a.callRange()));
  });
  r.add("tl.fma", "x, y, z", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y", "z"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::Fma, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::Fma, ops, a.callRange()));
  });
  r.add("tl.umulhi", "x, y", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::Umulhi, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::Umulhi, ops, a.callRange()));
  });
  r.add("tl.maximum", "x, y, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.minMax(true, a.get("x"), a.get("y"), propagateNanArg(ec, a), a.callRange());
  });
  r.add("tl.minimum", "x, y, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.minMax(false, a.get("x"), a.get("y"), propagateNanArg(ec, a), a.callRange());
  });
  r.add("tl.where", "condition, x, y", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.select(a.get("condition"), a.get("x"), a.get("y"), a.callRange());
  });
  r.add("tl.clamp", "x, min, max, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "min", "max"}, false);
    if (!ops[0].type().isFloat())
      ec.error(a.callRange(), "tl.clamp supports floating-point values only (got " + ops[0].type().str() +
                                  "); use tl.minimum(tl.maximum(x, lo), hi) for integers");
    const bool nan = propagateNanArg(ec, a);
    // clamp(x, lo, hi) = min(max(x, lo), hi), with the same NaN rule for both.
    ir::Expr lo = ir::Binary::make(ir::BinaryOp::Max, ops[0], ops[1], a.callRange(), nan);
    return Value::ofTensor(ir::Binary::make(ir::BinaryOp::Min, lo, ops[2], a.callRange(), nan));
  });
  // Triton 3.6's function forms of + - * (sanitize_overflow checks only in Triton's debug mode).
  for (const auto& [name, op] : {std::pair{"tl.add", ir::BinaryOp::Add}, std::pair{"tl.sub", ir::BinaryOp::Sub},
                                 std::pair{"tl.mul", ir::BinaryOp::Mul}}) {
    r.add(name, "x, y, sanitize_overflow=True", [op = op](ExprChecker& ec, const BoundArgs& a) {
      return ec.binary(op, a.get("x"), a.get("y"), a.callRange());
    });
  }
  r.add("tl.cdiv", "x, div", [](ExprChecker& ec, const BoundArgs& a) { return cdiv(ec, a.get("x"), a.get("div"), a.callRange()); });
  r.add("tl.swizzle2d", "i, j, size_i, size_j, size_g", swizzle2d);
}

}  // namespace tilescope::lang
