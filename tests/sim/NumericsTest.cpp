#include "core/ir/Numerics.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace tilescope::sim {
namespace {

using ir::DType;
using ir::RoundingMode;

// GCC's _Float16 conversions (libgcc's __truncsfhf2/__truncdfhf2) are an independent, correctly
// rounded oracle for fp16.
uint16_t compilerHalf(double x) { return std::bit_cast<uint16_t>(static_cast<_Float16>(x)); }
uint16_t compilerHalfFromFloat(float x) { return std::bit_cast<uint16_t>(static_cast<_Float16>(x)); }

bool isHalfNaN(uint16_t b) { return (b & 0x7C00) == 0x7C00 && (b & 0x3FF) != 0; }

TEST(NumericsTest, HalfMatchesCompilerOnRandomFloats) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 2'000'000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    const uint16_t ours = doubleToHalfBits(static_cast<double>(f));
    const uint16_t ref = compilerHalfFromFloat(f);
    if (std::isnan(f)) {
      ASSERT_EQ(ours, 0x7FFF);
      continue;
    }
    ASSERT_EQ(ours, ref) << "float bits " << std::hex << std::bit_cast<uint32_t>(f);
  }
}

TEST(NumericsTest, HalfRoundsOnceFromDouble) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-30, 17);
  for (int i = 0; i < 500'000; ++i) {
    const double x = std::ldexp(mant(rng), ex(rng)) * (i % 2 ? -1 : 1);
    ASSERT_EQ(doubleToHalfBits(x), compilerHalf(x)) << x;
  }
  // A double just above an fp16 tie: rounding through fp32 would land on the tie and go to even.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToHalfBits(x), 0x3C01);
  EXPECT_EQ(std::bit_cast<uint16_t>(static_cast<_Float16>(static_cast<float>(x))), 0x3C00);
}

TEST(NumericsTest, HalfDecodesEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const double v = halfBitsToDouble(bits);
    if (isHalfNaN(bits)) {
      EXPECT_TRUE(std::isnan(v));
      continue;
    }
    EXPECT_EQ(v, static_cast<double>(std::bit_cast<_Float16>(bits))) << std::hex << b;
    EXPECT_EQ(doubleToHalfBits(v), bits) << std::hex << b;  // -0.0 keeps its sign too
  }
}

TEST(NumericsTest, HalfSpecialValues) {
  EXPECT_EQ(doubleToHalfBits(65504.0), 0x7BFF);
  EXPECT_EQ(doubleToHalfBits(65520.0), 0x7C00);  // the tie above max rounds to Inf
  EXPECT_EQ(doubleToHalfBits(65519.99), 0x7BFF);
  EXPECT_EQ(doubleToHalfBits(1e6, RoundingMode::RTZ), 0x7BFF);  // RTZ saturates
  EXPECT_EQ(doubleToHalfBits(-INFINITY), 0xFC00);
  EXPECT_EQ(doubleToHalfBits(NAN), 0x7FFF);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -25)), 0x0000);  // tie with zero -> even (zero)
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(doubleToHalfBits(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -10) * 0.99, RoundingMode::RTZ), 0x3C00);
}

// The classic round-to-nearest-even bit trick on fp32 bits, used here only as a reference.
uint16_t referenceBf16(float f) {
  const uint32_t b = std::bit_cast<uint32_t>(f);
  return static_cast<uint16_t>((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
}

TEST(NumericsTest, Bf16MatchesBitTrickOnRandomFloats) {
  std::mt19937 rng(77);
  for (int i = 0; i < 2'000'000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (std::isnan(f)) {
      ASSERT_EQ(doubleToBf16Bits(f), 0x7FFF);
      continue;
    }
    ASSERT_EQ(doubleToBf16Bits(static_cast<double>(f)), referenceBf16(f)) << std::hex << std::bit_cast<uint32_t>(f);
  }
}

TEST(NumericsTest, Bf16RoundsOnceAndKeepsNaN) {
  const double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);  // above the tie 1 + 2^-8
  EXPECT_EQ(doubleToBf16Bits(x), 0x3F81);
  EXPECT_EQ(referenceBf16(static_cast<float>(x)), 0x3F80);  // what double rounding would give
  EXPECT_TRUE(std::isnan(bf16BitsToDouble(doubleToBf16Bits(NAN))));
  EXPECT_TRUE(std::isnan(roundToDType(DType::BF16, -NAN)));
  EXPECT_EQ(doubleToBf16Bits(INFINITY), 0x7F80);
  EXPECT_EQ(doubleToBf16Bits(3.4e38), 0x7F80);  // above bf16's max (3.39e38) -> Inf
  EXPECT_EQ(doubleToBf16Bits(1.0000001, RoundingMode::RTZ), 0x3F80);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double v = bf16BitsToDouble(static_cast<uint16_t>(b));
    if (std::isnan(v)) continue;
    ASSERT_EQ(doubleToBf16Bits(v), b) << std::hex << b;
  }
}

