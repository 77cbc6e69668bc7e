// torch's CPU generator reproduced: values after torch.manual_seed match real torch output.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::toDoubles;
using test::toInts;

TEST(TorchRandom, EngineIsMt19937OnTheLow32BitsOfTheSeed) {
  Generator g(0);
  EXPECT_EQ(g.random(), 2357136044u);
  Generator d(5489);
  EXPECT_EQ(d.random(), 3499211612u);
  Generator wide((uint64_t{1} << 32) + 5489);  // torch keeps only the low 32 bits
  EXPECT_EQ(wide.random(), 3499211612u);
  Generator a(1), b(1);
  const uint64_t hi = a.random(), lo = a.random();
  EXPECT_EQ(b.random64(), (hi << 32) | lo);
}

TEST(TorchRandom, RandMatchesTorch) {
  manualSeed(0);
  const Tensor x = rand({3});
  EXPECT_EQ(x.dtype(), DType::FP32);
  // torch.manual_seed(0); torch.rand(3).tolist()
  EXPECT_EQ(toDoubles(x), (std::vector<double>{0.49625658988952637, 0.7682217955589294, 0.08847743272781372}));
}

TEST(TorchRandom, RandnSmallUsesDoubleBoxMuller) {
  manualSeed(0);
  const auto v = toDoubles(randn({3}));
  const double expected[] = {1.5410, -0.2934, -2.1788};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(v[static_cast<size_t>(i)], expected[i], 5e-5) << i;
}

TEST(TorchRandom, RandnSixteenUsesTheBlockPath) {
  manualSeed(0);
  const auto v = toDoubles(randn({16}));
  const double expected[] = {-1.1258, -1.1524, -0.2506, -0.4339, 0.8487, 0.6920, -0.3160, -2.1152};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(v[static_cast<size_t>(i)], expected[i], 5e-5) << i;
}

TEST(TorchRandom, RandnCachesTheSecondBoxMullerValue) {
  manualSeed(0);
  const auto four = toDoubles(randn({4}));
  manualSeed(0);
  auto split = toDoubles(randn({3}));
  const auto fourth = toDoubles(randn({1}));  // the cached sine half of the second pair
  split.push_back(fourth[0]);
  EXPECT_EQ(split, four);
  // manual_seed drops the cache.
  manualSeed(0);
  (void)randn({1});
  manualSeed(0);
  const auto again = toDoubles(randn({1}));
  EXPECT_EQ(again[0], four[0]);
}

TEST(TorchRandom, RandnTailIsRedrawnForSizesNotMultipleOf16) {
  manualSeed(0);
  const auto sixteen = toDoubles(randn({16}));
  manualSeed(0);
  const auto twenty = toDoubles(randn({20}));
  // Values 0..3 come from the first block; 4..19 are a fresh block of 16 over new uniforms.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(twenty[static_cast<size_t>(i)], sixteen[static_cast<size_t>(i)]) << i;
  EXPECT_NE(twenty[4], sixteen[4]);
}

TEST(TorchRandom, Float64AndHalfUniforms) {
  Generator g(42), ref(42);
  const Tensor d = rand({2}, DType::FP64, &g);
  const double first = static_cast<double>(ref.random64() & ((uint64_t{1} << 53) - 1)) * 0x1p-53;
  EXPECT_EQ(toDoubles(d)[0], first);
  const Tensor h = rand({64}, DType::FP16, &g);
  for (double v : toDoubles(h)) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
    EXPECT_EQ(v * 2048, std::floor(v * 2048));  // 11 random bits
  }
}

TEST(TorchRandom, RandintMatchesTorch) {
  manualSeed(0);
  const Tensor r = randint(0, 10, {8});
  EXPECT_EQ(r.dtype(), DType::I64);
  // torch.manual_seed(0); torch.randint(0, 10, (8,))
  EXPECT_EQ(toInts(r), (std::vector<int64_t>{4, 9, 3, 0, 3, 9, 7, 3}));
  Generator g(3), ref(3);
  const int64_t hiRange = int64_t{1} << 40;  // ranges >= 2^32 draw 64 bits
  const Tensor w = randint(-5, hiRange - 5, {1}, {}, &g);
  EXPECT_EQ(w.item().toInt(), static_cast<int64_t>(ref.random64() % static_cast<uint64_t>(hiRange)) - 5);
  EXPECT_EQ(errorOf([] { randint(5, 5, {1}); }), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
}

TEST(TorchRandom, DevicesShareTheCpuStream) {
  manualSeed(0);
  const Tensor cpu = rand({98432});
  manualSeed(0);
  const Tensor gpu = rand({98432}, Device::parse("cuda"));
  EXPECT_TRUE(gpu.isCuda());
  EXPECT_TRUE(all(eq(cpu, gpu.cpu())).item().toBool());
}

TEST(TorchRandom, LikeFactoriesAndErrors) {
  const Tensor base = zeros({2, 3}, {DType::FP64, Device::parse("cuda")});
  const Tensor r = randLike(base);
  EXPECT_EQ(r.shape(), base.shape());
  EXPECT_EQ(r.dtype(), DType::FP64);
  EXPECT_TRUE(r.isCuda());
  EXPECT_TRUE(r.isInitialised());
  EXPECT_EQ(randnLike(zeros({5}, DType::FP16)).dtype(), DType::FP16);
  EXPECT_EQ(errorOf([] { rand({2}, DType::I64); }), "\"check_uniform_bounds\" not implemented for 'Long'");
  // A seeded stream is reproducible and independent generators do not interfere.
  Generator a(9), b(9);
  (void)rand({5});  // default generator use in between
  EXPECT_EQ(toDoubles(randn({20}, {}, &a)), toDoubles(randn({20}, {}, &b)));
}

}  // namespace
}  // namespace tilescope::host
