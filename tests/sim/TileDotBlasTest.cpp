// tl.dot through OpenBLAS (tileops::dot) against the simulator's own loop (tileops::dotReference),
// which defines the rules: bitwise equal where every partial sum is exact in fp32, within the
// documented (K + 1) * 2^-23 * (|acc| + sum |a*b|) otherwise; integer dots exact.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/ir/Numerics.h"
#include "core/sim/TileDot.h"

namespace tilescope::sim::tileops {
namespace {

using ir::DType;
using ir::InputPrecision;
using ir::Type;

Tile randomTile(DType t, ir::Shape shape, std::mt19937& rng, bool smallIntegers) {
  std::vector<double> v(static_cast<size_t>(ir::numElements(shape)));
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_int_distribution<int> small(-8, 8);
  for (double& x : v) x = smallIntegers ? small(rng) : real(rng);
  return Tile::fromFloats(t, std::move(shape), v);  // rounded to t
}

// The largest |blas - reference| the rules allow per element.
std::vector<double> bounds(const Tile& a, const Tile& b, const Tile* acc, int64_t m, int64_t k, int64_t n,
                           InputPrecision p) {
  std::vector<double> out(static_cast<size_t>(m * n));
  auto operand = [&](const Tile& t, int64_t i) {
    const double v = t.floats()[i];
    return p == InputPrecision::TF32 && t.dtype() == DType::FP32 ? static_cast<double>(roundToTf32(static_cast<float>(v))) : v;
  };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = acc ? std::fabs(acc->floats()[i * n + j]) : 0.0;
      for (int64_t kk = 0; kk < k; ++kk) sum += std::fabs(operand(a, i * k + kk) * operand(b, kk * n + j));
      out[i * n + j] = static_cast<double>(k + 1) * std::ldexp(1.0, -23) * sum;
    }
  return out;
}

class TileDotBlas : public ::testing::Test {
protected:
  void SetUp() override {
    if (!blasAvailable()) GTEST_SKIP() << "this build has no OpenBLAS (libopenblas-dev): dot() is the reference loop";
  }
};

TEST_F(TileDotBlas, MatchesTheReferenceWithinTheDocumentedBoundOnRandomInputs) {
  std::mt19937 rng(1234);
  struct Case {
    DType dtype;
    InputPrecision precision;
    int64_t m, k, n;
    bool withAcc;
  };
  const Case cases[] = {{DType::FP32, InputPrecision::IEEE, 32, 32, 32, true},
                        {DType::FP32, InputPrecision::IEEE, 64, 128, 16, false},
                        {DType::FP32, InputPrecision::TF32, 32, 64, 32, true},
                        {DType::FP16, InputPrecision::IEEE, 16, 64, 64, true},
                        {DType::BF16, InputPrecision::IEEE, 64, 32, 16, true},
                        {DType::FP32, InputPrecision::IEEE, 3, 5, 7, true}};
  for (const Case& c : cases) {
    const Tile a = randomTile(c.dtype, {c.m, c.k}, rng, false);
    const Tile b = randomTile(c.dtype, {c.k, c.n}, rng, false);
    const Tile acc = randomTile(DType::FP32, {c.m, c.n}, rng, false);
    const Tile* accp = c.withAcc ? &acc : nullptr;
    const Type rt = Type::tile(DType::FP32, {c.m, c.n});
    const Tile fast = dot(a, b, accp, c.precision, rt);
    const Tile ref = dotReference(a, b, accp, c.precision, rt);
    const std::vector<double> bound = bounds(a, b, accp, c.m, c.k, c.n, c.precision);
    for (int64_t i = 0; i < c.m * c.n; ++i) {
      ASSERT_EQ(fast.floats()[i], static_cast<double>(static_cast<float>(fast.floats()[i]))) << "not an fp32 value";
      ASSERT_LE(std::fabs(fast.floats()[i] - ref.floats()[i]), bound[i])
          << "element " << i << " of a " << c.m << "x" << c.k << "x" << c.n << " dot of " << ir::dtypeName(c.dtype);
    }
    // tf32 rounding happened: the IEEE product of the same inputs differs from the tf32 one.
    if (c.precision == InputPrecision::TF32) {
      const Tile ieee = dotReference(a, b, accp, InputPrecision::IEEE, rt);
      int64_t changed = 0;
      for (int64_t i = 0; i < c.m * c.n; ++i) changed += std::fabs(ieee.floats()[i] - fast.floats()[i]) > bound[i];
      EXPECT_GT(changed, 0) << "tf32 inputs were not rounded";
    }
  }
}

TEST_F(TileDotBlas, IsBitwiseTheReferenceWhereEverySumIsExact) {
  std::mt19937 rng(99);
  for (DType t : {DType::FP32, DType::FP16, DType::BF16}) {
    const Tile a = randomTile(t, {2, 32, 64}, rng, true);  // batched
    const Tile b = randomTile(t, {2, 64, 48}, rng, true);
    const Tile acc = randomTile(DType::FP32, {2, 32, 48}, rng, true);
    const Type rt = Type::tile(DType::FP32, {2, 32, 48});
    const Tile fast = dot(a, b, &acc, InputPrecision::IEEE, rt);
    const Tile ref = dotReference(a, b, &acc, InputPrecision::IEEE, rt);
    for (int64_t i = 0; i < fast.numel(); ++i) ASSERT_EQ(fast.floats()[i], ref.floats()[i]) << ir::dtypeName(t) << " element " << i;
  }
  // fp16 products are exact in fp32: 2047 * 2047 needs 22 bits (fp16 holds 11).
  const Tile h = Tile::fromFloats(DType::FP16, {1, 1}, std::vector<double>{2047.0 / 1024.0});
  EXPECT_EQ(dot(h, h, nullptr, InputPrecision::IEEE, Type::tile(DType::FP32, {1, 1})).floats()[0],
            (2047.0 / 1024.0) * (2047.0 / 1024.0));
}

TEST_F(TileDotBlas, IntegerDotsStayExactAndWrap) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> v(-128, 127);
  std::vector<int64_t> av(64 * 64), bv(64 * 64);
  for (int64_t& x : av) x = v(rng);
  for (int64_t& x : bv) x = v(rng);
  const Tile a = Tile::fromInts(DType::I8, {64, 64}, av);
  const Tile b = Tile::fromInts(DType::I8, {64, 64}, bv);
  const Type rt = Type::tile(DType::I32, {64, 64});
  const Tile fast = dot(a, b, nullptr, InputPrecision::IEEE, rt);
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      int64_t sum = 0;
      for (int64_t k = 0; k < 64; ++k) sum += av[i * 64 + k] * bv[k * 64 + j];
      ASSERT_EQ(fast.ints()[i * 64 + j], sum);
    }
}

}  // namespace
}  // namespace tilescope::sim::tileops