// fp8 values computed from the format definition, independently of the encoder.
double e4m3Reference(uint8_t b) {
  const int s = b >> 7, e = (b >> 3) & 0xF, m = b & 7;
  if (e == 15 && m == 7) return NAN;
  const double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return s ? -v : v;
}
double e5m2Reference(uint8_t b) {
  const int s = b >> 7, e = (b >> 2) & 0x1F, m = b & 3;
  if (e == 31) return m ? NAN : (s ? -INFINITY : INFINITY);
  const double v = e == 0 ? std::ldexp(m, -16) : std::ldexp(4 + m, e - 17);
  return s ? -v : v;
}

TEST(NumericsTest, Fp8E4M3) {
  for (int b = 0; b < 256; ++b) {
    const double ref = e4m3Reference(static_cast<uint8_t>(b));
    const double v = fp8E4M3BitsToDouble(static_cast<uint8_t>(b));
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(v));
      continue;
    }
    EXPECT_EQ(v, ref) << b;
    EXPECT_EQ(doubleToFp8E4M3Bits(v), b) << b;
  }
  EXPECT_EQ(maxFinite(DType::FP8E4NV), 448.0);
  EXPECT_EQ(doubleToFp8E4M3Bits(448.0), 0x7E);
  EXPECT_EQ(doubleToFp8E4M3Bits(470.0), 0x7E);  // satfinite
  EXPECT_EQ(doubleToFp8E4M3Bits(1e9), 0x7E);
  EXPECT_EQ(doubleToFp8E4M3Bits(-INFINITY), 0xFE);
  EXPECT_EQ(doubleToFp8E4M3Bits(NAN), 0x7F);
  EXPECT_EQ(doubleToFp8E4M3Bits(1.0625), 0x38);  // tie between 1 and 1.125 -> even (1.0)
  EXPECT_EQ(doubleToFp8E4M3Bits(1.1875), 0x3A);  // tie between 1.125 and 1.25 -> even (1.25)
  EXPECT_EQ(doubleToFp8E4M3Bits(std::ldexp(1.0, -9)), 0x01);
  EXPECT_EQ(doubleToFp8E4M3Bits(std::ldexp(1.0, -10)), 0x00);
  EXPECT_EQ(doubleToFp8E4M3Bits(-0.5), 0xB0);
}

TEST(NumericsTest, Fp8E5M2) {
  for (int b = 0; b < 256; ++b) {
    const double ref = e5m2Reference(static_cast<uint8_t>(b));
    const double v = fp8E5M2BitsToDouble(static_cast<uint8_t>(b));
    if (std::isnan(ref)) {
      EXPECT_TRUE(std::isnan(v));
      continue;
    }
    EXPECT_EQ(v, ref) << b;
    if (std::isinf(ref)) continue;  // Inf saturates on the way back (satfinite)
    EXPECT_EQ(doubleToFp8E5M2Bits(v), b) << b;
  }
  EXPECT_EQ(maxFinite(DType::FP8E5), 57344.0);
  EXPECT_EQ(doubleToFp8E5M2Bits(INFINITY), 0x7B);
  EXPECT_EQ(doubleToFp8E5M2Bits(1e6), 0x7B);
  EXPECT_EQ(doubleToFp8E5M2Bits(NAN), 0x7F);
  EXPECT_EQ(doubleToFp8E5M2Bits(std::ldexp(1.0, -16)), 0x01);
  EXPECT_EQ(doubleToFp8E5M2Bits(1.125), 0x3C);  // tie between 1 and 1.25 -> even
  EXPECT_EQ(doubleToFp8E5M2Bits(1.375), 0x3E);  // tie between 1.25 and 1.5 -> even (1.5)
}

