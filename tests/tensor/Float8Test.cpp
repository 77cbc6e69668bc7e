// fp8 host tensors (torch.float8_e4m3fn, torch.float8_e5m2): conversions with PyTorch's semantics
// (c10::Float8_e4m3fn / c10::Float8_e5m2), checked against values derived from the formats'
// definitions (e4m3fn: bias 7, 3 mantissa bits, no Inf, S.1111.111 is NaN; e5m2: bias 15, 2 mantissa
// bits, IEEE Inf/NaN), and what fp8 tensors may and may not do.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/tensor/Float8.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TypePromotion.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::floats;
using test::toDoubles;

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::nanf("");

// The format's definition, written out independently of the code under test.
struct Fp8Format {
  int ebits, mbits;
  bool ieeeSpecials;  // e5m2: exponent all ones is Inf (mantissa 0) or NaN; e4m3fn: only S.1111.111 is NaN
  int bias() const { return (1 << (ebits - 1)) - 1; }
};
constexpr Fp8Format kE4M3Fn{4, 3, false};
constexpr Fp8Format kE5M2{5, 2, true};

double definedValue(const Fp8Format& f, uint8_t bits) {
  const int sign = bits >> 7;
  const int e = (bits >> f.mbits) & ((1 << f.ebits) - 1);
  const int m = bits & ((1 << f.mbits) - 1);
  const int emax = (1 << f.ebits) - 1;
  double v;
  if (f.ieeeSpecials && e == emax) v = m == 0 ? INFINITY : NAN;
  else if (!f.ieeeSpecials && e == emax && m == (1 << f.mbits) - 1) v = NAN;
  else if (e == 0) v = std::ldexp(m, 1 - f.bias() - f.mbits);
  else v = std::ldexp(1.0 + std::ldexp(m, -f.mbits), e - f.bias());
  return sign ? -v : v;
}

template <class F8>
uint8_t toBits(float x) {
  return F8::fromFloat(x).bits;
}

struct Case {
  float in;
  uint8_t bits;
  const char* why;
};

TEST(Float8E4M3Fn, DecodesEveryBitPatternAsTheFormatDefinesIt) {
  for (int b = 0; b < 256; ++b) {
    const double want = definedValue(kE4M3Fn, static_cast<uint8_t>(b));
    const float got = Float8E4M3Fn::fromBits(static_cast<uint8_t>(b)).toFloat();
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << b;
    else EXPECT_EQ(got, want) << b;
  }
  EXPECT_TRUE(std::isnan(Float8E4M3Fn::fromBits(0x7f).toFloat()));
  EXPECT_EQ(Float8E4M3Fn::fromBits(0x7e).toFloat(), 448.0f);
}

TEST(Float8E5M2, DecodesEveryBitPatternAsTheFormatDefinesIt) {
  for (int b = 0; b < 256; ++b) {
    const double want = definedValue(kE5M2, static_cast<uint8_t>(b));
    const float got = Float8E5M2::fromBits(static_cast<uint8_t>(b)).toFloat();
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << b;
    else EXPECT_EQ(got, want) << b;
  }
  EXPECT_EQ(Float8E5M2::fromBits(0x7b).toFloat(), 57344.0f);
  EXPECT_EQ(Float8E5M2::fromBits(0xfc).toFloat(), -kInf);
}

