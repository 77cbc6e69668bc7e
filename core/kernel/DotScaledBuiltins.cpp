// tl.dot_scaled: the matrix product of microscaled (mx) operands, lowered by the checker to ops the
// IR already has, as Triton does on GPUs without native mx support: each operand is decoded from its
// format (fp8 e4m3/e5m2 or fp4 e2m1 bytes by integer arithmetic, so the GPU needs no fp8 support),
// multiplied by its e8m0 scale (2^(s - 127), one per 32 elements along K; 255 is NaN) and rounded to
// the compute type (bf16; fp16 when both operands are fp16), then multiplied by tl.dot into fp32.
#include <cmath>
#include <limits>

#include "core/kernel/BuiltinRegistry.h"
#include "core/kernel/Emitter.h"

namespace tilescope::lang {

namespace {

constexpr int64_t kScaleGroup = 32;  // elements along K that share one e8m0 scale

class ScaledLowering {
public:
  ScaledLowering(ExprChecker& ec, const BoundArgs& a) : ec_(ec), a_(a), r_(a.callRange()) {}

  static Value i(int64_t v) { return Value::ofConst(ConstValue::integer(v)); }
  static Value f(double v) { return Value::ofConst(ConstValue::floating(v)); }
  Value bin(ir::BinaryOp op, const Value& x, const Value& y) { return ec_.binary(op, x, y, r_); }
  Value eq(const Value& x, const Value& y) { return ec_.compare(ir::BinaryOp::Eq, x, y, r_); }
  Value where(const Value& c, const Value& x, const Value& y) { return ec_.select(c, x, y, r_); }
  ir::Expr tensor(const Value& v) { return ec_.tensorOf(v, r_, "a tl.dot_scaled operand"); }
  Value cast(const Value& v, ir::DType t) { return Value::ofTensor(Emitter::cast(tensor(v), t, r_)); }
  Value bitcast(const Value& v, ir::DType t) {
    const ir::Expr e = tensor(v);
    if (e.type().dtype() == t) return v;
    return Value::ofTensor(ir::Cast::make(e, t, false, true, ir::RoundingMode::None, r_));
  }
  Value call(const char* name, ValueList args) {
    CallArgs c;
    for (const Value& v : args) {
      c.args.push_back(v);
      c.argRanges.push_back(r_);
    }
    c.range = r_;
    c.calleeRange = r_;
    c.calleeText = name;
    return ec_.call(Value::ofBuiltin(name), c);
  }
  static Value shape(std::vector<int64_t> dims) {
    ValueList v;
    for (int64_t d : dims) v.push_back(i(d));
    return Value::ofTuple(v);
  }

  // 2^x as fp32 for int32 x in -126..127.
  Value pow2(const Value& x) { return bitcast(bin(ir::BinaryOp::Shl, bin(ir::BinaryOp::Add, x, i(127)), i(23)), ir::DType::FP32); }

  // A minifloat with `expBits` exponent and `manBits` mantissa bits (bias 2^(expBits-1) - 1) from
  // its bits (int32, sign at bit expBits + manBits), as fp32. `ieeeSpecials`: the top exponent is
  // inf/NaN (e5m2); e4m3 has only NaN (all exponent and mantissa bits set); e2m1 has neither.
  Value minifloat(const Value& bits, int expBits, int manBits, bool ieeeSpecials, bool hasNan) {
    const int bias = (1 << (expBits - 1)) - 1;
    const Value e = bin(ir::BinaryOp::And, bin(ir::BinaryOp::Shr, bits, i(manBits)), i((1 << expBits) - 1));
    const Value m = bin(ir::BinaryOp::And, bits, i((1 << manBits) - 1));
    // normal: (2^manBits + m) * 2^(e - bias - manBits); subnormal: m * 2^(1 - bias - manBits)
    const Value normal = bin(ir::BinaryOp::Mul, cast(bin(ir::BinaryOp::Add, m, i(1 << manBits)), ir::DType::FP32),
                             pow2(bin(ir::BinaryOp::Sub, e, i(bias + manBits))));
    const Value sub = bin(ir::BinaryOp::Mul, cast(m, ir::DType::FP32), f(std::ldexp(1.0, 1 - bias - manBits)));
    Value v = where(eq(e, i(0)), sub, normal);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (ieeeSpecials) {
      const Value special = where(eq(m, i(0)), f(std::numeric_limits<double>::infinity()), f(nan));
      v = where(eq(e, i((1 << expBits) - 1)), special, v);
    } else if (hasNan) {
      const int all = (1 << (expBits + manBits)) - 1;
      v = where(eq(bin(ir::BinaryOp::And, bits, i(all)), i(all)), f(nan), v);
    }
    const Value negative = eq(bin(ir::BinaryOp::And, bin(ir::BinaryOp::Shr, bits, i(expBits + manBits)), i(1)), i(1));
    return where(negative, bin(ir::BinaryOp::Mul, v, f(-1.0)), v);
  }

