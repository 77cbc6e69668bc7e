// Elementwise expressions of the tile IR as CUDA C++: casts (fp8 through CudaFp8), unary and binary
// operators with the simulator's integer and floating-point rules, libdevice math, and tl.rand's
// Philox counters. Each returns an expression of one element (ts_j of a tile).
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaFp8.h"
#include "core/gpu/codegen/CudaTypes.h"

#include <algorithm>
#include <cmath>

namespace tilescope::gpu {

using ir::BinaryOp;
using ir::DType;

namespace {

bool isNarrowFloat(DType t) { return t == DType::FP16 || t == DType::BF16 || ir::isFp8(t); }

}  // namespace

std::string CudaEmitter::cast(const ir::Cast& n) {
  const ir::Type& from = n.value.type();
  const ir::Type& to = n.type;
  const std::string x = expr(n.value);
  const DType f = from.dtype(), t = to.dtype();
  if (to.isPointer() && from.isPointer()) return "((" + regType(to) + ")(" + x + "))";
  if (to.isPointer()) return "((" + regType(to) + ")(ts_u64)(" + x + "))";
  if (from.isPointer()) return "((" + regType(t) + ")(ts_i64)(" + x + "))";
  if (ir::isFp8(f) || ir::isFp8(t)) return fp8Cast(f, t, n.bitcast, n.rounding == ir::RoundingMode::RTZ, x);
  const std::string T = regType(t);
  if (n.bitcast) {
    if (ir::isFloat(f) && ir::isFloat(t)) {
      // Same width: fp16 <-> bf16 (fp32/fp64 to themselves are no-ops).
      if (f == t) return x;
      if (f == DType::FP16) return "ts_b2f(ts_f2h(" + x + "))";
      return "ts_h2f(ts_f2b(" + x + "))";
    }
    if (ir::isFloat(f)) {
      if (f == DType::FP32) return "((" + T + ")__float_as_uint(" + x + "))";
      if (f == DType::FP64) return "((" + T + ")__double_as_longlong(" + x + "))";
      return "((" + T + ")" + (f == DType::FP16 ? "ts_f2h(" : "ts_f2b(") + x + "))";
    }
    if (ir::isFloat(t)) {
      if (t == DType::FP32) return "__uint_as_float((ts_u32)(" + x + "))";
      if (t == DType::FP64) return "__longlong_as_double((ts_i64)(" + x + "))";
      return std::string(t == DType::FP16 ? "ts_h2f" : "ts_b2f") + "((ts_u16)(" + x + "))";
    }
    return "((" + T + ")(" + x + "))";
  }
  if (t == DType::I1) return "((" + x + ") != 0)";
  const bool rtz = n.rounding == ir::RoundingMode::RTZ;
  if (ir::isFloat(f) && ir::isFloat(t)) {
    const bool narrowing = ir::bitWidth(t) < ir::bitWidth(f) || (ir::bitWidth(t) == ir::bitWidth(f) && t != f);
    if (!narrowing) return t == DType::FP64 ? "((double)(" + x + "))" : x;
    const bool fromDouble = f == DType::FP64;
    switch (t) {
      case DType::FP32: return rtz ? "__double2float_rz(" + x + ")" : "((float)(" + x + "))";
      case DType::FP16:
        if (rtz) return "ts_h2f(ts_f2h_rz(" + (fromDouble ? "__double2float_rz(" + x + ")" : x) + "))";
        return fromDouble ? "ts_rh_d(" + x + ")" : "ts_rh(" + x + ")";
      case DType::BF16:
        if (rtz) return "ts_b2f(ts_f2b_rz(" + (fromDouble ? "__double2float_rz(" + x + ")" : x) + "))";
        return fromDouble ? "ts_rb_d(" + x + ")" : "ts_rb(" + x + ")";
      default: break;
    }
    throw lang::InternalError("cuda codegen: float cast");
  }
  if (ir::isFloat(f)) {
    // Only the limits go through snprintf: the value's text can be arbitrarily long.
    if (ir::isUnsignedInt(t)) {
      char limits[96];
      std::snprintf(limits, sizeof limits, ", %.17g, 0x%llxull))", static_cast<double>(ir::intMaxU(t)),
                    static_cast<unsigned long long>(ir::intMaxU(t)));
      return "((" + T + ")ts_f2u((double)(" + x + ")" + limits;
    }
    if (f != DType::FP64 && ir::bitWidth(t) <= 32 && t != DType::I1) {
      // fp32 (and 16-bit floats, held as fp32) to a signed int of 32 bits or fewer: cvt.rzi.s32.f32
      // truncates, saturates and gives 0 for NaN, as ts_f2s does through fp64; then the target's range.
      const std::string v = "__float2int_rz(" + x + ")";
      if (t == DType::I32) return "((ts_i32)" + v + ")";
      return "((" + T + ")min(max(" + v + ", " + n2s(ir::intMin(t)) + "), " + n2s(static_cast<int64_t>(ir::intMaxU(t))) + "))";
    }
    char limits[160];
    std::snprintf(limits, sizeof limits, ", %.17g, %.17g, (ts_i64)0x%llxull, (ts_i64)0x%llxull))",
                  static_cast<double>(ir::intMin(t)), static_cast<double>(ir::intMaxU(t)),
                  static_cast<unsigned long long>(ir::intMin(t)), static_cast<unsigned long long>(ir::intMaxU(t)));
    return "((" + T + ")ts_f2s((double)(" + x + ")" + limits;
  }
  if (ir::isFloat(t)) {
    switch (t) {
      case DType::FP32: return "((float)(" + x + "))";
      case DType::FP64: return "((double)(" + x + "))";
      case DType::FP16: return "ts_rh_d((double)(" + x + "))";
      default: return "ts_rb_d((double)(" + x + "))";
    }
  }
  return "((" + T + ")(" + x + "))";
}

std::string CudaEmitter::unary(const ir::Unary& n) {
  const std::string x = expr(n.value);
  const DType t = n.type.dtype();
  if (ir::isFloat(t)) return "(-(" + x + "))";
  if (t == DType::I1) return n.op == ir::UnaryOp::Neg ? x : "(!(" + x + "))";
  const std::string T = regType(t), U = unsignedType(t);
  if (n.op == ir::UnaryOp::Neg) return "((" + T + ")(" + U + ")((" + U + ")0 - (" + U + ")(" + x + ")))";
  return "((" + T + ")~(" + x + "))";
}

std::string CudaEmitter::select(const ir::Select& n) {
  // A condition constant over each vector group (`cols < N` with N divisible by 16, as masks are)
  // is evaluated at the group's first element, ts_i - ts_j % V: the same expression for the group's
  // V elements, which NVVM computes once instead of a compare per element. Only in element loops of
  // the blocked layout (ts_j the slot of ts_i): not in register loops nor in pipelined copies.
  std::string cond;
  const ir::Type& ct = n.cond.type();
  const int vec = ct.isTile() ? layout(ct.numel()).vec : 1;
  if (vec > 1 && index_ == "ts_i" && !inRegisterLoop_ && prefetchScalars_.empty() && ct.shape().back() % vec == 0) {
    std::set<int> assumedUnit;
    if (axisAnalysis().of(n.cond, assumedUnit).constancy >= vec && assumedUnit.empty()) {
      try {
        cond = withIndex("(ts_i - ts_j % " + n2s(vec) + ")", n.cond);
      } catch (const NotIndexable&) {
        cond.clear();
      }
    }
  }
  if (cond.empty()) cond = expr(n.cond);
  if (ct.isTile()) return "ts_sel<" + regType(n.type) + ">(" + cond + ", " + expr(n.a) + ", " + expr(n.b) + ")";
  return "((" + cond + ") ? (" + expr(n.a) + ") : (" + expr(n.b) + "))";
}

std::string CudaEmitter::binary(const ir::Binary& n) {
  const std::string a = expr(n.a), b = expr(n.b);
  const ir::Type& at = n.a.type();
  const DType t = at.dtype();
  auto op2 = [&](const char* op) { return "((" + a + ") " + op + " (" + b + "))"; };
  switch (n.op) {
    case BinaryOp::Eq: return op2("==");
    case BinaryOp::Ne: return op2("!=");
    case BinaryOp::Lt: return op2("<");
    case BinaryOp::Le: return op2("<=");
    case BinaryOp::Gt: return op2(">");
    case BinaryOp::Ge: return op2(">=");
    case BinaryOp::LogicalAnd: return op2("&&");
    case BinaryOp::LogicalOr: return op2("||");
    default: break;
  }
  if (at.isPointer()) {
    if (n.op == BinaryOp::Add) return op2("+");
    if (n.op == BinaryOp::Sub) return op2("-");
    unsupported(n.range, "pointer operation " + std::string(ir::binaryOpName(n.op)));
  }
  if (ir::isFloat(t)) {
    const bool dbl = t == DType::FP64;
    switch (n.op) {
      case BinaryOp::Add: return roundTo(t, op2("+"));
      case BinaryOp::Sub: return roundTo(t, op2("-"));
      case BinaryOp::Mul: return roundTo(t, op2("*"));
      // A tile divided by a scalar: ts_div_by (the prelude), the same bits as `/` with the divisor's
      // reciprocal refined once and no call of the slow path in line after each element's division.
      case BinaryOp::TrueDiv:
        if (!dbl && n.type.isTile() && (!n.b.type().isTile() || n.b.as<ir::Splat>()))
          return roundTo(t, "ts_div_by(" + a + ", " + b + ", ts_rcp1(" + b + "))");
        return roundTo(t, op2("/"));
      case BinaryOp::Mod: return std::string(dbl ? "fmod(" : "fmodf(") + a + ", " + b + ")";
      case BinaryOp::Min:
        return n.propagateNan ? "ts_minnan(" + a + ", " + b + ")" : std::string(dbl ? "fmin(" : "fminf(") + a + ", " + b + ")";
      case BinaryOp::Max:
        return n.propagateNan ? "ts_maxnan(" + a + ", " + b + ")" : std::string(dbl ? "fmax(" : "fmaxf(") + a + ", " + b + ")";
      default: unsupported(n.range, "float operation " + std::string(ir::binaryOpName(n.op)));
    }
  }
  const std::string T = regType(t), U = unsignedType(t), A = arithmeticType(t);
  const std::string bits = std::to_string(ir::bitWidth(t));
  const bool uns = ir::isUnsignedInt(t);
  auto wrap = [&](const char* op) {
    if (t == DType::I1) return "((((ts_u32)(" + a + ") " + op + " (ts_u32)(" + b + ")) & 1u) != 0)";
    // Unsigned arithmetic at >= 32 bits, then truncation to T: two's-complement wrap without UB.
    return "((" + T + ")(" + A + ")((" + A + ")(" + U + ")(" + a + ") " + op + " (" + A + ")(" + U + ")(" + b + ")))";
  };
  switch (n.op) {
    case BinaryOp::Add: return wrap("+");
    case BinaryOp::Sub: return wrap("-");
    case BinaryOp::Mul: return wrap("*");
    case BinaryOp::Div: return uns ? "ts_udiv<" + T + ">(" + a + ", " + b + ")" : "ts_sdiv<" + T + ", " + U + ">(" + a + ", " + b + ")";
    case BinaryOp::Mod: return uns ? "ts_umod<" + T + ">(" + a + ", " + b + ")" : "ts_smod<" + T + ">(" + a + ", " + b + ")";
    case BinaryOp::And: return "((" + T + ")" + op2("&") + ")";
    case BinaryOp::Or: return "((" + T + ")" + op2("|") + ")";
    case BinaryOp::Xor: return "((" + T + ")" + op2("^") + ")";
    case BinaryOp::Shl: return "ts_shl<" + T + ", " + U + ">(" + a + ", " + b + ", " + bits + ")";
    case BinaryOp::Shr:
      return (uns ? "ts_shr_u<" : "ts_shr_s<") + T + ", " + U + ">(" + a + ", " + b + ", " + bits + ")";
    case BinaryOp::Min: return "((" + a + ") < (" + b + ") ? (" + a + ") : (" + b + "))";
    case BinaryOp::Max: return "((" + a + ") > (" + b + ") ? (" + a + ") : (" + b + "))";
    default: break;
  }
  throw lang::InternalError("cuda codegen: integer " + std::string(ir::binaryOpName(n.op)));
}

std::string CudaEmitter::math(const ir::MathCall& n) {
  std::vector<std::string> a;
  for (const ir::Expr& x : n.args) a.push_back(expr(x));
  const DType t = n.args[0].type().dtype();
  if (!ir::isFloat(t)) {
    const std::string T = regType(t), U = unsignedType(t);
    if (n.fn == ir::MathFn::Abs)
      return ir::isUnsignedInt(t) ? a[0] : "((" + T + ")((" + a[0] + ") < 0 ? (" + U + ")0 - (" + U + ")(" + a[0] + ") : (" + U + ")(" + a[0] + ")))";
    if (n.fn == ir::MathFn::Umulhi)
      return ir::bitWidth(t) == 64 ? "((" + T + ")__umul64hi((ts_u64)(" + a[0] + "), (ts_u64)(" + a[1] + ")))"
                                   : "((" + T + ")__umulhi((ts_u32)(" + a[0] + "), (ts_u32)(" + a[1] + ")))";
    unsupported(n.range, "integer " + std::string(ir::mathFnName(n.fn)));
  }
  const bool dbl = t == DType::FP64;
  auto f = [&](const char* name) { return std::string(name) + (dbl ? "" : "f") + "(" + a[0] + ")"; };
  std::string r;
  switch (n.fn) {
    // As Triton lowers tl.exp on the GPU: 2^(x * log2(e)), the product rounded to fp32 and the power
    // by the hardware's exp2 (ex2.approx, 2 ulp): two instructions where expf takes eight. Within
    // 6e-6 of the simulator's exp relative (|x| <= 88: the product's rounding, scaled by |x|).
    case ir::MathFn::Exp: r = dbl ? f("exp") : "exp2f((" + a[0] + ") * __int_as_float(0x3fb8aa3b))"; break;
    case ir::MathFn::Exp2: r = f("exp2"); break;
    case ir::MathFn::Log: r = f("log"); break;
    case ir::MathFn::Log2: r = f("log2"); break;
    case ir::MathFn::Sqrt:
    case ir::MathFn::SqrtRn: r = f("sqrt"); break;
    case ir::MathFn::Rsqrt: r = f("rsqrt"); break;
    case ir::MathFn::Abs: r = f("fabs"); break;
    case ir::MathFn::Sin: r = f("sin"); break;
    case ir::MathFn::Cos: r = f("cos"); break;
    case ir::MathFn::Tanh: r = f("tanh"); break;
    case ir::MathFn::Sigmoid:
      r = dbl ? "(1.0 / (1.0 + exp(-(" + a[0] + "))))" : "(1.0f / (1.0f + expf(-(" + a[0] + "))))";
      break;
    case ir::MathFn::Floor: r = f("floor"); break;
    case ir::MathFn::Ceil: r = f("ceil"); break;
    case ir::MathFn::Erf: r = f("erf"); break;
    case ir::MathFn::Fma: r = std::string(dbl ? "fma(" : "fmaf(") + a[0] + ", " + a[1] + ", " + a[2] + ")"; break;
    case ir::MathFn::FDiv:
    case ir::MathFn::DivRn: r = "((" + a[0] + ") / (" + a[1] + "))"; break;
    case ir::MathFn::Umulhi: unsupported(n.range, "umulhi on floats");
    case ir::MathFn::Acos:
    case ir::MathFn::Acosh:
    case ir::MathFn::Asin:
    case ir::MathFn::Asinh:
    case ir::MathFn::Atan:
    case ir::MathFn::Atanh:
    case ir::MathFn::Cbrt:
    case ir::MathFn::Cosh:
    case ir::MathFn::Sinh:
    case ir::MathFn::Tan:
    case ir::MathFn::Erfc:
    case ir::MathFn::Exp10:
    case ir::MathFn::Expm1:
    case ir::MathFn::Log10:
    case ir::MathFn::Log1p:
    case ir::MathFn::Trunc:
    case ir::MathFn::Round:
    case ir::MathFn::Rint:
    case ir::MathFn::Nearbyint:
    case ir::MathFn::Lgamma:
    case ir::MathFn::Tgamma:
    case ir::MathFn::Logb:
    case ir::MathFn::Rcbrt:
    case ir::MathFn::Sinpi:
    case ir::MathFn::Cospi:
    case ir::MathFn::J0:
    case ir::MathFn::J1:
    case ir::MathFn::Y0:
    case ir::MathFn::Y1:
    case ir::MathFn::Normcdf:
      r = f(std::string(ir::mathFnName(n.fn)).c_str());  // CUDA's <math.h>: acosf / acos, ...
      break;
    case ir::MathFn::Atan2:
    case ir::MathFn::Pow:
    case ir::MathFn::Hypot:
    case ir::MathFn::Fmod:
    case ir::MathFn::Copysign:
    case ir::MathFn::Fdim:
    case ir::MathFn::Remainder:
    case ir::MathFn::Nextafter:
    case ir::MathFn::Rhypot:
      r = std::string(ir::mathFnName(n.fn)) + (dbl ? "(" : "f(") + a[0] + ", " + a[1] + ")";
      break;
  }
  return isNarrowFloat(t) ? roundTo(t, r) : r;
}

std::string CudaEmitter::random(const ir::Rand& n) {
  const std::string seed = "(ts_u64)(" + expr(n.seed) + ")";
  const std::string off = expr(n.offset);
  const bool wide = ir::bitWidth(n.offset.type().dtype()) > 32;
  const std::string rounds = std::to_string(n.nRounds);
  const std::string raw = wide ? "ts_philox64(" + seed + ", (ts_u64)(" + off + "), " + rounds + ")"
                               : "ts_philox32(" + seed + ", (ts_u32)(" + off + "), " + rounds + ")";
  switch (n.kind) {
    case ir::RandKind::Int: return "((" + regType(n.type.dtype()) + ")" + raw + ".v[0])";
    case ir::RandKind::Int4x: return "((" + regType(n.type.dtype()) + ")" + raw + ".v[" + std::to_string(n.component) + "])";
    case ir::RandKind::Uniform: return std::string(wide ? "ts_uniform64(" : "ts_uniform32(") + raw + ".v[0])";
    case ir::RandKind::Normal:
      return std::string(wide ? "ts_randn64(" : "ts_randn32(") + seed + ", " + (wide ? "(ts_u64)(" : "(ts_u32)(") + off + "), " +
             rounds + ")";
  }
  throw lang::InternalError("cuda codegen: rand kind");
}

}  // namespace tilescope::gpu