TEST(Float8E4M3Fn, RoundsToNearestEvenAndOverflowsToNaN) {
  const Case cases[] = {
      {1.0f, 0x38, "1 = 2^0: exponent field 7"},
      {-2.0f, 0xc0, "sign and exponent field 8"},
      {0.0f, 0x00, "zero"},
      {-0.0f, 0x80, "negative zero keeps its sign"},
      {1.0625f, 0x38, "1 + 2^-4 is halfway between 1 and 1.125: ties to the even mantissa 000"},
      {1.1875f, 0x3a, "1 + 3*2^-4 is halfway between 1.125 and 1.25: ties to the even mantissa 010"},
      {1.0625f + 0x1p-20f, 0x39, "just above the tie rounds up"},
      {448.0f, 0x7e, "the largest finite value, S.1111.110"},
      {464.0f, 0x7e, "halfway between 448 and the NaN slot (480): ties to even, 448"},
      {464.25f, 0x7f, "past the halfway point: rounds to S.1111.111, which is NaN (no saturation)"},
      {480.0f, 0x7f, "beyond the range: NaN"},
      {-1000.0f, 0xff, "negative overflow: NaN with the sign bit"},
      {kInf, 0x7f, "no infinity in e4m3fn: NaN"},
      {-kInf, 0xff, "negative infinity: NaN with the sign bit"},
      {0x1p-9f, 0x01, "the smallest subnormal, 2^-9"},
      {0x1p-10f, 0x00, "half the smallest subnormal ties to the even zero"},
      {-0x1p-10f, 0x80, "... keeping the sign"},
      {3 * 0x1p-10f, 0x02, "1.5 subnormal quanta tie to the even 2"},
      {0x1p-6f, 0x08, "the smallest normal value"},
      {15 * 0x1p-10f, 0x08, "halfway between the largest subnormal (7*2^-9) and 2^-6: rounds up into the exponent"},
      {0x1p-12f, 0x00, "far below the smallest subnormal"},
  };
  for (const Case& c : cases) EXPECT_EQ(toBits<Float8E4M3Fn>(c.in), c.bits) << c.in << ": " << c.why;
  EXPECT_EQ(toBits<Float8E4M3Fn>(kNaN), 0x7f);
  EXPECT_EQ(toBits<Float8E4M3Fn>(-kNaN), 0xff) << "NaN keeps its sign, as in c10";
}

TEST(Float8E5M2, RoundsToNearestEvenAndOverflowsToInf) {
  const Case cases[] = {
      {1.0f, 0x3c, "1 = 2^0: exponent field 15"},
      {-0.0f, 0x80, "negative zero"},
      {1.125f, 0x3c, "halfway between 1 and 1.25: ties to the even mantissa 00"},
      {1.375f, 0x3e, "halfway between 1.25 and 1.5: ties to the even mantissa 10"},
      {57344.0f, 0x7b, "the largest finite value"},
      {61439.0f, 0x7b, "below the halfway point to 2^16"},
      {61440.0f, 0x7c, "halfway between 57344 (odd mantissa) and 2^16: ties to even, which is Inf"},
      {65536.0f, 0x7c, "overflow: Inf"},
      {-1.0e6f, 0xfc, "negative overflow: -Inf"},
      {kInf, 0x7c, "Inf"},
      {-kInf, 0xfc, "-Inf"},
      {0x1p-16f, 0x01, "the smallest subnormal, 2^-16"},
      {0x1p-17f, 0x00, "half of it ties to the even zero"},
      {3 * 0x1p-17f, 0x02, "1.5 quanta tie to the even 2"},
      {0x1p-14f, 0x04, "the smallest normal value"},
      {1024.0f, 0x64, "2^10: exponent field 25"},
  };
  for (const Case& c : cases) EXPECT_EQ(toBits<Float8E5M2>(c.in), c.bits) << c.in << ": " << c.why;
  EXPECT_EQ(toBits<Float8E5M2>(kNaN), 0x7f);
  EXPECT_EQ(toBits<Float8E5M2>(-kNaN), 0xff);
}

