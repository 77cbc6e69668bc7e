#include "core/ir/Numerics.h"

#include <bit>
#include <cmath>
#include <limits>

#include "core/base/Diagnostic.h"

namespace tilescope::sim {

namespace {

// A binary floating-point format narrower than double. Every format we round to is one of these.
struct FloatFormat {
  int ebits;
  int mbits;
  bool hasInf;     // IEEE-style: the all-ones exponent holds Inf and NaN
  bool satfinite;  // overflow and Inf give +-max finite (the fp8 cvt instructions)
  uint32_t nanBits;
  // PyTorch's c10 conversions: NaN keeps its sign, and a format without Inf turns overflow and Inf
  // into NaN (c10::Float8_e4m3fn) instead of saturating.
  bool torchSpecials;

  int bias() const { return (1 << (ebits - 1)) - 1; }
  uint32_t signBit() const { return uint32_t{1} << (ebits + mbits); }
  // Largest finite magnitude, as bits without the sign.
  uint32_t maxFiniteBits() const {
    if (hasInf) return ((uint32_t{1} << ebits) - 2) << mbits | ((uint32_t{1} << mbits) - 1);
    // e4m3fn: all-ones exponent is finite except the all-ones mantissa, which is NaN.
    return ((uint32_t{1} << ebits) - 1) << mbits | ((uint32_t{1} << mbits) - 2);
  }
  uint32_t infBits() const { return ((uint32_t{1} << ebits) - 1) << mbits; }
};

constexpr FloatFormat kHalf{5, 10, true, false, 0x7FFF, false};
constexpr FloatFormat kBf16{8, 7, true, false, 0x7FFF, false};
constexpr FloatFormat kFp32{8, 23, true, false, 0x7FFFFFFF, false};
constexpr FloatFormat kE4M3{4, 3, false, true, 0x7F, false};
constexpr FloatFormat kE5M2{5, 2, true, true, 0x7F, false};
constexpr FloatFormat kTorchE4M3{4, 3, false, false, 0x7F, true};
constexpr FloatFormat kTorchE5M2{5, 2, true, false, 0x7F, true};

// Rounds x once to the format. Works on the double's bits so that no intermediate rounding happens.
uint32_t encode(double x, const FloatFormat& f, ir::RoundingMode mode) {
  const uint64_t b = std::bit_cast<uint64_t>(x);
  const uint32_t sign = (b >> 63) ? f.signBit() : 0;
  const int exp = static_cast<int>((b >> 52) & 0x7FF);
  const uint64_t mant = b & ((uint64_t{1} << 52) - 1);
  const bool rtz = mode == ir::RoundingMode::RTZ;

  const bool overflowIsNaN = f.torchSpecials && !f.hasInf;
  if (exp == 0x7FF) {
    if (mant != 0) return f.torchSpecials ? sign | f.nanBits : f.nanBits;
    if (overflowIsNaN) return sign | f.nanBits;
    if (f.satfinite || !f.hasInf) return sign | f.maxFiniteBits();
    return sign | f.infBits();
  }
  // Zero, and double subnormals (< 2^-1022), are far below half the smallest subnormal of every
  // target format, so they round to (signed) zero in both modes.
  if (exp == 0) return sign;

  const int e = exp - 1023;
  const uint64_t sig = mant | (uint64_t{1} << 52);
  const int emin = 1 - f.bias();
  int shift = 52 - f.mbits;
  uint64_t expField = 0;
  if (e >= emin) {
    expField = static_cast<uint64_t>(e + f.bias());
  } else {
    shift += emin - e;
  }
  uint64_t q = 0;
  if (shift < 64) {
    q = sig >> shift;
    if (!rtz) {
      const uint64_t rem = sig & ((uint64_t{1} << shift) - 1);
      const uint64_t half = uint64_t{1} << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  // A carry out of the mantissa moves into the exponent by plain addition.
  uint64_t mag = expField == 0 ? q : (expField << f.mbits) + (q - (uint64_t{1} << f.mbits));
  const uint64_t maxFinite = f.maxFiniteBits();
  if (mag > maxFinite) {
    if (overflowIsNaN) return sign | f.nanBits;
    if (rtz || f.satfinite || !f.hasInf) return sign | static_cast<uint32_t>(maxFinite);
    return sign | f.infBits();
  }
  return sign | static_cast<uint32_t>(mag);
}

double decode(uint32_t bits, const FloatFormat& f) {
  const bool neg = (bits & f.signBit()) != 0;
  const uint32_t expField = (bits >> f.mbits) & ((uint32_t{1} << f.ebits) - 1);
  const uint32_t mant = bits & ((uint32_t{1} << f.mbits) - 1);
  const uint32_t expMax = (uint32_t{1} << f.ebits) - 1;
  double v = 0;
  if (f.hasInf && expField == expMax) {
    v = mant == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (!f.hasInf && expField == expMax && mant == (uint32_t{1} << f.mbits) - 1) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (expField == 0) {
    v = std::ldexp(static_cast<double>(mant), 1 - f.bias() - f.mbits);
  } else {
    // Build the double directly: exact, and much cheaper than ldexp on the hot load path.
    const uint64_t e = static_cast<uint64_t>(static_cast<int>(expField) - f.bias() + 1023);
    v = std::bit_cast<double>(e << 52 | static_cast<uint64_t>(mant) << (52 - f.mbits));
  }
  return neg ? -v : v;
}

ir::RoundingMode normalize(ir::RoundingMode m) { return m == ir::RoundingMode::RTZ ? m : ir::RoundingMode::RTNE; }

}  // namespace

uint16_t doubleToHalfBits(double x, ir::RoundingMode mode) {
  return static_cast<uint16_t>(encode(x, kHalf, normalize(mode)));
}
double halfBitsToDouble(uint16_t bits) { return decode(bits, kHalf); }

uint16_t doubleToBf16Bits(double x, ir::RoundingMode mode) {
  return static_cast<uint16_t>(encode(x, kBf16, normalize(mode)));
}
double bf16BitsToDouble(uint16_t bits) {
  // bf16 is the top half of an fp32.
  return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits) << 16));
}

uint8_t doubleToFp8E4M3Bits(double x, ir::RoundingMode mode) {
  return static_cast<uint8_t>(encode(x, kE4M3, normalize(mode)));
}
double fp8E4M3BitsToDouble(uint8_t bits) { return decode(bits, kE4M3); }
uint8_t doubleToFp8E5M2Bits(double x, ir::RoundingMode mode) {
  return static_cast<uint8_t>(encode(x, kE5M2, normalize(mode)));
}
double fp8E5M2BitsToDouble(uint8_t bits) { return decode(bits, kE5M2); }

uint8_t floatToTorchFp8Bits(ir::DType t, float x) {
  switch (t) {
    case ir::DType::FP8E4NV: return static_cast<uint8_t>(encode(x, kTorchE4M3, ir::RoundingMode::RTNE));
    case ir::DType::FP8E5: return static_cast<uint8_t>(encode(x, kTorchE5M2, ir::RoundingMode::RTNE));
    default: throw lang::InternalError("floatToTorchFp8Bits: not an fp8 dtype");
  }
}

float doubleToFloat(double x, ir::RoundingMode mode) {
  if (normalize(mode) == ir::RoundingMode::RTNE) return static_cast<float>(x);
  return std::bit_cast<float>(encode(x, kFp32, ir::RoundingMode::RTZ));
}

float roundToTf32(float x) {
  if (!std::isfinite(x)) return x;
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x1000;  // half of the 13 dropped bits: ties go away from zero (sign-magnitude)
  bits &= ~uint32_t{0x1FFF};
  return std::bit_cast<float>(bits);
}

double roundToDType(ir::DType t, double x, ir::RoundingMode mode) {
  mode = normalize(mode);
  switch (t) {
    case ir::DType::FP64: return x;
    case ir::DType::FP32:
      if (mode == ir::RoundingMode::RTNE) return static_cast<double>(static_cast<float>(x));
      return static_cast<double>(doubleToFloat(x, mode));
    case ir::DType::FP16: return decode(encode(x, kHalf, mode), kHalf);
    case ir::DType::BF16: return bf16BitsToDouble(static_cast<uint16_t>(encode(x, kBf16, mode)));
    case ir::DType::FP8E4NV: return decode(encode(x, kE4M3, mode), kE4M3);
    case ir::DType::FP8E5: return decode(encode(x, kE5M2, mode), kE5M2);
    default: throw lang::InternalError("roundToDType: not a float dtype");
  }
}

uint64_t floatToBits(ir::DType t, double x) {
  switch (t) {
    case ir::DType::FP64: return std::bit_cast<uint64_t>(x);
    case ir::DType::FP32: return std::bit_cast<uint32_t>(static_cast<float>(x));
    case ir::DType::FP16: return encode(x, kHalf, ir::RoundingMode::RTNE);
    case ir::DType::BF16: return encode(x, kBf16, ir::RoundingMode::RTNE);
    case ir::DType::FP8E4NV: return encode(x, kE4M3, ir::RoundingMode::RTNE);
    case ir::DType::FP8E5: return encode(x, kE5M2, ir::RoundingMode::RTNE);
    default: throw lang::InternalError("floatToBits: not a float dtype");
  }
}

double bitsToFloat(ir::DType t, uint64_t bits) {
  switch (t) {
    case ir::DType::FP64: return std::bit_cast<double>(bits);
    case ir::DType::FP32: return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case ir::DType::FP16: return decode(static_cast<uint32_t>(bits & 0xFFFF), kHalf);
    case ir::DType::BF16: return bf16BitsToDouble(static_cast<uint16_t>(bits));
    case ir::DType::FP8E4NV: return decode(static_cast<uint32_t>(bits & 0xFF), kE4M3);
    case ir::DType::FP8E5: return decode(static_cast<uint32_t>(bits & 0xFF), kE5M2);
    default: throw lang::InternalError("bitsToFloat: not a float dtype");
  }
}

double maxFinite(ir::DType t) {
  switch (t) {
    case ir::DType::FP64: return std::numeric_limits<double>::max();
    case ir::DType::FP32: return std::numeric_limits<float>::max();
    case ir::DType::FP16: return decode(kHalf.maxFiniteBits(), kHalf);
    case ir::DType::BF16: return decode(kBf16.maxFiniteBits(), kBf16);
    case ir::DType::FP8E4NV: return decode(kE4M3.maxFiniteBits(), kE4M3);
    case ir::DType::FP8E5: return decode(kE5M2.maxFiniteBits(), kE5M2);
    default: throw lang::InternalError("maxFinite: not a float dtype");
  }
}

// --- integers ------------------------------------------------------------------------------------

int64_t wrapInt(ir::DType t, int64_t v) {
  switch (t) {
    case ir::DType::I1: return v & 1;
    case ir::DType::I8: return static_cast<int8_t>(v);
    case ir::DType::I16: return static_cast<int16_t>(v);
    case ir::DType::I32: return static_cast<int32_t>(v);
    case ir::DType::U8: return static_cast<uint8_t>(v);
    case ir::DType::U16: return static_cast<uint16_t>(v);
    case ir::DType::U32: return static_cast<uint32_t>(v);
    default: return v;  // i64, u64 (bit pattern)
  }
}

int64_t intDiv(ir::DType t, int64_t a, int64_t b) {
  if (ir::isUnsignedInt(t)) {
    const uint64_t ua = asUnsigned(t, a);
    const uint64_t ub = asUnsigned(t, b);
    if (ub == 0) return wrapInt(t, -1);
    return wrapInt(t, static_cast<int64_t>(ua / ub));
  }
  if (b == 0) return -1;
  if (b == -1) return wrapInt(t, static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(a)));
  return a / b;  // C++ truncates toward zero, as C does
}

