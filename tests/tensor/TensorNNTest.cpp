// softmax and layer_norm against double-precision references.
#include <gtest/gtest.h>

#include <cmath>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorNN.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::toDoubles;

TEST(TensorNN, SoftmaxLastDimAgainstReference) {
  Generator gen(11);
  const Tensor x = randn({5, 13}, {}, &gen) * Scalar(4.0);
  const Tensor y = softmax(x, -1);
  EXPECT_EQ(y.shape(), x.shape());
  EXPECT_EQ(y.dtype(), DType::FP32);
  const auto xv = toDoubles(x), yv = toDoubles(y);
  for (int r = 0; r < 5; ++r) {
    double mx = -INFINITY, s = 0;
    for (int c = 0; c < 13; ++c) mx = std::max(mx, xv[static_cast<size_t>(r * 13 + c)]);
    for (int c = 0; c < 13; ++c) s += std::exp(xv[static_cast<size_t>(r * 13 + c)] - mx);
    for (int c = 0; c < 13; ++c) {
      const double ref = std::exp(xv[static_cast<size_t>(r * 13 + c)] - mx) / s;
      ASSERT_NEAR(yv[static_cast<size_t>(r * 13 + c)], ref, 1e-7 + 1e-6 * ref);
    }
  }
}

TEST(TensorNN, SoftmaxOverDimZeroAndLargeValues) {
  // Large inputs must not overflow (max subtraction) and columns must sum to one.
  const Tensor x = test::floats({1000, 1, 1001, 2}, {2, 2});
  const Tensor y = softmax(x, 0);
  const auto v = toDoubles(y);
  EXPECT_NEAR(v[0], 1.0 / (1.0 + std::exp(1.0)), 1e-7);
  EXPECT_NEAR(v[2], std::exp(1.0) / (1.0 + std::exp(1.0)), 1e-7);
  const auto colSums = toDoubles(sum(y, {0}));
  for (double s : colSums) EXPECT_NEAR(s, 1.0, 1e-6);
  EXPECT_EQ(softmax(test::floats({1, 2}, {}, DType::FP16), 0).dtype(), DType::FP16);
  EXPECT_EQ(errorOf([] { softmax(test::ints({1, 2}), 0); }), "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  EXPECT_EQ(softmax(test::ints({1, 2}), 0, DType::FP64).dtype(), DType::FP64);
}

TEST(TensorNN, LayerNormWithAffineAgainstReference) {
  Generator gen(5);
  const Tensor x = randn({4, 10}, {}, &gen) * Scalar(3.0) + Scalar(1.0);
  const Tensor w = randn({10}, {}, &gen);
  const Tensor b = randn({10}, {}, &gen);
  const Tensor y = layerNorm(x, {10}, w, b, 1e-5);
  const auto xv = toDoubles(x), wv = toDoubles(w), bv = toDoubles(b), yv = toDoubles(y);
  for (int r = 0; r < 4; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < 10; ++c) mean += xv[static_cast<size_t>(r * 10 + c)];
    mean /= 10;
    for (int c = 0; c < 10; ++c) var += std::pow(xv[static_cast<size_t>(r * 10 + c)] - mean, 2);
    var /= 10;  // biased, like torch
    for (int c = 0; c < 10; ++c) {
      const size_t i = static_cast<size_t>(r * 10 + c);
      const double ref = (xv[i] - mean) / std::sqrt(var + 1e-5) * wv[static_cast<size_t>(c)] + bv[static_cast<size_t>(c)];
      ASSERT_NEAR(yv[i], ref, 1e-5 * (1 + std::fabs(ref)));
    }
  }
}

TEST(TensorNN, LayerNormOverTwoDimsAndErrors) {
  const Tensor x = arange(Scalar(0.0), Scalar(12.0)).view({2, 2, 3});
  const Tensor y = layerNorm(x, {2, 3});
  const auto v = toDoubles(y.select(0, 1));
  double mean = 0;
  for (double e : v) mean += e;
  EXPECT_NEAR(mean, 0.0, 1e-6);
  EXPECT_NEAR(v[5], 2.5 / std::sqrt(35.0 / 12.0 + 1e-5), 1e-5);
  EXPECT_EQ(errorOf([&] { layerNorm(x, {4}); }),
            "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 2, 3]");
  EXPECT_EQ(errorOf([&] { layerNorm(x, {3}, ones({4})); }),
            "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and normalized_shape = [3]");
}

}  // namespace
}  // namespace tilescope::host
