// Reductions: sum/mean/max/min/argmax/all/any over everything or a dim, with keepdim.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::floats;
using test::ints;
using test::toDoubles;
using test::toInts;

TEST(TensorReduce, SumWholeAndAlongDims) {
  const Tensor x = arange(Scalar(int64_t{24})).view({2, 3, 4});
  const Tensor total = sum(x);
  EXPECT_EQ(total.dim(), 0);
  EXPECT_EQ(total.dtype(), DType::I64);
  EXPECT_EQ(total.item().toInt(), 276);
  EXPECT_EQ(toInts(sum(x, {1})), (std::vector<int64_t>{12, 15, 18, 21, 48, 51, 54, 57}));
  EXPECT_EQ(sum(x, {1}).shape(), (Shape{2, 4}));
  EXPECT_EQ(sum(x, {1}, true).shape(), (Shape{2, 1, 4}));
  EXPECT_EQ(toInts(sum(x, {0, -1})), (std::vector<int64_t>{60, 92, 124}));
  EXPECT_EQ(toInts(sum(x.permute({2, 0, 1}), {0})), toInts(sum(x, {2})));  // strided input
  EXPECT_EQ(sum(ints({1, 2}, {}, DType::I32)).dtype(), DType::I64);
  EXPECT_EQ(sum(test::bools({true, true, false})).item().toInt(), 2);
  EXPECT_EQ(sum(zeros({0})).item().toDouble(), 0.0);
  EXPECT_EQ(sum(floats({1, 2}, {}, DType::FP16)).dtype(), DType::FP16);
}

TEST(TensorReduce, Float32SumIsAccurate) {
  // 1e6 copies of 0.1f: naive float accumulation drifts by ~1e3 ulp, torch's cascade sum does not.
  const Tensor x = full({1000000}, Scalar(0.1));
  const double exact = 1000000.0 * static_cast<double>(0.1f);
  EXPECT_EQ(sum(x).item().toDouble(), static_cast<double>(static_cast<float>(exact)));
}

TEST(TensorReduce, Mean) {
  const Tensor x = floats({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(mean(x).item().toDouble(), 3.5);
  EXPECT_EQ(toDoubles(mean(x, {1})), (std::vector<double>{2, 5}));
  EXPECT_EQ(toDoubles(mean(x, {0}, true)), (std::vector<double>{2.5, 3.5, 4.5}));
  EXPECT_EQ(mean(ints({1, 2}), DType::FP64).item().toDouble(), 1.5);
  EXPECT_TRUE(std::isnan(mean(zeros({0})).item().toDouble()));
  EXPECT_EQ(errorOf([] { mean(ints({1, 2})); }),
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
}

TEST(TensorReduce, MaxMinWithIndices) {
  const Tensor x = floats({3, 7, 7, 1, 9, 2}, {2, 3});
  EXPECT_EQ(max(x).item().toDouble(), 9);
  EXPECT_EQ(min(x).item().toDouble(), 1);
  const ValuesIndices r = max(x, 1);
  EXPECT_EQ(toDoubles(r.values), (std::vector<double>{7, 9}));
  EXPECT_EQ(toInts(r.indices), (std::vector<int64_t>{1, 1}));  // ties: first index
  EXPECT_EQ(r.indices.dtype(), DType::I64);
  const ValuesIndices c = min(x, 0, true);
  EXPECT_EQ(c.values.shape(), (Shape{1, 3}));
  EXPECT_EQ(toDoubles(c.values), (std::vector<double>{1, 7, 2}));
  EXPECT_EQ(toInts(c.indices), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(max(ints({-5, -2})).dtype(), DType::I64);
  EXPECT_EQ(errorOf([] { max(zeros({0})); }),
            "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
}

TEST(TensorReduce, NanPropagatesThroughMaxAndArgmax) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = floats({1, nan, 5});
  EXPECT_TRUE(std::isnan(max(x).item().toDouble()));
  EXPECT_TRUE(std::isnan(min(x).item().toDouble()));
  EXPECT_EQ(argmax(x).item().toInt(), 1);
}

TEST(TensorReduce, Argmax) {
  const Tensor x = floats({1, 8, 3, 9, 0, 9}, {2, 3});
  EXPECT_EQ(argmax(x).item().toInt(), 3);  // flat index, first of the ties
  EXPECT_EQ(toInts(argmax(x, 1)), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(argmax(x, 1, true).shape(), (Shape{2, 1}));
  EXPECT_EQ(toInts(argmin(x, 0)), (std::vector<int64_t>{0, 1, 0}));
}

TEST(TensorReduce, AllAny) {
  EXPECT_TRUE(all(test::bools({true, true})).item().toBool());
  EXPECT_FALSE(all(test::bools({true, false})).item().toBool());
  EXPECT_TRUE(any(ints({0, 0, 3})).item().toBool());
  EXPECT_FALSE(any(zeros({4})).item().toBool());
  EXPECT_TRUE(all(zeros({0})).item().toBool());  // vacuous truth
  EXPECT_EQ(toInts(any(test::bools({false, true, false, false}, {2, 2}), 1)), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(all(ones({2})).dtype(), DType::I1);
}

TEST(TensorReduce, SeedMaxAbsDifferenceIdiom) {
  // print(torch.max(torch.abs(output_triton - output_torch))) from the vector-add tutorial.
  manualSeed(0);
  const Tensor x = rand({98432});
  const Tensor y = rand({98432});
  const Tensor d = max(abs(sub(x + y, y + x)));
  EXPECT_EQ(d.dim(), 0);
  EXPECT_EQ(d.item().toDouble(), 0.0);
}

}  // namespace
}  // namespace tilescope::host