  // The operand's elements as fp32, [rows, K] for lhs or [K, cols] for rhs. fp4 bytes hold two
  // elements along K, the first in the low nibble.
  Value decode(const std::string& param, const std::string& format, bool isLhs) {
    ir::Expr x = ec_.tensorOf(a_.get(param), a_.range(param), "tl.dot_scaled " + param);
    if (x.type().rank() != 2)
      ec_.error(a_.range(param), "tl.dot_scaled " + param + " must be a 2-D tensor, got " + x.type().str() +
                                     " (tilescope does not support batched dot_scaled yet)");
    const ir::DType dt = x.type().dtype();
    if (format == "bf16" || format == "fp16") {
      const ir::DType want = format == "bf16" ? ir::DType::BF16 : ir::DType::FP16;
      if (dt != want)
        ec_.error(a_.range(param), "tl.dot_scaled " + param + " in format '" + format + "' must be a " + std::string(ir::dtypeName(want)) +
                                       " tensor, got " + x.type().str());
      return cast(Value::ofTensor(x), ir::DType::FP32);
    }
    const bool fp8Type = (format == "e4m3" && dt == ir::DType::FP8E4NV) || (format == "e5m2" && dt == ir::DType::FP8E5);
    if (dt != ir::DType::U8 && dt != ir::DType::I8 && !fp8Type)
      ec_.error(a_.range(param), "tl.dot_scaled " + param + " in format '" + format + "' must hold its bits as uint8" +
                                     (format == "e2m1" ? " (two fp4 elements per byte)" : " (or the fp8 dtype)") + ", got " +
                                     x.type().str());
    const Value bytes = bin(ir::BinaryOp::And, cast(bitcast(Value::ofTensor(x), ir::DType::U8), ir::DType::I32), i(255));
    if (format == "e4m3") return minifloat(bytes, 4, 3, false, true);
    if (format == "e5m2") return minifloat(bytes, 5, 2, true, true);
    // e2m1: unpack the nibbles along K.
    const Value low = minifloat(bin(ir::BinaryOp::And, bytes, i(15)), 2, 1, false, false);
    const Value high = minifloat(bin(ir::BinaryOp::Shr, bytes, i(4)), 2, 1, false, false);
    const ir::Shape s = x.type().shape();
    const Value joined = call("tl.join", {low, high});  // [s0, s1, 2]
    if (isLhs) return call("tl.reshape", {joined, shape({s[0], s[1] * 2})});
    // rhs [K/2, N] -> [K/2, 2, N] -> [K, N]
    return call("tl.reshape", {call("tl.permute", {joined, shape({0, 2, 1})}), shape({s[0] * 2, s[1]})});
  }

  // 2^(s - 127) per element of an [outer, K/32] uint8 scale tensor, spread to [outer, K] as fp32.
  Value scale(const std::string& param, int64_t outer, int64_t k) {
    ir::Expr s = ec_.tensorOf(a_.get(param), a_.range(param), "tl.dot_scaled " + param);
    if (s.type().dtype() != ir::DType::U8 && s.type().dtype() != ir::DType::I8)
      ec_.error(a_.range(param), "tl.dot_scaled " + param + " holds e8m0 scales as uint8, got " + s.type().str());
    if (k % kScaleGroup != 0 || s.type().shape() != ir::Shape{outer, k / kScaleGroup})
      ec_.error(a_.range(param), "tl.dot_scaled " + param + " must have shape [" + std::to_string(outer) + ", " +
                                     std::to_string(k / kScaleGroup) + "] (one e8m0 scale per 32 elements along K = " +
                                     std::to_string(k) + "), got " + s.type().str());
    const Value bits = bin(ir::BinaryOp::And, cast(bitcast(Value::ofTensor(s), ir::DType::U8), ir::DType::I32), i(255));
    Value v = bitcast(bin(ir::BinaryOp::Shl, bits, i(23)), ir::DType::FP32);
    v = where(eq(bits, i(0)), f(std::ldexp(1.0, -127)), v);
    v = where(eq(bits, i(255)), f(std::numeric_limits<double>::quiet_NaN()), v);
    // [outer, K/32] -> [outer, K/32, 32] -> [outer, K]
    const Value spread = call("tl.broadcast_to", {call("tl.expand_dims", {v, i(2)}), shape({outer, k / kScaleGroup, kScaleGroup})});
    return call("tl.reshape", {spread, shape({outer, k})});
  }