int64_t intMod(ir::DType t, int64_t a, int64_t b) {
  if (ir::isUnsignedInt(t)) {
    const uint64_t ua = asUnsigned(t, a);
    const uint64_t ub = asUnsigned(t, b);
    if (ub == 0) return a;
    return wrapInt(t, static_cast<int64_t>(ua % ub));
  }
  if (b == 0) return a;
  if (b == -1) return 0;
  return a % b;  // sign of the dividend
}

int64_t floatToInt(ir::DType t, double x) {
  if (t == ir::DType::I1) return x != 0 || std::isnan(x) ? 1 : 0;
  if (std::isnan(x)) return 0;
  x = std::trunc(x);
  if (ir::isUnsignedInt(t)) {
    const double hi = static_cast<double>(ir::intMaxU(t));
    if (x <= 0) return 0;
    if (x >= hi) return static_cast<int64_t>(ir::intMaxU(t));  // u64 max reads as -1 in the int64
    return static_cast<int64_t>(static_cast<uint64_t>(x));
  }
  const double lo = static_cast<double>(ir::intMin(t));
  const double hi = static_cast<double>(ir::intMaxU(t));  // 2^63 for i64: not representable, so >=
  if (x <= lo) return ir::intMin(t);
  if (x >= hi) return static_cast<int64_t>(ir::intMaxU(t));
  return static_cast<int64_t>(x);
}

