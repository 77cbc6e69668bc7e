// Elementwise operations: broadcasting, Python-style // and %, true division, pow, comparisons,
// bitwise ops, unary math, where/clamp/maximum, fp16 rounding and in-place ops.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::floats;
using test::ints;
using test::toDoubles;
using test::toInts;

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(TensorOps, BroadcastingShapesAndValues) {
  const Tensor col = arange(Scalar(int64_t{3})).view({3, 1});
  const Tensor row = arange(Scalar(int64_t{4})) * Scalar(int64_t{10});
  const Tensor sum = col + row;
  EXPECT_EQ(sum.shape(), (Shape{3, 4}));
  EXPECT_EQ(toInts(sum), (std::vector<int64_t>{0, 10, 20, 30, 1, 11, 21, 31, 2, 12, 22, 32}));
  EXPECT_EQ((zeros({2, 1, 5}) + zeros({3, 1})).shape(), (Shape{2, 3, 5}));
  EXPECT_EQ((zeros({}) + zeros({4})).shape(), (Shape{4}));
  EXPECT_EQ((zeros({0, 3}) + zeros({3})).shape(), (Shape{0, 3}));
  // Non-contiguous operands.
  const Tensor t = arange(Scalar(int64_t{6})).view({2, 3}).t();
  EXPECT_EQ(toInts(t + t), (std::vector<int64_t>{0, 6, 2, 8, 4, 10}));
}

