// torch.isclose / allclose / equal and torch.testing.assert_close messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/TensorCompare.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::floats;
using test::ints;

TEST(TensorCompare, AllcloseAndIsclose) {
  const Tensor a = floats({1.0, 2.0, 3.0});
  EXPECT_TRUE(allclose(a, floats({1.0, 2.0 + 1e-6, 3.0})));
  EXPECT_FALSE(allclose(a, floats({1.0, 2.001, 3.0})));
  EXPECT_TRUE(allclose(a, floats({1.0, 2.001, 3.0}), 1e-3, 0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(allclose(floats({nan}), floats({nan})));
  EXPECT_TRUE(allclose(floats({nan}), floats({nan}), 1e-5, 1e-8, true));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(allclose(floats({inf}), floats({inf})));
  EXPECT_FALSE(allclose(floats({inf}), floats({-inf})));
  EXPECT_EQ(test::toInts(isclose(a, floats({1.1, 2.0, 2.0}), 0.0, 0.5)), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_TRUE(allclose(a, floats({1, 2, 3}).view({1, 3}).expand({2, 3}).select(0, 1)));  // broadcast/strided
  EXPECT_EQ(test::errorOf([&] { allclose(a, a.toHalf()); }), "Float did not match Half");
}

TEST(TensorCompare, SeedVectorAddCheckAndHalfTolerance) {
  // torch.allclose(output_triton, output_torch) and allclose(..., atol=5e-2, rtol=0) in fp16.
  manualSeed(0);
  const Tensor x = rand({98432}, Device::parse("cuda"));
  const Tensor y = rand({98432}, Device::parse("cuda"));
  EXPECT_TRUE(allclose(x + y, y + x));
  const Tensor h = floats({100.0}, {}, DType::FP16);
  // In fp16 the difference is one ulp (0.0625) and the tolerance 0.05 is stored as 0.04998779296875.
  EXPECT_FALSE(allclose(h, floats({100.0625}, {}, DType::FP16), 0.0, 5e-2));
  EXPECT_TRUE(allclose(h, floats({100.0}, {}, DType::FP16), 0.0, 5e-2));
}

TEST(TensorCompare, Equal) {
  EXPECT_TRUE(equal(ints({1, 2}), ints({1, 2})));
  EXPECT_FALSE(equal(ints({1, 2}), ints({1, 3})));
  EXPECT_FALSE(equal(ints({1, 2}), ints({1, 2, 3})));
  EXPECT_FALSE(equal(ints({1, 2}), ints({1, 2}).view({1, 2})));
}

TEST(AssertClose, PassesWithinDefaultTolerances) {
  EXPECT_FALSE(assertCloseMessage(floats({1.0}), floats({1.0 + 1e-6})).has_value());
  EXPECT_FALSE(assertCloseMessage(floats({1.0}, {}, DType::FP16), floats({1.0009765625}, {}, DType::FP16)).has_value());
  EXPECT_TRUE(assertCloseMessage(floats({1.0}, {}, DType::FP16), floats({1.001953125}, {}, DType::FP16)).has_value());
  EXPECT_EQ(defaultTolerances(DType::BF16), (std::pair<double, double>{1.6e-2, 1e-5}));
  EXPECT_EQ(defaultTolerances(DType::FP64), (std::pair<double, double>{1e-7, 1e-7}));
  EXPECT_EQ(defaultTolerances(DType::I32), (std::pair<double, double>{0.0, 0.0}));
}

TEST(AssertClose, TensorMismatchMessage) {
  const Tensor actual = floats({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor expected = floats({0, 1, 2.5, 3, 4, 5, 6.25, 7, 8, 10});
  EXPECT_EQ(*assertCloseMessage(actual, expected),
            "Tensor-likes are not close!\n"
            "\n"
            "Mismatched elements: 3 / 10 (30.0%)\n"
            "Greatest absolute difference: 1.0 at index (9,) (up to 1e-05 allowed)\n"
            "Greatest relative difference: 0.2 at index (2,) (up to 1.3e-06 allowed)");
}

TEST(AssertClose, MultiDimIndexAndFloat32Differences) {
  const Tensor actual = floats({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor expected = floats({1, 2, 3, 4, 5.1f, 6}, {2, 3});
  // The float32 values are compared in float64: |5 - 5.1f| is not 0.1.
  EXPECT_EQ(*assertCloseMessage(actual, expected),
            "Tensor-likes are not close!\n"
            "\n"
            "Mismatched elements: 1 / 6 (16.7%)\n"
            "Greatest absolute difference: 0.09999990463256836 at index (1, 1) (up to 1e-05 allowed)\n"
            "Greatest relative difference: 0.01960782480441495 at index (1, 1) (up to 1.3e-06 allowed)");
}

TEST(AssertClose, IntegersAreComparedForEquality) {
  EXPECT_EQ(*assertCloseMessage(ints({1, 2, 3}), ints({1, 5, 3})),
            "Tensor-likes are not equal!\n"
            "\n"
            "Mismatched elements: 1 / 3 (33.3%)\n"
            "Greatest absolute difference: 3 at index (1,)\n"
            "Greatest relative difference: 0.6000000238418579 at index (1,)");
}

TEST(AssertClose, ScalarsAttributesAndTolerances) {
  EXPECT_EQ(*assertCloseMessage(floats({2.0}).reshape({}), floats({1.0}).reshape({})),
            "Scalars are not close!\n"
            "\n"
            "Expected 1.0 but got 2.0.\n"
            "Absolute difference: 1.0 (up to 1e-05 allowed)\n"
            "Relative difference: 1.0 (up to 1.3e-06 allowed)");
  EXPECT_EQ(*assertCloseMessage(floats({1, 2, 3}), floats({1, 2, 3, 4})),
            "The values for attribute 'shape' do not match: torch.Size([3]) != torch.Size([4]).");
  EXPECT_EQ(*assertCloseMessage(floats({1}), floats({1}, {}, DType::FP16)),
            "The values for attribute 'dtype' do not match: torch.float32 != torch.float16.");
  EXPECT_EQ(*assertCloseMessage(floats({1}, {}, Device::parse("cuda")), floats({1})),
            "The values for attribute 'device' do not match: cuda:0 != cpu.");
  AssertCloseOptions loose;
  loose.checkDtype = false;
  EXPECT_FALSE(assertCloseMessage(floats({1}), floats({1}, {}, DType::FP16), loose).has_value());
  AssertCloseOptions custom;
  custom.rtol = 0.0;
  custom.atol = 0.5;
  EXPECT_FALSE(assertCloseMessage(floats({1.0}), floats({1.4}), custom).has_value());
  AssertCloseOptions half;
  half.rtol = 0.1;
  try {
    (void)assertCloseMessage(floats({1}), floats({1}), half);
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(), "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.");
    EXPECT_EQ(e.pythonType(), "ValueError");
  }
  try {
    assertClose(ints({1}), ints({2}));
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_EQ(e.pythonType(), "AssertionError");
  }
}

}  // namespace
}  // namespace tilescope::host