namespace {

// |v| as a double that rounds to any format of <= 51 mantissa bits exactly as v itself would:
// exact below 2^53, else round-to-odd (the dropped bits are folded into a sticky last bit).
double toOddDouble(uint64_t u) {
  if (u < (uint64_t{1} << 53)) return static_cast<double>(u);
  const int drop = 64 - std::countl_zero(u) - 53;
  const uint64_t kept = (u >> drop) | ((u & ((uint64_t{1} << drop) - 1)) != 0 ? 1 : 0);
  return std::ldexp(static_cast<double>(kept), drop);
}

}  // namespace

double intToFloat(ir::DType from, int64_t v, ir::DType to) {
  const bool isUnsigned = ir::isUnsignedInt(from);
  const uint64_t u = isUnsigned ? asUnsigned(from, v) : 0;
  if (to == ir::DType::FP64) return isUnsigned ? static_cast<double>(u) : static_cast<double>(v);
  if (to == ir::DType::FP32) {
    // The hardware conversion rounds once.
    return isUnsigned ? static_cast<double>(static_cast<float>(u)) : static_cast<double>(static_cast<float>(v));
  }
  double d = 0;
  if (isUnsigned) {
    d = toOddDouble(u);
  } else if (v < 0) {
    d = -toOddDouble(uint64_t{0} - static_cast<uint64_t>(v));
  } else {
    d = toOddDouble(static_cast<uint64_t>(v));
  }
  return roundToDType(to, d);
}

