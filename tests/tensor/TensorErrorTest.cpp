// User mistakes raise TensorError with torch's wording and the Python exception class torch uses.
#include <gtest/gtest.h>

#include <functional>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorReduce.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

struct ErrorCase {
  const char* what;
  std::function<void()> fn;
  const char* message;
  const char* pythonType;
};

TEST(TensorError, MessagesAndKinds) {
  const Tensor v = arange(Scalar(int64_t{4}));
  const Tensor m = zeros({2, 3});
  const ErrorCase cases[] = {
      {"broadcast", [] { zeros({3}) + zeros({4}); },
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0", "RuntimeError"},
      {"bad view", [&] { m.t().view({6}); },
       "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
       "contiguous subspaces). Use .reshape(...) instead.",
       "RuntimeError"},
      {"index out of range", [&] { const TensorIndex i[] = {int64_t{5}}; getItem(v, i); },
       "index 5 is out of bounds for dimension 0 with size 4", "IndexError"},
      {"index on a second dim", [&] { const TensorIndex i[] = {Slice{}, int64_t{3}}; getItem(m, i); },
       "index 3 is out of bounds for dimension 1 with size 3", "IndexError"},
      {"matmul dtype", [] { matmul(zeros({2, 2}), zeros({2, 2}, DType::FP64)); },
       "expected m1 and m2 to have the same dtype, but got: float != double", "RuntimeError"},
      {"dim out of range", [&] { sum(m, {2}); },
       "Dimension out of range (expected to be in range of [-2, 1], but got 2)", "IndexError"},
      {"0-dim index", [] { const TensorIndex i[] = {int64_t{0}}; getItem(zeros({}), i); },
       "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
       "0-dim tensor to a number",
       "IndexError"},
      {"negative step", [&] { v.slice(0, 0, 4, -1); }, "step must be greater than zero", "ValueError"},
      {"ragged nested list",
       [] {
         NestedValue row1{std::vector<NestedValue>{NestedValue{Scalar(int64_t{1})}, NestedValue{Scalar(int64_t{2})}}};
         NestedValue row2{std::vector<NestedValue>{NestedValue{Scalar(int64_t{3})}}};
         tensor(NestedValue{std::vector<NestedValue>{row1, row2}});
       },
       "expected sequence of length 2 at dim 1 (got 1)", "ValueError"},
      {"negative size", [] { zeros({2, -1}); }, "Trying to create tensor with negative dimension -1: [2, -1]", "RuntimeError"},
      {"arange step", [] { arange(Scalar(int64_t{0}), Scalar(int64_t{5}), Scalar(int64_t{0})); }, "step must be nonzero", "RuntimeError"},
      {"arange sign", [] { arange(Scalar(int64_t{5}), Scalar(int64_t{0}), Scalar(int64_t{1})); },
       "upper bound and larger bound inconsistent with step sign", "RuntimeError"},
      {"unsupported dtype", [] { zeros({1}, DType::U16); }, "dtype uint16 is not supported by host tensors", "TypeError"},
      {"bad dtype for item count", [] { zeros({2}).item(); }, "a Tensor with 2 elements cannot be converted to Scalar", "RuntimeError"},
  };
  for (const ErrorCase& c : cases) {
    try {
      c.fn();
      ADD_FAILURE() << c.what << ": no error";
    } catch (const TensorError& e) {
      EXPECT_EQ(std::string(e.what()), c.message) << c.what;
      EXPECT_EQ(e.pythonType(), c.pythonType) << c.what;
    }
  }
}

TEST(TensorError, IsARuntimeError) {
  try {
    zeros({3}) + zeros({4});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("non-singleton"), std::string::npos);
  }
}

TEST(TensorFactory, TensorFromNestedDataInfersDtype) {
  auto num = [](auto v) { return NestedValue{Scalar(v)}; };
  auto list = [](std::vector<NestedValue> items) { return NestedValue{std::move(items)}; };
  EXPECT_EQ(tensor(list({num(int64_t{1}), num(int64_t{2})})).dtype(), DType::I64);
  EXPECT_EQ(tensor(list({num(int64_t{1}), num(2.0)})).dtype(), DType::FP32);
  EXPECT_EQ(tensor(list({num(true), num(false)})).dtype(), DType::I1);
  EXPECT_EQ(tensor(list({num(true), num(int64_t{2})})).dtype(), DType::I64);
  EXPECT_EQ(tensor(list({})).dtype(), DType::FP32);
  EXPECT_EQ(tensor(list({})).shape(), (Shape{0}));
  EXPECT_EQ(tensor(num(3.0)).dim(), 0);
  const Tensor m = tensor(list({list({num(int64_t{1}), num(int64_t{2})}), list({num(int64_t{3}), num(int64_t{4})})}), DType::FP16);
  EXPECT_EQ(m.shape(), (Shape{2, 2}));
  EXPECT_EQ(m.dtype(), DType::FP16);
  EXPECT_EQ(test::toDoubles(m), (std::vector<double>{1, 2, 3, 4}));
}

TEST(TensorFactory, ArangeFullAndLikeFactories) {
  EXPECT_EQ(arange(Scalar(int64_t{5})).dtype(), DType::I64);
  EXPECT_EQ(arange(Scalar(5.0)).dtype(), DType::FP32);
  EXPECT_EQ(test::toDoubles(arange(Scalar(0.0), Scalar(1.0), Scalar(0.25))), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(arange(Scalar(0.0), Scalar(1.0), Scalar(0.1)).numel(), 10);
  EXPECT_EQ(test::toInts(arange(Scalar(int64_t{10}), Scalar(int64_t{0}), Scalar(int64_t{-3}))), (std::vector<int64_t>{10, 7, 4, 1}));
  EXPECT_EQ(arange(Scalar(int64_t{3}), DType::FP64).dtype(), DType::FP64);
  EXPECT_EQ(full({2}, Scalar(int64_t{3})).dtype(), DType::I64);
  EXPECT_EQ(full({2}, Scalar(true)).dtype(), DType::I1);
  EXPECT_EQ(full({2}, Scalar(1.5)).dtype(), DType::FP32);
  EXPECT_EQ(test::toDoubles(fullLike(zeros({2}, DType::FP16), Scalar(0.1))), (std::vector<double>{0.0999755859375, 0.0999755859375}));
  // *_like keeps the input's stride order (torch's preserve_format).
  const Tensor t = zeros({3, 4}).t();
  const Tensor e = emptyLike(t);
  EXPECT_EQ(e.shape(), (Shape{4, 3}));
  EXPECT_EQ(e.strides(), t.strides());
  EXPECT_EQ(zerosLike(t, DType::I32).dtype(), DType::I32);
  EXPECT_EQ(onesLike(zeros({2}, Device::parse("cuda"))).device().str(), "cuda:0");
}

}  // namespace
}  // namespace tilescope::host
