// tl.dot's fast path (tileops::dot, core/ir/FmaChainGemm) against the simulator's own loop
// (tileops::dotReference), which defines the rules: bitwise equal for every float operand dtype,
// with and without an accumulator, batched and of odd shapes; integer dots exact.
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

Tile randomTile(DType t, ir::Shape shape, std::mt19937& rng) {
  std::vector<double> v(static_cast<size_t>(ir::numElements(shape)));
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  for (double& x : v) x = real(rng);
  return Tile::fromFloats(t, std::move(shape), v);  // rounded to t
}

void expectBitwiseEqual(const Tile& fast, const Tile& ref, const std::string& what) {
  ASSERT_EQ(fast.numel(), ref.numel()) << what;
  for (int64_t i = 0; i < fast.numel(); ++i) {
    ASSERT_EQ(fast.floats()[i], static_cast<double>(static_cast<float>(fast.floats()[i]))) << what << ": not an fp32 value";
    ASSERT_EQ(std::signbit(fast.floats()[i]), std::signbit(ref.floats()[i])) << what << " element " << i;
    ASSERT_EQ(fast.floats()[i], ref.floats()[i]) << what << " element " << i;
  }
}

TEST(TileDotFast, IsBitwiseTheReferenceOnRandomInputs) {
  std::mt19937 rng(1234);
  struct Case {
    DType dtype;
    InputPrecision precision;
    int64_t batch, m, k, n;
    bool withAcc;
  };
  const Case cases[] = {{DType::FP32, InputPrecision::IEEE, 1, 32, 32, 32, true},
                        {DType::FP32, InputPrecision::IEEE, 1, 64, 128, 16, false},
                        {DType::FP32, InputPrecision::TF32, 1, 32, 64, 32, true},
                        {DType::FP32, InputPrecision::TF32x3, 1, 16, 16, 16, true},
                        {DType::FP16, InputPrecision::IEEE, 1, 16, 64, 64, true},
                        {DType::BF16, InputPrecision::IEEE, 1, 64, 32, 16, true},
                        {DType::FP8E4NV, InputPrecision::IEEE, 1, 32, 32, 64, true},
                        {DType::FP8E5, InputPrecision::IEEE, 1, 16, 32, 32, false},
                        {DType::FP32, InputPrecision::IEEE, 2, 32, 64, 48, true},
                        {DType::FP16, InputPrecision::IEEE, 3, 16, 16, 16, false},
                        // Shapes that leave row and column remainders for every part of the kernel.
                        {DType::FP32, InputPrecision::IEEE, 1, 3, 5, 7, true},
                        {DType::FP32, InputPrecision::IEEE, 1, 33, 17, 41, true},
                        {DType::BF16, InputPrecision::IEEE, 1, 7, 9, 25, true}};
  for (const Case& c : cases) {
    const ir::Shape as = c.batch > 1 ? ir::Shape{c.batch, c.m, c.k} : ir::Shape{c.m, c.k};
    const ir::Shape bs = c.batch > 1 ? ir::Shape{c.batch, c.k, c.n} : ir::Shape{c.k, c.n};
    const ir::Shape cs = c.batch > 1 ? ir::Shape{c.batch, c.m, c.n} : ir::Shape{c.m, c.n};
    const Tile a = randomTile(c.dtype, as, rng);
    const Tile b = randomTile(c.dtype, bs, rng);
    const Tile acc = randomTile(DType::FP32, cs, rng);
    const Tile* accp = c.withAcc ? &acc : nullptr;
    const Type rt = Type::tile(DType::FP32, cs);
    const std::string what = std::to_string(c.batch) + "x" + std::to_string(c.m) + "x" + std::to_string(c.k) + "x" +
                             std::to_string(c.n) + " dot of " + std::string(ir::dtypeName(c.dtype));
    expectBitwiseEqual(dot(a, b, accp, c.precision, rt), dotReference(a, b, accp, c.precision, rt), what);
    // tf32 rounding happened: the IEEE product of the same inputs differs from the tf32 one.
    if (c.precision == InputPrecision::TF32) {
      const Tile ieee = dotReference(a, b, accp, InputPrecision::IEEE, rt);
      const Tile tf32 = dot(a, b, accp, c.precision, rt);
      int64_t changed = 0;
      for (int64_t i = 0; i < tf32.numel(); ++i) changed += ieee.floats()[i] != tf32.floats()[i];
      EXPECT_GT(changed, 0) << "tf32 inputs were not rounded";
    }
  }
}

TEST(TileDotFast, EachFp32StepIsOneRoundingOfTheExactProductPlusAcc) {
  // acc = 1 + 2^-23, a = 1 + 2^-23, b = 2^-24 (1 - 2^-23): the exact acc + a*b = 1 + 3*2^-24 - 2^-70
  // lies just below the midpoint between 1 + 2^-23 and 1 + 2^-22. One rounding (the GPU's FMA)
  // gives 1 + 2^-23; rounding to double first lands on the midpoint and then rounds up to 1 + 2^-22.
  const double one = 1.0 + std::ldexp(1.0, -23);
  const Tile a = Tile::fromFloats(DType::FP32, {1, 1}, std::vector<double>{one});
  const Tile b = Tile::fromFloats(DType::FP32, {1, 1}, std::vector<double>{std::ldexp(1.0 - std::ldexp(1.0, -23), -24)});
  const Tile acc = Tile::fromFloats(DType::FP32, {1, 1}, std::vector<double>{one});
  const Type rt = Type::tile(DType::FP32, {1, 1});
  EXPECT_EQ(dotReference(a, b, &acc, InputPrecision::IEEE, rt).floats()[0], one);
  EXPECT_EQ(dot(a, b, &acc, InputPrecision::IEEE, rt).floats()[0], one);
  // fp16 products are exact in fp32: 2047 * 2047 needs 22 bits (fp16 holds 11).
  const Tile h = Tile::fromFloats(DType::FP16, {1, 1}, std::vector<double>{2047.0 / 1024.0});
  EXPECT_EQ(dot(h, h, nullptr, InputPrecision::IEEE, rt).floats()[0], (2047.0 / 1024.0) * (2047.0 / 1024.0));
}

TEST(TileDotFast, IntegerDotsStayExactAndWrap) {
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
