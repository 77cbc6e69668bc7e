// str(tensor) must be character-for-character what torch prints (torch/_tensor_str.py, default options).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TorchRandom.h"
#include "tests/tensor/TensorTestUtil.h"

namespace tilescope::host {
namespace {

using test::floats;
using test::ints;

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(TensorPrinter, SeedTutorialOutputs) {
  // x = torch.tensor([1,2,3,4,5,6]); x, z  ->  (tensor([1, 2, 3, 4, 5, 6]), tensor([1, 2, 3, 4, 5, 6]))
  const Tensor x = ints({1, 2, 3, 4, 5, 6});
  EXPECT_EQ("(" + toString(x) + ", " + toString(x.clone()) + ")",
            "(tensor([1, 2, 3, 4, 5, 6]), tensor([1, 2, 3, 4, 5, 6]))");
  EXPECT_EQ(toString(ints({1, 2, 0, 0, 0, 0})), "tensor([1, 2, 0, 0, 0, 0])");
  // x = torch.arange(20, device='cuda').view(5, 4); z = -torch.ones_like(x)
  const Tensor grid = arange(Scalar(int64_t{20}), Device::parse("cuda")).view({5, 4});
  EXPECT_EQ(toString(grid),
            "tensor([[ 0,  1,  2,  3],\n"
            "        [ 4,  5,  6,  7],\n"
            "        [ 8,  9, 10, 11],\n"
            "        [12, 13, 14, 15],\n"
            "        [16, 17, 18, 19]], device='cuda:0')");
  EXPECT_EQ(toString(-onesLike(grid)),
            "tensor([[-1, -1, -1, -1],\n"
            "        [-1, -1, -1, -1],\n"
            "        [-1, -1, -1, -1],\n"
            "        [-1, -1, -1, -1],\n"
            "        [-1, -1, -1, -1]], device='cuda:0')");
  EXPECT_EQ(toString(ones({3, 5})),
            "tensor([[1., 1., 1., 1., 1.],\n"
            "        [1., 1., 1., 1., 1.],\n"
            "        [1., 1., 1., 1., 1.]])");
}

TEST(TensorPrinter, RandomValuesFromSeedZero) {
  manualSeed(0);
  EXPECT_EQ(toString(rand({3})), "tensor([0.4963, 0.7682, 0.0885])");
  manualSeed(0);
  EXPECT_EQ(toString(randn({3})), "tensor([ 1.5410, -0.2934, -2.1788])");
  manualSeed(0);
  EXPECT_EQ(toString(randn({4, 4})),
            "tensor([[-1.1258, -1.1524, -0.2506, -0.4339],\n"
            "        [ 0.8487,  0.6920, -0.3160, -2.1152],\n"
            "        [ 0.3223, -1.2633,  0.3500,  0.3081],\n"
            "        [ 0.1198,  1.2377,  1.1168, -0.2473]])");
}

struct PrintCase {
  const char* what;
  Tensor tensor;
  const char* expected;
};

TEST(TensorPrinter, FormattingModes) {
  const PrintCase cases[] = {
      {"integer-valued floats", floats({1, 2, 3}), "tensor([1., 2., 3.])"},
      {"int mode keeps the sign column", floats({-1, 0, 1}), "tensor([-1.,  0.,  1.])"},
      {"fixed with alignment", floats({1.5, -2.25, 10.0, 0.125}, {2, 2}),
       "tensor([[ 1.5000, -2.2500],\n        [10.0000,  0.1250]])"},
      {"small values switch to scientific", floats({1e-5, 1.0}), "tensor([1.0000e-05, 1.0000e+00])"},
      {"negative scientific", floats({-1e-5, 2.0}), "tensor([-1.0000e-05,  2.0000e+00])"},
      {"ratio > 1000 of integer floats is scientific", floats({1, 2000}), "tensor([1.0000e+00, 2.0000e+03])"},
      {"above 1e8 is scientific", floats({1e9, 1.0}), "tensor([1.0000e+09, 1.0000e+00])"},
      {"nonfinite values", floats({1.0, kInf, kNan}), "tensor([1., inf, nan])"},
      {"all zero", zeros({2, 3}), "tensor([[0., 0., 0.],\n        [0., 0., 0.]])"},
      {"bool", test::bools({true, false}), "tensor([ True, False])"},
      {"0-dim float", floats({3.5}).reshape({}), "tensor(3.5000)"},
      {"0-dim integer-valued float", floats({2}).reshape({}), "tensor(2.)"},
      {"0-dim int", ints({-7}).reshape({}), "tensor(-7)"},
      {"3-D", arange(Scalar(int64_t{8})).view({2, 2, 2}), "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])"},
  };
  for (const PrintCase& c : cases) EXPECT_EQ(toString(c.tensor), c.expected) << c.what;
}

TEST(TensorPrinter, DtypeDeviceAndSizeSuffixes) {
  EXPECT_EQ(toString(floats({1.5, 2.0}, {}, DType::FP16)), "tensor([1.5000, 2.0000], dtype=torch.float16)");
  EXPECT_EQ(toString(floats({1.5}, {}, DType::BF16)), "tensor([1.5000], dtype=torch.bfloat16)");
  EXPECT_EQ(toString(ones({3}, Device::parse("cuda"))), "tensor([1., 1., 1.], device='cuda:0')");
  EXPECT_EQ(toString(zeros({2}, {DType::I32, Device::parse("cuda")})), "tensor([0, 0], device='cuda:0', dtype=torch.int32)");
  EXPECT_EQ(toString(floats({1}, {}, DType::FP64)), "tensor([1.], dtype=torch.float64)");
  EXPECT_EQ(toString(ints({1})), "tensor([1])");  // int64 and bool are default-looking
  EXPECT_EQ(toString(ints({1}, {}, DType::U8)), "tensor([1], dtype=torch.uint8)");
  EXPECT_EQ(toString(zeros({0})), "tensor([])");
  EXPECT_EQ(toString(zeros({0, 3})), "tensor([], size=(0, 3))");
  EXPECT_EQ(toString(zeros({0}, DType::I64)), "tensor([], dtype=torch.int64)");
}

TEST(TensorPrinter, LineWrapping) {
  EXPECT_EQ(toString(arange(Scalar(int64_t{20})) / Scalar(int64_t{3})),
            "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
            "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n"
            "        6.0000, 6.3333])");
  // The width of an all-zero tensor is 1 although "0." has 2 characters, so torch overshoots 80 columns
  // and then moves the dtype suffix to its own line.
  EXPECT_EQ(toString(zeros({20}, DType::FP16)),
            "tensor([0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.],\n"
            "       dtype=torch.float16)");
}

TEST(TensorPrinter, SummarisesAboveThreshold) {
  EXPECT_EQ(toString(arange(Scalar(int64_t{2000}))), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
  EXPECT_EQ(toString(arange(Scalar(2000.0))),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])");
  EXPECT_EQ(toString(ones({40, 40})),
            "tensor([[1., 1., 1.,  ..., 1., 1., 1.],\n"
            "        [1., 1., 1.,  ..., 1., 1., 1.],\n"
            "        [1., 1., 1.,  ..., 1., 1., 1.],\n"
            "        ...,\n"
            "        [1., 1., 1.,  ..., 1., 1., 1.],\n"
            "        [1., 1., 1.,  ..., 1., 1., 1.],\n"
            "        [1., 1., 1.,  ..., 1., 1., 1.]])");
  const std::string row = "[0., 0., 0.,  ..., 0., 0., 0.]";
  const std::string block = "[" + row + ",\n         " + row + "]";
  std::string expected = "tensor([";
  for (int i = 0; i < 3; ++i) expected += block + ",\n\n        ";
  expected += "...,\n\n        ";
  for (int i = 0; i < 3; ++i) expected += block + (i < 2 ? ",\n\n        " : "])");
  EXPECT_EQ(toString(zeros({8, 2, 70})), expected);
  // Exactly at the threshold nothing is summarised.
  EXPECT_EQ(toString(zeros({1000})).find("..."), std::string::npos);
}

TEST(TensorPrinter, SummaryUsesOnlyShownValuesForTheFormat) {
  // The huge middle value is not shown, so it must not force scientific mode or widen the columns.
  Tensor x = arange(Scalar(int64_t{2000})) / Scalar(int64_t{100}) + Scalar(int64_t{1});
  x.select(0, 1000).fill_(Scalar(1e9));
  EXPECT_EQ(toString(x), "tensor([ 1.0000,  1.0100,  1.0200,  ..., 20.9700, 20.9800, 20.9900])");
}

TEST(TensorPrinter, PrintOptions) {
  PrintOptions o;
  o.precision = 2;
  EXPECT_EQ(toString(floats({1.12345}), o), "tensor([1.12])");
  o = PrintOptions();
  o.threshold = 5;
  EXPECT_EQ(toString(arange(Scalar(int64_t{10})), o), "tensor([0, 1, 2,  ..., 7, 8, 9])");
  o = PrintOptions();
  o.sciMode = false;
  // torch measures the column width before applying the override, so the fixed values keep the
  // scientific width.
  EXPECT_EQ(toString(floats({1e-5, 1.0}), o), "tensor([    0.0000,     1.0000])");
}

}  // namespace
}  // namespace tilescope::host