// Round to nearest (ties to the even bit pattern) among the format's finite values plus the first
// value past the largest one (the NaN slot 480 for e4m3fn, Inf for e5m2), straight from the table
// of defined values: an oracle for every float, independent of the code's bit arithmetic.
template <class F8>
void expectNearestEven(const Fp8Format& f, uint8_t overflowBits) {
  std::vector<std::pair<double, uint8_t>> candidates;
  for (int b = 0; b < 128; ++b) {
    const double v = definedValue(f, static_cast<uint8_t>(b));
    if (std::isfinite(v)) candidates.emplace_back(v, static_cast<uint8_t>(b));
  }
  std::sort(candidates.begin(), candidates.end());
  const double maxFinite = candidates.back().first;
  const double gap = maxFinite - candidates[candidates.size() - 2].first;
  candidates.emplace_back(maxFinite + gap, overflowBits);
  auto nearest = [&](double a) -> uint8_t {
    if (a >= candidates.back().first) return overflowBits;
    auto hi = std::lower_bound(candidates.begin(), candidates.end(), std::pair<double, uint8_t>{a, 0});
    if (hi->first == a) return hi->second;
    auto lo = hi - 1;
    const double dl = a - lo->first, dh = hi->first - a;
    if (dl < dh) return lo->second;
    if (dh < dl) return hi->second;
    return (lo->second & 1) == 0 ? lo->second : hi->second;
  };
  std::vector<float> inputs;
  for (size_t i = 0; i + 1 < candidates.size(); ++i) {
    const auto lo = static_cast<float>(candidates[i].first), hi = static_cast<float>(candidates[i + 1].first);
    const float mid = std::midpoint(lo, hi);
    for (float x : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, kInf)}) inputs.push_back(x);
  }
  uint32_t state = 2024;
  for (int i = 0; i < 100000; ++i) {
    state = state * 1664525u + 1013904223u;
    const float x = std::bit_cast<float>((state & 0x7fffffffu) % 0x48000000u);  // 0 .. 131072
    inputs.push_back(x);
  }
  for (float x : inputs) {
    const uint8_t want = nearest(x);
    ASSERT_EQ(F8::fromFloat(x).bits, want) << x;
    ASSERT_EQ(F8::fromFloat(-x).bits, want | 0x80) << -x;
  }
}

TEST(Float8E4M3Fn, EveryFloatRoundsToTheNearestValueTiesToEven) { expectNearestEven<Float8E4M3Fn>(kE4M3Fn, 0x7f); }
TEST(Float8E5M2, EveryFloatRoundsToTheNearestValueTiesToEven) { expectNearestEven<Float8E5M2>(kE5M2, 0x7c); }

// --- tensors ---------------------------------------------------------------------------------------

std::vector<uint8_t> bytesOf(const Tensor& t) {
  const Tensor c = t.contiguous();
  const auto* p = reinterpret_cast<const uint8_t*>(c.rawData());
  return {p, p + c.numel()};
}

TEST(Float8Tensor, ToConvertsBothWaysLikeTorch) {
  const Tensor x = floats({1.0, 464.0, 500.0, -0.0, 0x1p-10, 3 * 0x1p-10});
  const Tensor e4 = x.to(DType::FP8E4NV);
  EXPECT_EQ(e4.dtype(), DType::FP8E4NV);
  EXPECT_EQ(e4.elementSize(), 1);
  EXPECT_EQ(bytesOf(e4), (std::vector<uint8_t>{0x38, 0x7e, 0x7f, 0x80, 0x00, 0x02}));
  const std::vector<double> back = toDoubles(e4.to(DType::FP32));
  EXPECT_EQ(back[0], 1.0);
  EXPECT_EQ(back[1], 448.0);
  EXPECT_TRUE(std::isnan(back[2]));
  EXPECT_EQ(bytesOf(x.to(DType::FP8E5)), (std::vector<uint8_t>{0x3c, 0x5f, 0x60, 0x80, 0x14, 0x1a}));
  // float16 -> e5m2 -> float16 keeps e5m2's values exactly.
  const Tensor h = floats({1.25, -57344.0, 0x1p-16}, {}, TensorOptions(DType::FP16));
  EXPECT_EQ(toDoubles(h.to(DType::FP8E5).to(DType::FP16)), (std::vector<double>{1.25, -57344.0, 0x1p-16}));
  // e4m3fn -> e5m2 rounds the e4m3fn value: 1.125 and 1.375 (exact in e4m3fn) are ties in e5m2.
  EXPECT_EQ(bytesOf(floats({1.125, 1.375}).to(DType::FP8E4NV).to(DType::FP8E5)), (std::vector<uint8_t>{0x3c, 0x3e}));
}

TEST(Float8Tensor, DoublesRoundToFloatFirstAsTorchDoes) {
  // 1 + 2^-4 + 2^-40 is just above the e4m3fn tie between 1 and 1.125, but as a float it is the tie
  // itself, which rounds to even: c10::Float8_e4m3fn takes a float, so torch stores 1.0.
  const Tensor d = floats({1.0625 + 0x1p-40}, {}, TensorOptions(DType::FP64));
  EXPECT_EQ(bytesOf(d.to(DType::FP8E4NV)), std::vector<uint8_t>{0x38});
}