TEST(TensorOps, BroadcastErrors) {
  EXPECT_EQ(errorOf([] { floats({1, 2, 3}) + floats({1, 2, 3, 4}); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  EXPECT_EQ(errorOf([] { zeros({2, 3}) + zeros({2, 4}); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(errorOf([] { zeros({5, 2, 3}) * zeros({4, 1, 1}); }),
            "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0");
  EXPECT_EQ(errorOf([] { zeros({3}) + zeros({3}, Device::parse("cuda")); }),
            "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!");
}

struct DivModCase {
  double a, b, floorDiv, mod;
};

TEST(TensorOps, FloorDivAndModFollowPython) {
  const DivModCase intCases[] = {{7, 2, 3, 1}, {-7, 2, -4, 1}, {7, -2, -4, -1}, {-7, -2, 3, -1}, {6, 3, 2, 0}, {-6, 3, -2, 0}};
  for (const auto& c : intCases) {
    const Tensor a = ints({static_cast<int64_t>(c.a)}), b = ints({static_cast<int64_t>(c.b)});
    EXPECT_EQ(floorDivide(a, b).item().toInt(), static_cast<int64_t>(c.floorDiv)) << c.a << " // " << c.b;
    EXPECT_EQ((a % b).item().toInt(), static_cast<int64_t>(c.mod)) << c.a << " % " << c.b;
    EXPECT_EQ(floorDivide(a, b).dtype(), DType::I64);
  }
  const DivModCase floatCases[] = {{7.5, 2, 3, 1.5}, {-7.5, 2, -4, 0.5}, {7.5, -2, -4, -0.5}, {-7.5, -2, 3, -1.5}};
  for (const auto& c : floatCases) {
    const Tensor a = floats({c.a}), b = floats({c.b});
    EXPECT_EQ(floorDivide(a, b).item().toDouble(), c.floorDiv) << c.a << " // " << c.b;
    EXPECT_EQ((a % Scalar(c.b)).item().toDouble(), c.mod) << c.a << " % " << c.b;
  }
  EXPECT_EQ(toDoubles(floorDivide(floats({1, -1}), Scalar(0.0))), (std::vector<double>{kInf, -kInf}));
  EXPECT_TRUE(std::isnan(floorDivide(floats({0}), Scalar(0.0)).item().toDouble()));
  EXPECT_EQ(errorOf([] { floorDivide(ints({1}), Scalar(int64_t{0})); }), "ZeroDivisionError");
  EXPECT_EQ(errorOf([] { ints({1}) % ints({0}); }), "ZeroDivisionError");
  EXPECT_EQ(floorDivide(ints({std::numeric_limits<int64_t>::min()}), Scalar(int64_t{-1})).item().toInt(),
            std::numeric_limits<int64_t>::min());  // wraps like torch, no trap
}

TEST(TensorOps, TrueDivisionOfIntegersIsFloat32) {
  const Tensor q = ints({1, 2, 3}) / ints({2, 2, 2});
  EXPECT_EQ(q.dtype(), DType::FP32);
  EXPECT_EQ(toDoubles(q), (std::vector<double>{0.5, 1.0, 1.5}));
  EXPECT_EQ(toDoubles(Scalar(int64_t{1}) / ints({4})), (std::vector<double>{0.25}));
  const auto byZero = toDoubles(ints({1, -1, 0}) / Scalar(int64_t{0}));
  EXPECT_EQ(byZero[0], kInf);
  EXPECT_EQ(byZero[1], -kInf);
  EXPECT_TRUE(std::isnan(byZero[2]));
}

TEST(TensorOps, Pow) {
  EXPECT_EQ(toInts(pow(ints({2, 3, -2}), Scalar(int64_t{3}))), (std::vector<int64_t>{8, 27, -8}));
  EXPECT_EQ(pow(ints({2}), Scalar(int64_t{3})).dtype(), DType::I64);
  EXPECT_EQ(toDoubles(pow(floats({4, 9}), Scalar(0.5))), (std::vector<double>{2, 3}));
  EXPECT_EQ(toDoubles(pow(ints({4}), Scalar(0.5))), (std::vector<double>{2}));
  EXPECT_EQ(toDoubles(pow(floats({2, 3}), floats({3, 2}))), (std::vector<double>{8, 9}));
  EXPECT_EQ(toDoubles(pow(Scalar(2.0), floats({0, 1, 10}))), (std::vector<double>{1, 2, 1024}));
  EXPECT_EQ(toInts(pow(ints({1, -1, 2}), ints({-3, -3, -1}))), (std::vector<int64_t>{1, -1, 0}));
  EXPECT_EQ(errorOf([] { pow(ints({2}), Scalar(int64_t{-1})); }), "Integers to negative integer powers are not allowed.");
}

TEST(TensorOps, ComparisonsGiveBool) {
  const Tensor x = ints({1, 2, 3});
  const Tensor lt25 = x < Scalar(2.5);
  EXPECT_EQ(lt25.dtype(), DType::I1);
  EXPECT_EQ(toInts(lt25), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(toInts(x == floats({1.0, 2.5, 3.0})), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(toInts(ge(x, Scalar(int64_t{2}))), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(toInts(ne(floats({kNan}), floats({kNan}))), (std::vector<int64_t>{1}));
  EXPECT_EQ(toInts(eq(floats({kNan}), floats({kNan}))), (std::vector<int64_t>{0}));
}

TEST(TensorOps, BitwiseOps) {
  EXPECT_EQ(toInts(ints({12}) & ints({10})), (std::vector<int64_t>{8}));
  EXPECT_EQ(toInts(ints({12}) | ints({10})), (std::vector<int64_t>{14}));
  EXPECT_EQ(toInts(ints({12}) ^ ints({10})), (std::vector<int64_t>{6}));
  EXPECT_EQ(toInts(~ints({0, 5})), (std::vector<int64_t>{-1, -6}));
  const Tensor m = test::bools({true, false, true}) & test::bools({true, true, false});
  EXPECT_EQ(m.dtype(), DType::I1);
  EXPECT_EQ(toInts(m), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(toInts(~test::bools({true, false})), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(errorOf([] { floats({1}) & floats({1}); }), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(errorOf([] { ~floats({1}); }), "\"bitwise_not_cpu\" not implemented for 'Float'");
}

TEST(TensorOps, UnaryMathPromotesIntegersToFloat32) {
  const Tensor e = exp(ints({0, 1}));
  EXPECT_EQ(e.dtype(), DType::FP32);
  EXPECT_FLOAT_EQ(static_cast<float>(toDoubles(e)[1]), std::exp(1.0f));
  EXPECT_EQ(toDoubles(sqrt(ints({4, 9}))), (std::vector<double>{2, 3}));
  EXPECT_EQ(log(floats({1}, {}, DType::FP64)).dtype(), DType::FP64);
  EXPECT_EQ(toDoubles(abs(floats({-1.5, 2}))), (std::vector<double>{1.5, 2}));
  EXPECT_EQ(toInts(abs(ints({-3}, {}, DType::I8))), (std::vector<int64_t>{3}));
  EXPECT_EQ(toInts(-ints({-128}, {}, DType::I8)), (std::vector<int64_t>{-128}));  // wraps
  EXPECT_EQ(toDoubles(-floats({1, -2})), (std::vector<double>{-1, 2}));
  EXPECT_EQ(toDoubles(unary(UnaryOp::Round, floats({0.5, 1.5, 2.5, -0.5}))), (std::vector<double>{0, 2, 2, -0.0}));
  EXPECT_EQ(toDoubles(unary(UnaryOp::Sigmoid, floats({0}))), (std::vector<double>{0.5}));
  EXPECT_EQ(errorOf([] { -test::bools({true}); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
            "`~` or `logical_not()` operator instead.");
  EXPECT_EQ(errorOf([] { test::bools({true}) - test::bools({true}); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
            "operator instead.");
}

TEST(TensorOps, IntegerArithmeticWraps) {
  EXPECT_EQ(toInts(ints({std::numeric_limits<int64_t>::max()}) + Scalar(int64_t{1})),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(toInts(ints({2147483647}, {}, DType::I32) + Scalar(int64_t{1})), (std::vector<int64_t>{-2147483648LL}));
  EXPECT_EQ(toInts(ints({200}, {}, DType::U8) + ints({100}, {}, DType::U8)), (std::vector<int64_t>{44}));
  EXPECT_EQ(toInts(ints({300}, {}, DType::I16) * ints({300}, {}, DType::I16)), (std::vector<int64_t>{24464}));
  // bool + bool is logical or, bool * bool logical and
  EXPECT_EQ(toInts(test::bools({true, false}) + test::bools({true, false})), (std::vector<int64_t>{1, 0}));
}

TEST(TensorOps, HalfArithmeticRoundsOnceToNearestEven) {
  const Tensor one = floats({1.0}, {}, DType::FP16);
  const Tensor halfUlp = floats({0x1p-11}, {}, DType::FP16);
  const Tensor sum = one + halfUlp;
  EXPECT_EQ(sum.dtype(), DType::FP16);
  EXPECT_EQ(sum.item().toDouble(), 1.0);  // tie to even
  EXPECT_EQ((one + floats({3 * 0x1p-11}, {}, DType::FP16)).item().toDouble(), 1.001953125);  // tie up to even
  EXPECT_EQ((floats({60000}, {}, DType::FP16) * Scalar(2.0)).item().toDouble(), kInf);     // overflow to inf
  EXPECT_EQ((floats({1.0}, {}, DType::BF16) + floats({0x1p-8}, {}, DType::BF16)).item().toDouble(), 1.0);
  EXPECT_EQ((floats({1.0}, {}, DType::FP16) + floats({1.0}, {}, DType::BF16)).dtype(), DType::FP32);
}

TEST(TensorOps, WhereClampMaximumMinimum) {
  const Tensor cond = test::bools({true, false, true});
  const Tensor w = where(cond, ints({1, 2, 3}), Scalar(2.5));
  EXPECT_EQ(w.dtype(), DType::FP32);
  EXPECT_EQ(toDoubles(w), (std::vector<double>{1, 2.5, 3}));
  EXPECT_EQ(toInts(where(cond.view({3, 1}), ints({1, 2}), ints({0}))), (std::vector<int64_t>{1, 2, 0, 0, 1, 2}));
  EXPECT_EQ(errorOf([] { where(ints({1}), ints({1}), ints({1})); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Long");

  const auto c = toDoubles(clamp(floats({-1, 0.5, 2, kNan}), Scalar(0.0), Scalar(1.0)));
  EXPECT_EQ(c[0], 0.0);
  EXPECT_EQ(c[1], 0.5);
  EXPECT_EQ(c[2], 1.0);
  EXPECT_TRUE(std::isnan(c[3]));
  EXPECT_EQ(toInts(clamp(ints({-5, 5}), Scalar(int64_t{0}), std::nullopt)), (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(clamp(ints({1}), Scalar(0.5), std::nullopt).dtype(), DType::FP32);

  const auto mx = toDoubles(maximum(floats({1, kNan, 3}), floats({2, 0, -1})));
  EXPECT_EQ(mx[0], 2);
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 3);
  EXPECT_EQ(toInts(minimum(ints({1, 5}), ints({3, 2}))), (std::vector<int64_t>{1, 2}));
}

TEST(TensorOps, InPlaceOpsKeepDtypeAndCheckCasts) {
  Tensor x = floats({1, 2, 3});
  const auto storage = x.storage();
  binaryInPlace(BinaryOp::Add, x, ints({1, 1, 1}));
  EXPECT_EQ(x.storage(), storage);
  EXPECT_EQ(toDoubles(x), (std::vector<double>{2, 3, 4}));
  Tensor i = ints({1, 2});
  binaryInPlace(BinaryOp::Mul, i, Scalar(int64_t{3}));
  EXPECT_EQ(toInts(i), (std::vector<int64_t>{3, 6}));
  EXPECT_EQ(errorOf([&] { binaryInPlace(BinaryOp::Add, i, Scalar(1.5)); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(errorOf([&] { binaryInPlace(BinaryOp::Add, x, zeros({2, 3})); }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST(TensorOps, LargeContiguousAddIsCorrect) {
  // 2^24 elements: the vectorised path of the kernel (checked for values; speed is measured separately).
  const int64_t n = int64_t{1} << 24;
  const Tensor a = arange(Scalar(int64_t{0}), Scalar(n), Scalar(int64_t{1}), DType::FP32);
  const Tensor b = full({n}, Scalar(0.5));
  const Tensor c = a + b;
  const float* p = c.data<float>();
  EXPECT_EQ(p[0], 0.5f);
  EXPECT_EQ(p[12345], 12345.5f);
  EXPECT_EQ(p[n - 1], static_cast<float>(static_cast<double>(n - 1) + 0.5));
}

}  // namespace
}  // namespace tilescope::host
