// Python subscripts on tensors: basic indexing (views), advanced indexing (copies), and writes.
#include <gtest/gtest.h>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorOps.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::errorOf;
using test::toInts;
using Ix = std::vector<TensorIndex>;

Tensor grid34() { return arange(Scalar(int64_t{12})).view({3, 4}); }

Tensor get(const Tensor& t, const Ix& ix) { return getItem(t, ix); }
void set(const Tensor& t, const Ix& ix, const TensorOrScalar& v) { setItem(t, ix, v); }

TEST(TensorIndexing, IntsAndNegativeInts) {
  const Tensor x = grid34();
  EXPECT_EQ(toInts(get(x, {int64_t{1}})), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(get(x, {int64_t{-1}, int64_t{-2}}).item().toInt(), 10);
  EXPECT_EQ(get(x, {int64_t{2}, int64_t{3}}).dim(), 0);
  EXPECT_EQ(get(x, {int64_t{1}}).storage(), x.storage());  // basic indexing is a view
}

TEST(TensorIndexing, SlicesWithSteps) {
  const Tensor x = arange(Scalar(int64_t{10}));
  EXPECT_EQ(toInts(get(x, {Slice{1, 8, 3}})), (std::vector<int64_t>{1, 4, 7}));
  EXPECT_EQ(toInts(get(x, {Slice{std::nullopt, std::nullopt, 4}})), (std::vector<int64_t>{0, 4, 8}));
  EXPECT_EQ(toInts(get(x, {Slice{-3, std::nullopt, std::nullopt}})), (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(get(x, {Slice{8, 2, std::nullopt}}).numel(), 0);    // empty, not an error
  EXPECT_EQ(toInts(get(x, {Slice{-100, 2, std::nullopt}})), (std::vector<int64_t>{0, 1}));  // clamped
  const Tensor cols = get(grid34(), {Slice{}, Slice{1, std::nullopt, 2}});
  EXPECT_EQ(cols.shape(), (Shape{3, 2}));
  EXPECT_EQ(cols.strides(), (Shape{4, 2}));
  EXPECT_EQ(toInts(cols), (std::vector<int64_t>{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(errorOf([&] { get(x, {Slice{std::nullopt, std::nullopt, -1}}); }), "step must be greater than zero");
}

TEST(TensorIndexing, NoneAndEllipsis) {
  const Tensor v = arange(Scalar(int64_t{4}));
  EXPECT_EQ(get(v, {Slice{}, NewAxis{}}).shape(), (Shape{4, 1}));
  EXPECT_EQ(get(v, {NewAxis{}, Slice{}}).shape(), (Shape{1, 4}));
  const Tensor x = zeros({2, 3, 4, 5});
  EXPECT_EQ(get(x, {EllipsisIndex{}, int64_t{0}}).shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(get(x, {int64_t{1}, EllipsisIndex{}, Slice{0, 2}}).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(get(x, {EllipsisIndex{}, NewAxis{}}).shape(), (Shape{2, 3, 4, 5, 1}));
  EXPECT_EQ(get(x, {true}).shape(), (Shape{1, 2, 3, 4, 5}));
  EXPECT_EQ(errorOf([&] { get(x, {EllipsisIndex{}, EllipsisIndex{}}); }), "an index can only have a single ellipsis ('...')");
}

TEST(TensorIndexing, BooleanMaskRead) {
  const Tensor x = grid34();
  const Tensor mask = gt(x, Scalar(int64_t{6}));
  const Tensor picked = get(x, {mask});
  EXPECT_EQ(picked.shape(), (Shape{5}));
  EXPECT_EQ(toInts(picked), (std::vector<int64_t>{7, 8, 9, 10, 11}));
  // A 1-D mask on the rows keeps whole rows.
  const Tensor rows = get(x, {test::bools({true, false, true})});
  EXPECT_EQ(rows.shape(), (Shape{2, 4}));
  EXPECT_EQ(toInts(rows.select(0, 1)), (std::vector<int64_t>{8, 9, 10, 11}));
  EXPECT_EQ(errorOf([&] { get(x, {test::bools({true, false})}); }),
            "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0");
}

TEST(TensorIndexing, IntegerIndexTensorsGather) {
  const Tensor x = grid34();
  const Tensor rows = get(x, {test::ints({2, 0, -1})});
  EXPECT_EQ(rows.shape(), (Shape{3, 4}));
  EXPECT_EQ(toInts(rows.select(1, 0)), (std::vector<int64_t>{8, 0, 8}));
  EXPECT_NE(rows.storage(), x.storage());  // advanced indexing copies
  const Tensor cols = get(x, {Slice{}, test::ints({3, 1})});
  EXPECT_EQ(cols.shape(), (Shape{3, 2}));
  EXPECT_EQ(toInts(cols), (std::vector<int64_t>{3, 1, 7, 5, 11, 9}));
  // Two index tensors pair up elementwise (and broadcast).
  EXPECT_EQ(toInts(get(x, {test::ints({0, 2}), test::ints({1, 3})})), (std::vector<int64_t>{1, 11}));
  const Tensor outer = get(x, {test::ints({0, 2}, {2, 1}), test::ints({1, 3})});
  EXPECT_EQ(outer.shape(), (Shape{2, 2}));
  EXPECT_EQ(toInts(outer), (std::vector<int64_t>{1, 3, 9, 11}));
  // A 2-D index tensor on one axis.
  EXPECT_EQ(get(arange(Scalar(int64_t{5})), {test::ints({0, 1, 2, 3}, {2, 2})}).shape(), (Shape{2, 2}));
}

TEST(TensorIndexing, NonAdjacentAdvancedIndicesGoFirst) {
  const Tensor x = arange(Scalar(int64_t{24})).view({2, 3, 4});
  const Tensor r = get(x, {test::ints({0, 1}), Slice{}, test::ints({1, 2})});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(toInts(r), (std::vector<int64_t>{1, 5, 9, 14, 18, 22}));
  // Adjacent ones stay in place.
  const Tensor a = get(x, {Slice{}, test::ints({0, 2}), test::ints({1, 3})});
  EXPECT_EQ(a.shape(), (Shape{2, 2}));
  EXPECT_EQ(toInts(a), (std::vector<int64_t>{1, 11, 13, 23}));
}

TEST(TensorIndexing, ReadErrors) {
  const Tensor x = arange(Scalar(int64_t{4}));
  EXPECT_EQ(errorOf([&] { get(x, {int64_t{5}}); }), "index 5 is out of bounds for dimension 0 with size 4");
  EXPECT_EQ(errorOf([&] { get(x, {int64_t{-5}}); }), "index -5 is out of bounds for dimension 0 with size 4");
  EXPECT_EQ(errorOf([&] { get(x, {test::ints({1, 4})}); }), "index 4 is out of bounds for dimension 0 with size 4");
  EXPECT_EQ(errorOf([&] { get(x, {int64_t{0}, int64_t{0}}); }), "too many indices for tensor of dimension 1");
  EXPECT_EQ(errorOf([&] { get(x, {test::floats({1.0})}); }), "tensors used as indices must be long, int, byte or bool tensors");
  try {
    get(x, {int64_t{9}});
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_EQ(e.pythonType(), "IndexError");
  }
}

TEST(TensorIndexing, WriteScalarThroughBasicIndex) {
  Tensor x = grid34();
  set(x, {int64_t{1}}, Scalar(int64_t{-1}));
  set(x, {Slice{}, int64_t{0}}, Scalar(2.9));  // float into int64 truncates
  EXPECT_EQ(toInts(x), (std::vector<int64_t>{2, 1, 2, 3, 2, -1, -1, -1, 2, 9, 10, 11}));
}

TEST(TensorIndexing, WriteTensorWithBroadcasting) {
  Tensor x = zeros({3, 4});
  set(x, {Slice{0, 2}}, test::floats({1, 2, 3, 4}));  // row broadcast to [2, 4]
  set(x, {int64_t{2}, Slice{1, std::nullopt, 2}}, test::floats({7, 8}));
  EXPECT_EQ(test::toDoubles(x), (std::vector<double>{1, 2, 3, 4, 1, 2, 3, 4, 0, 7, 0, 8}));
  // Leading size-1 dims of the value are dropped like torch's setitem.
  set(x, {int64_t{0}}, test::floats({9, 9, 9, 9}, {1, 4}));
  EXPECT_EQ(x.at({0, 3}).toDouble(), 9.0);
  EXPECT_EQ(errorOf([&] { set(x, {Slice{0, 3}}, test::floats({1, 2})); }),
            "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 1.  "
            "Target sizes: [3, 4].  Tensor sizes: [2]");
}

TEST(TensorIndexing, WriteThroughMaskAndIndexTensors) {
  Tensor x = arange(Scalar(int64_t{6})).toFloat();
  set(x, {lt(x, Scalar(int64_t{3}))}, Scalar(-1.0));
  EXPECT_EQ(test::toDoubles(x), (std::vector<double>{-1, -1, -1, 3, 4, 5}));
  set(x, {test::ints({5, 3})}, test::floats({50, 30}));
  EXPECT_EQ(test::toDoubles(x), (std::vector<double>{-1, -1, -1, 30, 4, 50}));
  Tensor m = zeros({2, 3}, DType::I32);
  set(m, {Slice{}, test::ints({0, 2})}, test::ints({1, 2}, {}, DType::I32));  // [2] broadcast to [2, 2]
  EXPECT_EQ(toInts(m), (std::vector<int64_t>{1, 0, 2, 1, 0, 2}));
}

TEST(TensorIndexing, SelfAssignmentReadsBeforeWriting) {
  Tensor x = arange(Scalar(int64_t{5}));
  set(x, {test::ints({1, 2, 3, 4})}, get(x, {Slice{0, 4}}));
  EXPECT_EQ(toInts(x), (std::vector<int64_t>{0, 0, 1, 2, 3}));
}

TEST(TensorIndexing, Nonzero) {
  const Tensor nz = nonzero(test::ints({0, 3, 0, 4}, {2, 2}));
  EXPECT_EQ(nz.shape(), (Shape{2, 2}));
  EXPECT_EQ(toInts(nz), (std::vector<int64_t>{0, 1, 1, 1}));
}

}  // namespace
}  // namespace tilescope::host
