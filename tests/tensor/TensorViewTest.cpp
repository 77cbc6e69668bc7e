// Tensor metadata and views: shapes, strides, contiguity, view/reshape/permute/transpose, expand,
// conversions, item/tolist.
#include <gtest/gtest.h>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::toDoubles;
using test::toInts;

TEST(TensorView, AttributesOfAFreshTensor) {
  const Tensor t = zeros({2, 3, 4}, DType::FP16);
  EXPECT_EQ(t.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(t.strides(), (Shape{12, 4, 1}));
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(0), 12);
  EXPECT_EQ(t.elementSize(), 2);
  EXPECT_TRUE(t.isContiguous());
  EXPECT_FALSE(t.isCuda());
  EXPECT_EQ(t.device().str(), "cpu");
  EXPECT_EQ(zeros({2}, Device::parse("cuda")).device().str(), "cuda:0");
  EXPECT_EQ(zeros({1}, DType::I1).elementSize(), 1);
  EXPECT_EQ(zeros({1}, DType::FP64).elementSize(), 8);
  EXPECT_EQ(errorOf([&] { (void)t.size(3); }), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(TensorView, ViewInfersMinusOneAndShares) {
  Tensor x = arange(Scalar(int64_t{20}));
  Tensor v = x.view({5, -1});
  EXPECT_EQ(v.shape(), (Shape{5, 4}));
  EXPECT_EQ(v.storage(), x.storage());
  v.select(0, 1).fill_(Scalar(int64_t{-1}));
  EXPECT_EQ(toInts(x.slice(0, 3, 9)), (std::vector<int64_t>{3, -1, -1, -1, -1, 8}));
  EXPECT_EQ(x.view({2, 2, 5}).strides(), (Shape{10, 5, 1}));
  EXPECT_EQ(x.view({20, 1}).view({-1}).shape(), (Shape{20}));
}

TEST(TensorView, ViewErrorsUseTorchWording) {
  const Tensor x = arange(Scalar(int64_t{6}));
  EXPECT_EQ(errorOf([&] { x.view({4, -1}); }), "shape '[4, -1]' is invalid for input of size 6");
  EXPECT_EQ(errorOf([&] { x.view({2, 5}); }), "shape '[2, 5]' is invalid for input of size 6");
  EXPECT_EQ(errorOf([&] { x.view({-1, -1}); }), "only one dimension can be inferred");
  const Tensor t = x.view({2, 3}).t();
  EXPECT_EQ(errorOf([&] { t.view({6}); }),
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
            "contiguous subspaces). Use .reshape(...) instead.");
}

TEST(TensorView, ViewOfNonContiguousWhenChunksAllow) {
  // A transposed [4, 6] viewed as [3, 2, 4]: dims 0 of the transpose splits cleanly.
  const Tensor t = arange(Scalar(int64_t{24})).view({4, 6}).t();  // shape [6, 4], strides [1, 6]
  const Tensor v = t.view({3, 2, 4});
  EXPECT_EQ(v.strides(), (Shape{2, 1, 6}));
  EXPECT_EQ(v.at({1, 1, 2}).toInt(), t.at({3, 2}).toInt());
  // Slicing every other column keeps rows viewable.
  const Tensor s = arange(Scalar(int64_t{24})).view({4, 6}).slice(1, 0, 6, 2);  // [4, 3], strides [6, 2]
  EXPECT_EQ(s.view({2, 2, 3}).strides(), (Shape{12, 6, 2}));
}

TEST(TensorView, ReshapeCopiesOnlyWhenNeeded) {
  const Tensor x = arange(Scalar(int64_t{6})).view({2, 3});
  EXPECT_EQ(x.reshape({3, 2}).storage(), x.storage());
  const Tensor r = x.t().reshape({6});
  EXPECT_NE(r.storage(), x.storage());
  EXPECT_EQ(toInts(r), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(x.flatten().shape(), (Shape{6}));
}

TEST(TensorView, TransposePermuteAndT) {
  const Tensor x = arange(Scalar(int64_t{24})).view({2, 3, 4});
  const Tensor p = x.permute({2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Shape{1, 12, 4}));
  EXPECT_FALSE(p.isContiguous());
  EXPECT_EQ(p.at({3, 1, 2}).toInt(), x.at({1, 2, 3}).toInt());
  EXPECT_EQ(x.transpose(0, -1).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(x.T().shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(x.T().strides(), (Shape{1, 4, 12}));
  const Tensor m = x.select(0, 0);
  EXPECT_EQ(m.t().shape(), (Shape{4, 3}));
  EXPECT_TRUE(m.t().t().isContiguous());
  EXPECT_EQ(errorOf([&] { x.t(); }), "t() expects a tensor with <= 2 dimensions, but self is 3D");
  EXPECT_EQ(errorOf([&] { x.permute({0, 1}); }),
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
            "ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2");
  EXPECT_EQ(errorOf([&] { x.permute({0, 1, 1}); }), "permute(): duplicate dims are not allowed.");
}

TEST(TensorView, ContiguityIgnoresSizeOneDims) {
  const Tensor x = zeros({3, 1, 4});
  EXPECT_TRUE(x.transpose(0, 1).isContiguous());
  EXPECT_TRUE(x.unsqueeze(0).isContiguous());
  EXPECT_FALSE(x.transpose(0, 2).isContiguous());
  EXPECT_TRUE(zeros({0, 5}).t().isContiguous());  // empty tensors are contiguous
  const Tensor c = x.transpose(0, 2).contiguous();
  EXPECT_TRUE(c.isContiguous());
  EXPECT_EQ(c.shape(), (Shape{4, 1, 3}));
}

TEST(TensorView, ExpandSqueezeUnsqueeze) {
  const Tensor x = test::ints({1, 2, 3});
  const Tensor e = x.unsqueeze(0).expand({4, -1});
  EXPECT_EQ(e.shape(), (Shape{4, 3}));
  EXPECT_EQ(e.strides(), (Shape{0, 1}));
  EXPECT_EQ(toInts(e.select(0, 3)), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(x.unsqueeze(-1).shape(), (Shape{3, 1}));
  EXPECT_EQ(zeros({1, 3, 1}).squeeze().shape(), (Shape{3}));
  EXPECT_EQ(zeros({1, 3, 1}).squeeze(0).shape(), (Shape{3, 1}));
  EXPECT_EQ(zeros({1, 3, 1}).squeeze(1).shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(errorOf([&] { x.expand({2, 4}); }),
            "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
            "Target sizes: [2, 4].  Tensor sizes: [3]");
}

TEST(TensorView, ToConvertsAndAliasesWhenUnchanged) {
  const Tensor x = test::floats({1.5, -2.7, 3.99, 300.0});
  EXPECT_EQ(x.to(DType::FP32).storage(), x.storage());  // same dtype: self
  EXPECT_EQ(toInts(x.toInt()), (std::vector<int64_t>{1, -2, 3, 300}));  // truncation
  EXPECT_EQ(x.toInt().dtype(), DType::I32);
  EXPECT_EQ(toInts(x.to(DType::I8)), (std::vector<int64_t>{1, -2, 3, 44}));  // 300 wraps in int8
  EXPECT_EQ(toInts(x.toBool()), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(toDoubles(x.toHalf()), (std::vector<double>{1.5, -2.69921875, 3.990234375, 300.0}));
  EXPECT_EQ(toDoubles(test::ints({-1, 0, 7}).toDouble()), (std::vector<double>{-1, 0, 7}));
  const Tensor c = x.cuda();
  EXPECT_TRUE(c.isCuda());
  EXPECT_NE(c.storage(), x.storage());  // a device move copies
  EXPECT_EQ(c.cuda().storage(), c.storage());
  EXPECT_FALSE(c.cpu().isCuda());
  EXPECT_EQ(x.to(Device::parse("cuda:0"), DType::FP64).dtype(), DType::FP64);
}

TEST(TensorView, CloneIsIndependent) {
  Tensor x = test::floats({1, 2, 3});
  Tensor y = x.clone();
  y.fill_(Scalar(0.0));
  EXPECT_EQ(toDoubles(x), (std::vector<double>{1, 2, 3}));
  Tensor z = x.t();  // 1-D t() is the identity view
  EXPECT_EQ(z.storage(), x.storage());
}

TEST(TensorView, ItemAndTolist) {
  EXPECT_EQ(test::floats({2.5}).item().toDouble(), 2.5);
  EXPECT_TRUE(test::ints({7}).item().isInt());
  EXPECT_TRUE(test::bools({true}).item().isBool());
  EXPECT_EQ(errorOf([] { test::ints({1, 2}).item(); }), "a Tensor with 2 elements cannot be converted to Scalar");
  const Tensor m = arange(Scalar(int64_t{6})).view({2, 3});
  EXPECT_EQ(m.tolist().repr(), "[[0, 1, 2], [3, 4, 5]]");
  EXPECT_EQ(test::floats({0.5, 1.0}).tolist().repr(), "[0.5, 1.0]");
  EXPECT_EQ(test::floats({0.1}).tolist().repr(), "[0.10000000149011612]");  // float32 widened, like torch
  EXPECT_EQ(test::bools({true, false}).tolist().repr(), "[True, False]");
  EXPECT_EQ(zeros({}).tolist().repr(), "0.0");
}

TEST(TensorView, StridedCopyRoundTrip) {
  Tensor x = arange(Scalar(int64_t{12})).view({3, 4});
  Tensor dst = zeros({4, 3}, DType::I64);
  dst.copy_(x.t());
  EXPECT_EQ(toInts(dst), (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // Overlapping self-copy (shift right by one) reads before it writes.
  Tensor v = arange(Scalar(int64_t{5}));
  v.slice(0, 1, 5).copy_(v.slice(0, 0, 4));
  EXPECT_EQ(toInts(v), (std::vector<int64_t>{0, 0, 1, 2, 3}));
}

TEST(TensorView, DeviceParsing) {
  EXPECT_EQ(Device::parse("cpu"), Device());
  EXPECT_EQ(Device::parse("cuda:1").index(), 1);
  EXPECT_EQ(errorOf([] { Device::parse("tpu"); }), "Expected one of cpu, cuda device type at start of device string: tpu");
}

}  // namespace
}  // namespace tilescope::host
