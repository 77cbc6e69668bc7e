// matmul against a double-precision reference, every operand form, and torch's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "core/tensor/TensorCompare.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::toDoubles;

// Reference C = A B in double from the operands' stored values.
std::vector<double> reference(const Tensor& a, const Tensor& b) {
  const auto av = toDoubles(a), bv = toDoubles(b);
  const int64_t n = a.shape()[0], k = a.shape()[1], m = b.shape()[1];
  std::vector<double> c(static_cast<size_t>(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t p = 0; p < k; ++p) c[static_cast<size_t>(i * m + j)] += av[static_cast<size_t>(i * k + p)] * bv[static_cast<size_t>(p * m + j)];
  return c;
}

TEST(Matmul, Float32AgainstDoubleReference) {
  Generator gen(7);
  const Tensor a = randn({37, 53}, {}, &gen);
  const Tensor b = randn({53, 29}, {}, &gen);
  const Tensor c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{37, 29}));
  EXPECT_EQ(c.dtype(), DType::FP32);
  const auto ref = reference(a, b);
  const auto got = toDoubles(c);
  for (size_t i = 0; i < ref.size(); ++i) ASSERT_NEAR(got[i], ref[i], 1e-5 * (1 + std::fabs(ref[i]))) << i;
}

// Each element is one fp32 fma chain in k order (the simulator's tl.dot into an accumulator), also
// when a large product is split over threads.
TEST(Matmul, Float32IsOneFmaChainPerElementOnAnyThreadCount) {
  Generator gen(11);
  const Tensor a = randn({256, 300}, {}, &gen);
  const Tensor b = randn({300, 200}, {}, &gen);
  const auto av = toDoubles(a), bv = toDoubles(b);
  std::vector<float> chain(256 * 200);
  for (int64_t i = 0; i < 256; ++i)
    for (int64_t j = 0; j < 200; ++j) {
      float acc = 0.0f;
      for (int64_t p = 0; p < 300; ++p)
        acc = std::fmaf(static_cast<float>(av[static_cast<size_t>(i * 300 + p)]),
                        static_cast<float>(bv[static_cast<size_t>(p * 200 + j)]), acc);
      chain[static_cast<size_t>(i * 200 + j)] = acc;
    }
  for (const char* threads : {"1", "3"}) {
    setenv("TILESCOPE_SIM_THREADS", threads, 1);
    const auto got = toDoubles(matmul(a, b));
    unsetenv("TILESCOPE_SIM_THREADS");
    for (size_t i = 0; i < chain.size(); ++i)
      ASSERT_EQ(got[i], static_cast<double>(chain[i])) << threads << " threads, element " << i;
  }
}

TEST(Matmul, HalfAccumulatesInFloatAndRoundsOnce) {
  Generator gen(3);
  const Tensor a = randn({16, 64}, DType::FP16, &gen);
  const Tensor b = randn({64, 8}, DType::FP16, &gen);
  const Tensor c = matmul(a, b);
  EXPECT_EQ(c.dtype(), DType::FP16);
  const auto ref = reference(a, b);
  const auto magnitude = reference(abs(a), abs(b));  // sum of |terms|: bounds the float32 accumulation error
  const auto got = toDoubles(c);
  for (size_t i = 0; i < ref.size(); ++i) {
    // One rounding of a float32 sum: half an fp16 ulp plus float32 accumulation noise.
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(std::fabs(ref[i])), -14) - 10);
    ASSERT_LE(std::fabs(got[i] - ref[i]), 0.5 * ulp + 64 * 0x1p-24 * magnitude[i]) << i;
  }
  // Accumulating in fp16 would lose the small addends entirely: 2048 + 1 + ... + 1 (8 ones).
  const Tensor big = test::floats({2048, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 9}, DType::FP16);
  const Tensor ones9 = ones({9, 1}, DType::FP16);
  EXPECT_EQ(matmul(big, ones9).item().toDouble(), 2056.0);
}

TEST(Matmul, VectorForms) {
  const Tensor v = test::floats({1, 2, 3});
  const Tensor m = arange(Scalar(0.0), Scalar(6.0)).view({3, 2});
  const Tensor dot = matmul(v, v);
  EXPECT_EQ(dot.dim(), 0);
  EXPECT_EQ(dot.item().toDouble(), 14.0);
  const Tensor vm = matmul(v, m);
  EXPECT_EQ(vm.shape(), (Shape{2}));
  EXPECT_EQ(toDoubles(vm), (std::vector<double>{16, 22}));
  const Tensor mv = matmul(m.t(), v);
  EXPECT_EQ(mv.shape(), (Shape{2}));
  EXPECT_EQ(toDoubles(mv), (std::vector<double>{16, 22}));
}

TEST(Matmul, BatchedWithBroadcast) {
  const Tensor a = arange(Scalar(0.0), Scalar(24.0)).view({2, 3, 4});
  const Tensor b = arange(Scalar(0.0), Scalar(8.0)).view({4, 2});
  const Tensor c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 3, 2}));
  for (int64_t i = 0; i < 2; ++i) {
    const auto expected = reference(a.select(0, i), b);
    EXPECT_EQ(toDoubles(c.select(0, i)), expected);
  }
  const Tensor batchB = arange(Scalar(0.0), Scalar(16.0)).view({2, 1, 4, 2});
  EXPECT_EQ(matmul(a, batchB).shape(), (Shape{2, 2, 3, 2}));
}

TEST(Matmul, IntegersAndSeedOnes) {
  const Tensor a = arange(Scalar(int64_t{6})).view({2, 3});
  EXPECT_EQ(test::toInts(matmul(a, a.t())), (std::vector<int64_t>{5, 14, 14, 50}));
  // a @ b with torch.ones((3, 4)) and torch.ones((4, 5)) from the matmul tutorial.
  const Tensor c = matmul(ones({3, 4}), ones({4, 5}));
  EXPECT_TRUE(equal(c, full({3, 5}, Scalar(4.0))));
}

TEST(Matmul, Errors) {
  EXPECT_EQ(errorOf([] { matmul(ones({3, 4}), ones({5, 6})); }), "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x6)");
  EXPECT_EQ(errorOf([] { matmul(ones({3, 4}), ones({4, 5}, DType::FP16)); }),
            "expected m1 and m2 to have the same dtype, but got: float != c10::Half");
  EXPECT_EQ(errorOf([] { matmul(ones({3}), ones({4})); }),
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively");
  EXPECT_EQ(errorOf([] { matmul(ones({3}), ones({3}, DType::FP64)); }),
            "dot : expected both vectors to have same dtype, but found Float and Double");
  EXPECT_EQ(errorOf([] { matmul(ones({3, 4}), ones({5})); }), "size mismatch, got input (3), mat (3x4), vec (5)");
  EXPECT_EQ(errorOf([] { matmul(ones({}), ones({3})); }), "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
}

}  // namespace
}  // namespace tilescope::host