  Value run() {
    const std::string lf = format("lhs_format"), rf = format("rhs_format");
    for (const char* p : {"lhs_k_pack", "rhs_k_pack"})
      if (a_.given(p) && !ec_.requireConstBool(a_.get(p), a_.range(p), std::string("tl.dot_scaled ") + p))
        ec_.error(a_.range(p), std::string("tl.dot_scaled with ") + p + "=False (fp4 packed along M or N) is not supported by tilescope yet");
    if (a_.given("out_dtype") && ec_.requireDType(a_.get("out_dtype"), a_.range("out_dtype"), "tl.dot_scaled out_dtype") != ir::DType::FP32)
      ec_.error(a_.range("out_dtype"), "tl.dot_scaled out_dtype must be tl.float32 (as in Triton 3.6)");
    Value lhs = decode("lhs", lf, true);
    Value rhs = decode("rhs", rf, false);
    const ir::Shape ls = tensor(lhs).type().shape(), rs = tensor(rhs).type().shape();
    if (ls[1] != rs[0])
      ec_.error(r_, "tl.dot_scaled operands must agree on K: lhs has " + std::to_string(ls[1]) + " elements along K (" + lf +
                        "), rhs " + std::to_string(rs[0]) + " (" + rf + ")");
    const int64_t k = ls[1];
    if (a_.given("lhs_scale")) lhs = bin(ir::BinaryOp::Mul, lhs, scale("lhs_scale", ls[0], k));
    if (a_.given("rhs_scale"))
      rhs = bin(ir::BinaryOp::Mul, rhs, call("tl.permute", {scale("rhs_scale", rs[1], k), shape({1, 0})}));
    const ir::DType compute = lf == "fp16" && rf == "fp16" ? ir::DType::FP16 : ir::DType::BF16;
    ir::Expr acc;
    if (a_.given("acc")) {
      acc = ec_.tensorOf(a_.get("acc"), a_.range("acc"), "tl.dot_scaled acc");
      if (acc.type() != ir::Type::tile(ir::DType::FP32, {ls[0], rs[1]}))
        ec_.error(a_.range("acc"), "tl.dot_scaled acc must be a float32 tensor of shape [" + std::to_string(ls[0]) + ", " +
                                       std::to_string(rs[1]) + "], got " + acc.type().str());
    }
    const ir::Expr x = Emitter::cast(tensor(lhs), compute, r_);
    const ir::Expr y = Emitter::cast(tensor(rhs), compute, r_);
    auto typing = ir::dotTyping(x.type(), y.type(), acc ? std::optional<ir::Type>(acc.type()) : std::nullopt, ir::DType::FP32);
    if (!typing) ec_.error(r_, typing.error());
    return Value::ofTensor(ir::Dot::make(x, y, acc, ir::DType::FP32, ir::InputPrecision::IEEE, r_));
  }

private:
  ExprChecker& ec_;
  const BoundArgs& a_;
  SourceRange r_;

  std::string format(const std::string& param) {
    const std::string f = ec_.requireConstString(a_.get(param), a_.range(param), "tl.dot_scaled " + param);
    if (f != "e2m1" && f != "e4m3" && f != "e5m2" && f != "bf16" && f != "fp16")
      ec_.error(a_.range(param), "tl.dot_scaled " + param + " must be 'e2m1', 'e4m3', 'e5m2', 'bf16' or 'fp16', not '" + f + "'");
    return f;
  }
};

}  // namespace

void registerDotScaledBuiltins(BuiltinRegistry& r) {
  r.add("tl.dot_scaled",
        "lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True, "
        "out_dtype=None",
        [](ExprChecker& ec, const BoundArgs& a) { return ScaledLowering(ec, a).run(); });
}

}  // namespace tilescope::lang
