#pragma once
// Scalar numerics of the simulator (in ir so that the GPU runtime shares them; namespace sim::), bit-exact where NVIDIA GPUs are exact:
//  * float conversions to fp16, bf16, fp8e4nv (e4m3fn) and fp8e5 (e5m2), round to nearest even (or
//    toward zero), rounding *once* from a double (no double rounding through fp32);
//  * NaN/Inf as the GPU's cvt instructions produce them (see each function);
//  * tf32 rounding, integer wrap-around, C-style integer division and remainder, and the float
//    math functions with the tolerance we promise against the GPU.
//
// Simulator tiles keep every float in a double and every integer (and pointer) in an int64; these
// helpers move values between that wide representation and the declared dtype.
#include <cstdint>

#include "core/ir/DType.h"
#include "core/ir/Ops.h"

namespace tilescope::sim {

// --- float formats -----------------------------------------------------------------------------

// fp16 (IEEE binary16). Overflow gives +-Inf (RTNE) or +-65504 (RTZ); NaN gives the canonical
// 0x7FFF like cvt.rn.f16.f32; subnormals are kept (no flush to zero).
uint16_t doubleToHalfBits(double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);
double halfBitsToDouble(uint16_t bits);

// bfloat16 (fp32's exponent, 7 mantissa bits). NaN gives 0x7FFF like cvt.rn.bf16.f32.
uint16_t doubleToBf16Bits(double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);
double bf16BitsToDouble(uint16_t bits);

// fp8 e4m3fn ("fp8e4nv"): bias 7, no infinities, NaN = S.1111.111, max finite 448.
// fp8 e5m2 ("fp8e5"): bias 15, IEEE-like with infinities, max finite 57344.
// Both saturate like Triton's lowering on sm_90+ (cvt.rn.satfinite.{e4m3,e5m2}x2.f32): values beyond
// the largest finite value, infinities included, become +-max finite; NaN becomes 0x7F (sign kept).
uint8_t doubleToFp8E4M3Bits(double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);
double fp8E4M3BitsToDouble(uint8_t bits);
uint8_t doubleToFp8E5M2Bits(double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);
double fp8E5M2BitsToDouble(uint8_t bits);
// The same formats as PyTorch's c10::Float8_e4m3fn and c10::Float8_e5m2 store them (host tensors'
// .to()): from a float, round to nearest even, subnormals kept; NaN gives 0x7F with its sign; e4m3fn
// has no Inf, so overflow (anything that rounds past 448) and +-Inf give NaN; e5m2 overflows to +-Inf.
// Decoding is the same as above (fp8E4M3BitsToDouble, fp8E5M2BitsToDouble). t is FP8E4NV or FP8E5.
uint8_t floatToTorchFp8Bits(ir::DType t, float x);

// fp32 from a double, rounded once. RTZ overflow gives +-FLT_MAX like cvt.rz.f32.f64.
float doubleToFloat(double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);

// tf32 (fp32 with 10 explicit mantissa bits), kept in a float. Rounds to nearest with ties away
// from zero, like cvt.rna.tf32.f32 which Triton uses for tf32 dot operands where it converts
// explicitly. (Tensor cores fed unconverted fp32 ignore the low 13 bits instead; both stay within
// tf32's 2^-11 relative rounding error, which is the tolerance tests against the GPU must allow.)
// Inf and NaN pass through.
float roundToTf32(float x);

// The value of a double rounded to a float dtype and widened back: identity for fp64.
// `mode` None means RTNE. Used after every float op on a tile of that dtype.
double roundToDType(ir::DType t, double x, ir::RoundingMode mode = ir::RoundingMode::RTNE);

// Bits of a float dtype's value as stored in memory (little-endian element of bitWidth(t) bits),
// and back. The encode side rounds like roundToDType.
uint64_t floatToBits(ir::DType t, double x);
double bitsToFloat(ir::DType t, uint64_t bits);

// Largest finite value of a float dtype.
double maxFinite(ir::DType t);

// --- integers ------------------------------------------------------------------------------------

// Two's-complement wrap of v to t's width: sign-extended for signed dtypes, zero-extended for
// unsigned ones (u64 keeps its bit pattern in the int64), bit 0 for i1.
int64_t wrapInt(ir::DType t, int64_t v);
// The element as an unsigned 64-bit pattern of t's width (for unsigned arithmetic).
inline uint64_t asUnsigned(ir::DType t, int64_t v) {
  const int bits = ir::bitWidth(t);
  return bits >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

// C semantics, like Triton's `//` and `%` on integer tensors (sdiv/srem, udiv/urem): the quotient
// truncates toward zero and the remainder has the dividend's sign: -7 // 2 == -3, -7 % 2 == -1,
// 7 // -2 == -3, 7 % -2 == 1. MIN // -1 wraps to MIN (remainder 0). Division by zero is undefined
// on the GPU; we define x // 0 = -1 (all bits set) and x % 0 = x (RISC-V's convention, which
// matches what NVIDIA's division sequences return) and the simulator warns.
int64_t intDiv(ir::DType t, int64_t a, int64_t b);
int64_t intMod(ir::DType t, int64_t a, int64_t b);

// Float -> integer conversion (fptosi/fptoui): rounds toward zero; NaN gives 0; out-of-range
// values saturate to the dtype's range (the GPU's cvt.rzi saturates too). i1 is x != 0.
int64_t floatToInt(ir::DType t, double x);
// Integer (of dtype `from`, unsigned dtypes read as unsigned) -> float dtype `to`, rounded once.
double intToFloat(ir::DType from, int64_t v, ir::DType to);

// High half of the 2N-bit unsigned product of two N-bit integers (N = t's width, 32 or 64),
// wrapped back into t (tl.umulhi / libdevice __nv_umulhi).
int64_t umulhi(ir::DType t, int64_t a, int64_t b);

// --- float math ----------------------------------------------------------------------------------

// One math function on one float value of dtype t (fp32 or fp64; fp16/bf16 are computed the same
// way and rounded). We compute in double and round once to t, which is at least as accurate as the
// GPU. Tolerance of GPU results against this, in fp32:
//   exp/exp2: Triton uses ex2.approx.f32 (2 ulp), exp multiplies by log2(e) first, so expect
//             2 ulp + |x| * 2^-24 relative; log/log2: lg2.approx (<= 2^-22 relative);
//   sin/cos: sin.approx/cos.approx in fast mode, about 2^-20.5 absolute on [-pi, pi];
//   sqrt (fast): sqrt.approx within 1 ulp; sqrt_rn, div_rn, fma: exact (0 ulp);
//   rsqrt, tanh, sigmoid, erf: <= 2 ulp (libdevice).
// Tests comparing GPU and simulator use rtol 1e-5 for these in fp32, 0 for exact ops.
double mathUnary(ir::MathFn fn, ir::DType t, double x);
// fdiv / div_rn; fma for fp32 is a true single-rounding fused multiply-add (fmaf).
double mathBinary(ir::MathFn fn, ir::DType t, double a, double b);
double mathFma(ir::DType t, double a, double b, double c);

}  // namespace tilescope::sim
