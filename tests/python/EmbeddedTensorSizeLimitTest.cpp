// Shapes too large for 64-bit element counts or for this machine's memory are clear RuntimeErrors or
// MemoryErrors naming the shape (issue 27): never a count that wraps around to a small buffer, which
// crashed on the first index or wrote past the end. Host code on embedded CPython.
#include <gtest/gtest.h>

#include "core/tensor/Tensor.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorReorder.h"
#include "tests/python/PythonTestUtil.h"

namespace tilescope::host {
namespace {

using testing::scriptError;
using testing::scriptOut;

TEST(EmbeddedTensorSizeLimit, ElementCountsThatOverflowAreRuntimeErrorsNamingTheShape) {
  EXPECT_EQ(scriptError("import torch\nx = torch.zeros((1 << 32, 1 << 32))\nprint(x[0, 0])\n"),
            "RuntimeError: the shape [4294967296, 4294967296] has more elements than a tensor can hold (at most 2^63 - 1, "
            "and far fewer fit in memory)");
  // 4 * (2^62 + 1) wraps around to 4: a 4-element buffer for a tensor that claims 2^62 + 1 rows.
  EXPECT_NE(scriptError("import torch\nx = torch.zeros((2**62 + 1, 4))\nx[2**62, 3] = 1.0\n")
                .find("RuntimeError: the shape [4611686018427387905, 4] has more elements"),
            std::string::npos);
  EXPECT_NE(scriptError("import torch\ntorch.empty((2**21, 2**21, 2**21, 4), dtype=torch.int8)\n").find("[2097152, 2097152, 2097152, 4]"),
            std::string::npos);
  // A zero size makes the count 0, but the strides of the other dims would still overflow.
  EXPECT_NE(scriptError("import torch\ntorch.zeros((0, 2**40, 2**40))\n").find("RuntimeError: the shape [0, 1099511627776, 1099511627776]"),
            std::string::npos);
}

TEST(EmbeddedTensorSizeLimit, ShapesLargerThanMemoryAreMemoryErrors) {
  // 2^58 floats: 1 EiB, more than any machine this runs on.
  const std::string e = scriptError("import torch\ntorch.zeros(2**58)\n");
  EXPECT_EQ(e.rfind("MemoryError: cannot allocate a torch.float32 tensor of shape [288230376151711744]: it needs "
                    "1152921504606846976 bytes (1073741824.0 GiB) and this machine has ", 0),
            0u)
      << e;
  // 2^61 doubles: the element count fits in 64 bits, the byte count does not.
  EXPECT_EQ(scriptError("import torch\ntorch.ones(2**61, dtype=torch.float64)\n"),
            "MemoryError: cannot allocate a torch.float64 tensor of shape [2305843009213693952]: its size in bytes does not "
            "fit in 64 bits");
  EXPECT_NE(scriptError("import torch\ntorch.empty_like(torch.zeros(1).expand(2**58))\n").find("MemoryError: cannot allocate"),
            std::string::npos);
  // Advanced indexing builds one int64 offset per result element before the result exists.
  EXPECT_NE(scriptError("import torch\nx = torch.zeros(1).expand(2**58)\ni = torch.zeros(1, dtype=torch.int64).expand(2**58)\nx[i]\n")
                .find("MemoryError: cannot allocate a torch.int64 tensor of shape [288230376151711744]"),
            std::string::npos);
  // The machine is still usable afterwards.
  EXPECT_EQ(scriptOut("import torch\nprint(torch.zeros(3).sum().item())\n"), "0.0\n");
}

TEST(EmbeddedTensorSizeLimit, ViewsCannotClaimMoreElementsThanFitInACount) {
  EXPECT_NE(scriptError("import torch\ntorch.zeros(1).expand(2**62, 2**62)\n").find("RuntimeError: the shape [4611686018427387904, 4611686018427387904]"),
            std::string::npos);
  // A huge but countable expand is fine (no bytes behind it), as in torch.
  EXPECT_EQ(scriptOut("import torch\nprint(torch.zeros(1).expand(2**62).shape)\n"), "torch.Size([4611686018427387904])\n");
  EXPECT_EQ(scriptError("import torch\ntorch.zeros(4).view(2**40, 2**40, -1)\n"),
            "RuntimeError: shape '[1099511627776, 1099511627776, -1]' is invalid for input of size 4");
  EXPECT_EQ(scriptError("import torch\ntorch.zeros(4).reshape(2**62, 2**62)\n"),
            "RuntimeError: shape '[4611686018427387904, 4611686018427387904]' is invalid for input of size 4");
}

TEST(EmbeddedTensorSizeLimit, CatAndArangeSizesAreChecked) {
  const Tensor big = zeros({1}).expand({int64_t{1} << 62});
  try {
    cat({big, big}, 0);
    FAIL() << "cat of two 2^62 tensors must not wrap to a negative size";
  } catch (const TensorError& e) {
    EXPECT_EQ(std::string(e.what()), "torch.cat: the size overflows 64 bits (4611686018427387904 + 4611686018427387904)");
  }
  // end - start does not fit in 64 bits: this silently made an empty tensor.
  EXPECT_EQ(scriptError("import torch\ntorch.arange(-2**62, 2**62)\n"),
            "RuntimeError: arange(-4611686018427387904, 4611686018427387904, 1) would have more elements than a tensor can hold");
  EXPECT_EQ(scriptError("import torch\ntorch.arange(0.0, 1e300, 1e-300)\n"),
            "RuntimeError: arange(0.0, 1e+300, 1e-300) would have more elements than a tensor can hold");
  EXPECT_NE(scriptError("import torch\ntorch.arange(0, 2**62)\n").find("MemoryError: cannot allocate a torch.int64 tensor"), std::string::npos);
  EXPECT_EQ(scriptOut("import torch\nprint(torch.arange(2**62, 2**62 + 3))\n"),
            "tensor([4611686018427387904, 4611686018427387905, 4611686018427387906])\n");
}

TEST(EmbeddedTensorSizeLimit, SliceStepsNearTheIntLimitDoNotOverflow) {
  EXPECT_EQ(scriptOut("import torch\nx = torch.arange(10)\nprint(x[::2**62], x[3::9223372036854775807], x[9:2:2**62].shape)\n"),
            "tensor([0]) tensor([3]) torch.Size([0])\n");
}

}  // namespace
}  // namespace tilescope::host