TEST(Float8Tensor, IntegersAndBoolsConvert) {
  const Tensor i = test::ints({1024, 3, -7});
  EXPECT_EQ(bytesOf(i.to(DType::FP8E5)), (std::vector<uint8_t>{0x64, 0x42, 0xc7}));
  EXPECT_EQ(bytesOf(i.to(DType::FP8E4NV)), (std::vector<uint8_t>{0x7f, 0x44, 0xce}));
  EXPECT_EQ(test::toInts(floats({448.0, -2.5}).to(DType::FP8E4NV).to(DType::I32)), (std::vector<int64_t>{448, -2}));
  EXPECT_EQ(test::toInts(floats({-0.0, 0.5}).to(DType::FP8E5).to(DType::I1)), (std::vector<int64_t>{0, 1}));
}

TEST(Float8Tensor, FactoriesFillsViewsAndItemWork) {
  const Tensor ones = host::ones({2, 3}, TensorOptions(DType::FP8E5));
  EXPECT_EQ(bytesOf(ones), std::vector<uint8_t>(6, 0x3c));
  const Tensor full = host::full({2}, Scalar(500.0), TensorOptions(DType::FP8E4NV));
  EXPECT_EQ(bytesOf(full), (std::vector<uint8_t>{0x7f, 0x7f}));
  const Tensor m = floats({1, 2, 3, 4, 5, 6}, {2, 3}).to(DType::FP8E4NV);
  const Tensor t = m.transpose(0, 1);
  EXPECT_EQ(toDoubles(t), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(t.contiguous().strides(), (Shape{2, 1}));
  EXPECT_EQ(m.select(1, 2).select(0, 1).item().toDouble(), 6.0);
  Tensor dst = host::zeros({3}, TensorOptions(DType::FP8E5));
  dst.copy_(floats({0.1, 0.2, 0.3}));
  EXPECT_EQ(bytesOf(dst), (std::vector<uint8_t>{0x2e, 0x32, 0x35}));
}

TEST(Float8Tensor, PrintsLikeTorch) {
  // torch prints fp8 through float32, with the dtype suffix.
  EXPECT_EQ(toString(floats({1.0, 448.0, NAN}).to(DType::FP8E4NV)), "tensor([  1., 448.,  nan], dtype=torch.float8_e4m3fn)");
  EXPECT_EQ(toString(floats({0.5, -kInf}).to(DType::FP8E5)), "tensor([0.5000,   -inf], dtype=torch.float8_e5m2)");
}

TEST(Float8Tensor, DTypeFacts) {
  EXPECT_EQ(torchDTypeName(DType::FP8E4NV), "torch.float8_e4m3fn");
  EXPECT_EQ(torchDTypeName(DType::FP8E5), "torch.float8_e5m2");
  EXPECT_EQ(parseTorchDType("torch.float8_e4m3fn"), DType::FP8E4NV);
  EXPECT_EQ(parseTorchDType("float8_e5m2"), DType::FP8E5);
  EXPECT_EQ(parseTorchDType("float8e4nv"), std::nullopt) << "Triton's spelling is not torch's";
  EXPECT_EQ(elementSize(DType::FP8E5), 1);
  EXPECT_TRUE(isFloatingType(DType::FP8E4NV));
}

TEST(Float8Tensor, ArithmeticIsRefusedWithAMessageSayingToConvert) {
  const Tensor a = floats({1, 2}).to(DType::FP8E4NV);
  try {
    (void)add(a, a);
    FAIL() << "fp8 + fp8 computed";
  } catch (const TensorError& e) {
    EXPECT_NE(std::string(e.what()).find("not implemented for torch.float8_e4m3fn tensors"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("x.to(torch.float16)"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)matmul(a.reshape({1, 2}), a.reshape({2, 1})), TensorError);
  try {
    (void)add(a, floats({1, 2}));
    FAIL() << "fp8 + float32 promoted";
  } catch (const TensorError& e) {
    EXPECT_EQ(std::string(e.what()), "Promotion for Float8 Types is not supported, attempted to promote Float8_e4m3fn and Float");
  }
  EXPECT_THROW((void)promoteTypes(DType::FP8E5, DType::FP8E4NV), TensorError);
  EXPECT_EQ(promoteTypes(DType::FP8E5, DType::FP8E5), DType::FP8E5);
}

}  // namespace
}  // namespace tilescope::host