TEST(NumericsTest, Tf32RoundsToNearestTiesAway) {
  EXPECT_EQ(roundToTf32(1.0f + std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(roundToTf32(-(1.0f + std::ldexp(1.0f, -11))), -(1.0f + std::ldexp(1.0f, -10)));
  EXPECT_EQ(roundToTf32(1.0f + std::ldexp(1.0f, -12)), 1.0f);
  EXPECT_EQ(roundToTf32(1.0f + 3 * std::ldexp(1.0f, -12)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isinf(roundToTf32(INFINITY)));
  EXPECT_TRUE(std::isnan(roundToTf32(NAN)));
  // The result always has zero low 13 bits.
  std::mt19937 rng(5);
  for (int i = 0; i < 10000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()) & 0x7F7FFFFFu);
    EXPECT_EQ(std::bit_cast<uint32_t>(roundToTf32(f)) & 0x1FFF, 0u);
    if (!std::isnormal(f)) continue;  // subnormals have an absolute, not relative, quantum
    EXPECT_LE(std::fabs(roundToTf32(f) - f), std::fabs(f) * std::ldexp(1.0f, -11) * 1.0001f);
  }
}

TEST(NumericsTest, Fp32RoundingModes) {
  const double x = 1.0 + std::ldexp(1.0, -30);
  EXPECT_EQ(doubleToFloat(x), 1.0f);
  EXPECT_EQ(doubleToFloat(1.0 + std::ldexp(3.0, -25)), 1.0f + std::ldexp(1.0f, -23));
  EXPECT_EQ(doubleToFloat(1.0 + std::ldexp(3.0, -25), RoundingMode::RTZ), 1.0f);
  EXPECT_EQ(doubleToFloat(-1.0 - std::ldexp(3.0, -25), RoundingMode::RTZ), -1.0f);
  EXPECT_EQ(doubleToFloat(1e300, RoundingMode::RTZ), std::numeric_limits<float>::max());
  EXPECT_EQ(roundToDType(DType::FP32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundToDType(DType::FP64, 0.1), 0.1);
}

TEST(NumericsTest, WrapInt) {
  EXPECT_EQ(wrapInt(DType::I8, 128), -128);
  EXPECT_EQ(wrapInt(DType::U8, -1), 255);
  EXPECT_EQ(wrapInt(DType::I32, int64_t{1} << 31), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(wrapInt(DType::U32, -1), 0xFFFFFFFFll);
  EXPECT_EQ(wrapInt(DType::I1, 3), 1);
  EXPECT_EQ(wrapInt(DType::I1, 2), 0);
  EXPECT_EQ(wrapInt(DType::U64, -1), -1);
  EXPECT_EQ(asUnsigned(DType::U64, -1), ~uint64_t{0});
  EXPECT_EQ(asUnsigned(DType::I16, -1), 0xFFFFu);
}

TEST(NumericsTest, IntDivisionTruncatesTowardZeroLikeC) {
  struct Case {
    int64_t a, b, q, r;
  };
  for (const Case& c : {Case{7, 2, 3, 1}, Case{-7, 2, -3, -1}, Case{7, -2, -3, 1}, Case{-7, -2, 3, -1},
                        Case{6, 3, 2, 0}, Case{-6, 3, -2, 0}, Case{1, 5, 0, 1}, Case{-1, 5, 0, -1}}) {
    for (DType t : {DType::I8, DType::I32, DType::I64}) {
      EXPECT_EQ(intDiv(t, c.a, c.b), c.q) << c.a << " // " << c.b;
      EXPECT_EQ(intMod(t, c.a, c.b), c.r) << c.a << " % " << c.b;
      // C's identity holds: (a // b) * b + a % b == a
      EXPECT_EQ(intDiv(t, c.a, c.b) * c.b + intMod(t, c.a, c.b), c.a);
    }
  }
  EXPECT_EQ(intDiv(DType::I32, std::numeric_limits<int32_t>::min(), -1), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(intMod(DType::I32, std::numeric_limits<int32_t>::min(), -1), 0);
  EXPECT_EQ(intDiv(DType::I64, std::numeric_limits<int64_t>::min(), -1), std::numeric_limits<int64_t>::min());
  // Unsigned: 0xFFFFFFFF is 4294967295, not -1.
  EXPECT_EQ(intDiv(DType::U32, 0xFFFFFFFFll, 2), 0x7FFFFFFFll);
  EXPECT_EQ(intMod(DType::U32, 0xFFFFFFFFll, 10), 5);
  EXPECT_EQ(intDiv(DType::U64, -1, 2), std::numeric_limits<int64_t>::max());
  // Division by zero: defined as all ones / the dividend.
  EXPECT_EQ(intDiv(DType::I32, 5, 0), -1);
  EXPECT_EQ(intDiv(DType::U8, 5, 0), 255);
  EXPECT_EQ(intMod(DType::I32, 5, 0), 5);
}

TEST(NumericsTest, FloatToIntTruncatesAndSaturates) {
  EXPECT_EQ(floatToInt(DType::I32, 2.7), 2);
  EXPECT_EQ(floatToInt(DType::I32, -2.7), -2);
  EXPECT_EQ(floatToInt(DType::I32, NAN), 0);
  EXPECT_EQ(floatToInt(DType::I32, 1e10), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(floatToInt(DType::I32, -1e10), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(floatToInt(DType::U8, 300.0), 255);
  EXPECT_EQ(floatToInt(DType::U8, -1.0), 0);
  EXPECT_EQ(floatToInt(DType::U8, 199.99), 199);
  EXPECT_EQ(floatToInt(DType::I64, 1e30), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(floatToInt(DType::U64, 1e30), -1);  // UINT64_MAX's bit pattern
  EXPECT_EQ(floatToInt(DType::I1, 0.5), 1);
  EXPECT_EQ(floatToInt(DType::I1, 0.0), 0);
}

TEST(NumericsTest, IntToFloatRoundsOnce) {
  EXPECT_EQ(intToFloat(DType::U32, 0xFFFFFFFFll, DType::FP32), 4294967296.0);
  EXPECT_EQ(intToFloat(DType::I32, -1, DType::FP32), -1.0);
  EXPECT_EQ(intToFloat(DType::U8, 200, DType::FP16), 200.0);
  EXPECT_EQ(intToFloat(DType::I1, 1, DType::FP32), 1.0);
  EXPECT_EQ(intToFloat(DType::U64, -1, DType::FP64), 18446744073709551615.0);
  // 2^60 + 2^52 + 1 is just above a bf16 tie; via double it would be exactly on the tie.
  const int64_t v = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  EXPECT_EQ(intToFloat(DType::I64, v, DType::BF16), std::ldexp(1.0, 60) + std::ldexp(1.0, 53));
  EXPECT_EQ(intToFloat(DType::I64, -v, DType::BF16), -(std::ldexp(1.0, 60) + std::ldexp(1.0, 53)));
  EXPECT_EQ(intToFloat(DType::I64, 70000, DType::FP16), INFINITY);
  // i64 -> fp32 rounds once (the 2^24 + 1 case).
  EXPECT_EQ(intToFloat(DType::I64, (1 << 24) + 1, DType::FP32), 16777216.0);
}

TEST(NumericsTest, Umulhi) {
  EXPECT_EQ(umulhi(DType::U32, 0xFFFFFFFFll, 0xFFFFFFFFll), 0xFFFFFFFEll);
  EXPECT_EQ(umulhi(DType::I32, -1, -1), -2);  // bits 0xFFFFFFFE read as i32
  EXPECT_EQ(umulhi(DType::U64, -1, 2), 1);
}

TEST(NumericsTest, MathIsRoundedToTheDType) {
  EXPECT_EQ(mathUnary(ir::MathFn::Exp, DType::FP32, 1.0), static_cast<double>(static_cast<float>(std::exp(1.0))));
  EXPECT_EQ(mathUnary(ir::MathFn::Exp, DType::FP64, 1.0), std::exp(1.0));
  EXPECT_EQ(mathUnary(ir::MathFn::Sqrt, DType::FP32, 2.0), static_cast<double>(std::sqrt(2.0f)));
  EXPECT_EQ(mathUnary(ir::MathFn::Sigmoid, DType::FP32, 0.0), 0.5);
  EXPECT_EQ(mathBinary(ir::MathFn::DivRn, DType::FP32, 1.0, 3.0), static_cast<double>(1.0f / 3.0f));
  const float a = 1.0f + std::ldexp(1.0f, -12), b = 1.0f - std::ldexp(1.0f, -12);
  // fma keeps the tiny product term that a separate multiply would round away.
  EXPECT_EQ(mathFma(DType::FP32, a, b, -1.0), static_cast<double>(std::fmaf(a, b, -1.0f)));
  EXPECT_NE(mathFma(DType::FP32, a, b, -1.0), 0.0);
}

}  // namespace
}  // namespace tilescope::sim
