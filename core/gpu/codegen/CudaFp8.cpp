#include "core/gpu/codegen/CudaFp8.h"

#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

namespace {

// Encoding works on the exponent read from the source's bits and a multiply by a power of two
// (exact), so a float or a double source rounds once, in rint (nearest even) or trunc (toward zero).
constexpr std::string_view kFp8Prelude = R"CUDA(// ---- fp8 (core/gpu/codegen/CudaFp8.cpp) ----
TS_DEV float ts_f8e5_to_f(ts_u8 b) { return ts_h2f((ts_u16)((ts_u16)b << 8)); }  // e5m2 is fp16's top byte
TS_DEV float ts_f8e4_to_f(ts_u8 b) {
  const ts_u32 mag = b & 0x7Fu;
  float v;
  if (mag == 0x7Fu) v = __int_as_float(0x7FC00000);
  else if (mag < 8u) v = (float)mag * 0.001953125f;  // subnormal: mag * 2^-9
  else v = __uint_as_float(((mag >> 3) + 120u) << 23 | (mag & 7u) << 20);
  return (b & 0x80u) ? -v : v;
}
TS_DEV int ts_f8_exponent(float a) { return (int)((__float_as_uint(a) >> 23) & 0xFFu) - 127; }
TS_DEV int ts_f8_exponent(double a) { return (int)((__double_as_longlong(a) >> 52) & 0x7FF) - 1023; }
TS_DEV float ts_f8_pow2(float, int k) { return __uint_as_float((ts_u32)(127 + k) << 23); }
TS_DEV double ts_f8_pow2(double, int k) { return __longlong_as_double((long long)(1023 + k) << 52); }
template <class F> TS_DEV ts_u8 ts_f8_encode(F x, int mbits, int bias, ts_u32 maxBits, bool rtz) {
  if (x != x) return (ts_u8)0x7F;
  const ts_u32 sign = x < (F)0 || (x == (F)0 && signbit(x)) ? 0x80u : 0u;
  const F a = x < (F)0 ? -x : x;
  if (!(a < (F)1e9)) return (ts_u8)(sign | maxBits);  // Inf and far beyond the range
  const int e = ts_f8_exponent(a), emin = 1 - bias;
  const int k = mbits - (e < emin ? emin : e);
  const F scaled = a * ts_f8_pow2(a, k);
  const ts_u32 q = (ts_u32)(rtz ? trunc(scaled) : rint(scaled));
  // A carry out of the mantissa moves into the exponent by plain addition.
  const ts_u32 mag = e < emin ? q : ((ts_u32)(e + bias) << mbits) + (q - (1u << mbits));
  return (ts_u8)(sign | (mag > maxBits ? maxBits : mag));
}
template <class F> TS_DEV ts_u8 ts_f8e4_from(F x) { return ts_f8_encode(x, 3, 7, 0x7Eu, false); }
template <class F> TS_DEV ts_u8 ts_f8e5_from(F x) { return ts_f8_encode(x, 2, 15, 0x7Bu, false); }
template <class F> TS_DEV float ts_f8e4_round(F x) { return ts_f8e4_to_f(ts_f8_encode(x, 3, 7, 0x7Eu, false)); }
template <class F> TS_DEV float ts_f8e5_round(F x) { return ts_f8e5_to_f(ts_f8_encode(x, 2, 15, 0x7Bu, false)); }
template <class F> TS_DEV float ts_f8e4_round_rz(F x) { return ts_f8e4_to_f(ts_f8_encode(x, 3, 7, 0x7Eu, true)); }
template <class F> TS_DEV float ts_f8e5_round_rz(F x) { return ts_f8e5_to_f(ts_f8_encode(x, 2, 15, 0x7Bu, true)); }
)CUDA";

std::string suffix(ir::DType t) { return t == ir::DType::FP8E4NV ? "e4" : "e5"; }

}  // namespace

std::string_view cudaFp8Prelude() { return kFp8Prelude; }

bool usesFp8Helpers(std::string_view code) { return code.find("ts_f8") != std::string_view::npos; }

std::string fp8FromMemory(ir::DType t, const std::string& e) { return "ts_f8" + suffix(t) + "_to_f(" + e + ")"; }

std::string fp8ToMemory(ir::DType t, const std::string& e) { return "ts_f8" + suffix(t) + "_from(" + e + ")"; }

std::string fp8Round(ir::DType t, const std::string& e, bool rtz) {
  return "ts_f8" + suffix(t) + (rtz ? "_round_rz(" : "_round(") + e + ")";
}

std::string fp8Cast(ir::DType from, ir::DType to, bool bitcast, bool rtz, const std::string& x) {
  const bool fromFp8 = ir::isFp8(from), toFp8 = ir::isFp8(to);
  if (bitcast) {
    if (from == to) return x;
    if (fromFp8 && toFp8) return fp8FromMemory(to, fp8ToMemory(from, x));
    if (fromFp8) return "((" + regType(to) + ")" + fp8ToMemory(from, x) + ")";
    return fp8FromMemory(to, "((ts_u8)(" + x + "))");
  }
  if (!toFp8) {
    // fp8 values are exact in every wider float format.
    return to == ir::DType::FP64 ? "((double)(" + x + "))" : x;
  }
  if (from == to && !rtz) return x;
  // From a float register (fp32, fp16, bf16, the other fp8) or a double: rounded once.
  const std::string source = ir::isFloat(from) ? x : "((double)(" + x + "))";
  return fp8Round(to, source, rtz);
}

}  // namespace tilescope::gpu