int64_t umulhi(ir::DType t, int64_t a, int64_t b) {
  if (ir::bitWidth(t) <= 32) {
    const uint64_t p = (asUnsigned(ir::DType::U32, a)) * (asUnsigned(ir::DType::U32, b));
    return wrapInt(t, static_cast<int64_t>(p >> 32));
  }
  const unsigned __int128 p =
      static_cast<unsigned __int128>(static_cast<uint64_t>(a)) * static_cast<uint64_t>(b);
  return static_cast<int64_t>(static_cast<uint64_t>(p >> 64));
}

// --- float math ----------------------------------------------------------------------------------

namespace {

// lgamma without the global signgam that std::lgamma writes (programs run on several threads).
double lgammaOf(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// sin(pi * x) and cos(pi * x) with x reduced modulo 2 exactly first, so that integers and halves
// give exact zeros and ones (as CUDA's sinpi and cospi do).
double sinPi(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = std::remainder(x, 2.0);  // [-1, 1], exact
  if (r == 0.0 || std::fabs(r) == 1.0) return std::copysign(0.0, x);
  if (std::fabs(r) > 0.5) r = std::copysign(1.0, r) - r;  // sin(pi (1 - r)) = sin(pi r)
  return std::sin(M_PI * r);
}

double cosPi(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  const double a = std::fabs(std::remainder(x, 2.0));  // [0, 1], exact
  if (a == 0.5) return 0.0;
  return a < 0.5 ? std::sin(M_PI * (0.5 - a)) : -std::sin(M_PI * (a - 0.5));
}

// The next value of t's own precision after a towards b (nextafterf for fp32).
double nextAfter(ir::DType t, double a, double b) {
  if (t == ir::DType::FP32) return static_cast<double>(std::nextafter(static_cast<float>(a), static_cast<float>(b)));
  return std::nextafter(a, b);
}

}  // namespace

double mathUnary(ir::MathFn fn, ir::DType t, double x) {
  double r = 0;
  switch (fn) {
    case ir::MathFn::Exp: r = std::exp(x); break;
    case ir::MathFn::Exp2: r = std::exp2(x); break;
    case ir::MathFn::Log: r = std::log(x); break;
    case ir::MathFn::Log2: r = std::log2(x); break;
    case ir::MathFn::Sqrt:
    case ir::MathFn::SqrtRn: r = std::sqrt(x); break;
    case ir::MathFn::Rsqrt: r = 1.0 / std::sqrt(x); break;
    case ir::MathFn::Abs: r = std::fabs(x); break;
    case ir::MathFn::Sin: r = std::sin(x); break;
    case ir::MathFn::Cos: r = std::cos(x); break;
    case ir::MathFn::Tanh: r = std::tanh(x); break;
    case ir::MathFn::Sigmoid: r = 1.0 / (1.0 + std::exp(-x)); break;
    case ir::MathFn::Floor: r = std::floor(x); break;
    case ir::MathFn::Ceil: r = std::ceil(x); break;
    case ir::MathFn::Erf: r = std::erf(x); break;
    case ir::MathFn::Acos: r = std::acos(x); break;
    case ir::MathFn::Acosh: r = std::acosh(x); break;
    case ir::MathFn::Asin: r = std::asin(x); break;
    case ir::MathFn::Asinh: r = std::asinh(x); break;
    case ir::MathFn::Atan: r = std::atan(x); break;
    case ir::MathFn::Atanh: r = std::atanh(x); break;
    case ir::MathFn::Cbrt: r = std::cbrt(x); break;
    case ir::MathFn::Cosh: r = std::cosh(x); break;
    case ir::MathFn::Sinh: r = std::sinh(x); break;
    case ir::MathFn::Tan: r = std::tan(x); break;
    case ir::MathFn::Erfc: r = std::erfc(x); break;
    case ir::MathFn::Exp10: r = std::pow(10.0, x); break;
    case ir::MathFn::Expm1: r = std::expm1(x); break;
    case ir::MathFn::Log10: r = std::log10(x); break;
    case ir::MathFn::Log1p: r = std::log1p(x); break;
    case ir::MathFn::Trunc: r = std::trunc(x); break;
    case ir::MathFn::Round: r = std::round(x); break;
    case ir::MathFn::Rint: r = std::nearbyint(x); break;
    case ir::MathFn::Nearbyint: r = std::nearbyint(x); break;
    case ir::MathFn::Lgamma: r = lgammaOf(x); break;
    case ir::MathFn::Tgamma: r = std::tgamma(x); break;
    case ir::MathFn::Logb: r = std::logb(x); break;
    case ir::MathFn::Rcbrt: r = 1.0 / std::cbrt(x); break;
    case ir::MathFn::Sinpi: r = sinPi(x); break;
    case ir::MathFn::Cospi: r = cosPi(x); break;
    case ir::MathFn::J0: r = ::j0(x); break;
    case ir::MathFn::J1: r = ::j1(x); break;
    case ir::MathFn::Y0: r = ::y0(x); break;
    case ir::MathFn::Y1: r = ::y1(x); break;
    case ir::MathFn::Normcdf: r = 0.5 * std::erfc(-x / std::sqrt(2.0)); break;
    default: throw lang::InternalError("mathUnary: not a one-argument float function");
  }
  return roundToDType(t, r);
}

double mathBinary(ir::MathFn fn, ir::DType t, double a, double b) {
  switch (fn) {
    case ir::MathFn::FDiv:
    case ir::MathFn::DivRn: return roundToDType(t, a / b);  // exact in double, so rounded once
    case ir::MathFn::Atan2: return roundToDType(t, std::atan2(a, b));
    case ir::MathFn::Pow: return roundToDType(t, std::pow(a, b));
    case ir::MathFn::Hypot: return roundToDType(t, std::hypot(a, b));
    case ir::MathFn::Fmod: return roundToDType(t, std::fmod(a, b));
    case ir::MathFn::Copysign: return roundToDType(t, std::copysign(a, b));
    case ir::MathFn::Fdim: return roundToDType(t, std::fdim(a, b));
    case ir::MathFn::Remainder: return roundToDType(t, std::remainder(a, b));
    case ir::MathFn::Nextafter: return roundToDType(t, nextAfter(t, a, b));
    case ir::MathFn::Rhypot: return roundToDType(t, 1.0 / std::hypot(a, b));
    default: throw lang::InternalError("mathBinary: not a two-argument float function");
  }
}

double mathFma(ir::DType t, double a, double b, double c) {
  if (t == ir::DType::FP32)
    return static_cast<double>(std::fmaf(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)));
  if (t == ir::DType::FP64) return std::fma(a, b, c);
  // fp16/bf16: the product is exact in double; the sum is rounded twice (to double, then to t),
  // which can differ from a true fused op in the last bit only for halfway cases.
  return roundToDType(t, std::fma(a, b, c));
}

}  // namespace tilescope::sim
