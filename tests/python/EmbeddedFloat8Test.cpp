// The built-in torch's fp8 dtypes (torch.float8_e4m3fn, torch.float8_e5m2) as host code sees them:
// the dtypes, .to() both ways with torch's overflow rules, printing, the errors for arithmetic, and
// fp8 tensors as kernel arguments in the simulator (tl.float8e4nv / tl.float8e5 pointers). The
// conversions themselves are tested bit by bit in tests/tensor/Float8Test.cpp.
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::kPrelude;
using tilescope::testing::scriptError;
using tilescope::testing::scriptOut;

namespace {

std::string torchOut(const std::string& code) { return scriptOut("import torch\n" + code); }

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST(EmbeddedFloat8, TheDtypesExistWithTorchsFacts) {
  // Triton's matmul tutorial checks hasattr(torch, "float8_e5m2") before its fp8 part.
  EXPECT_EQ(torchOut("print(torch.float8_e4m3fn, [torch.float8_e5m2], torch.float8_e4m3fn.itemsize, "
                     "torch.float8_e5m2.is_floating_point, hasattr(torch, 'float8_e5m2'), "
                     "torch.float8_e4m3fn == torch.float8_e5m2, torch.float8_e5m2 == torch.float8_e5m2)"),
            "torch.float8_e4m3fn [torch.float8_e5m2] 1 True True False True\n");
}

TEST(EmbeddedFloat8, ToAndBackFollowTorchsRoundingAndOverflow) {
  // e4m3fn has no infinity: 500 and inf become NaN; 464 is a tie that rounds to even (448).
  // e5m2 rounds 500 to 512 and keeps infinities.
  EXPECT_EQ(torchOut("x = torch.tensor([1.0, 464.0, 500.0, float('inf'), -1e6])\n"
                     "print(x.to(torch.float8_e4m3fn).float().tolist(), x.to(torch.float8_e5m2).to(torch.float32).tolist())"),
            "[1.0, 448.0, nan, nan, nan] [1.0, 448.0, 512.0, inf, -inf]\n");
  EXPECT_EQ(torchOut("y = torch.tensor([3, -7], dtype=torch.int32).to(torch.float8_e4m3fn)\n"
                     "print(y.dtype, y.element_size(), y.is_floating_point(), y.tolist(), y[1].item(), y.to(torch.int64))"),
            "torch.float8_e4m3fn 1 True [3.0, -7.0] -7.0 tensor([ 3, -7])\n");
}

TEST(EmbeddedFloat8, PrintsThroughFloatWithTheDtype) {
  EXPECT_EQ(torchOut("print(torch.tensor([1.0, 2.5], device='cuda').to(torch.float8_e5m2))"),
            "tensor([1.0000, 2.5000], device='cuda:0', dtype=torch.float8_e5m2)\n");
  EXPECT_EQ(torchOut("print(torch.zeros(2, 2, dtype=torch.float8_e4m3fn).T)"),
            "tensor([[0., 0.],\n        [0., 0.]], dtype=torch.float8_e4m3fn)\n");
}

TEST(EmbeddedFloat8, ArithmeticAndMixingAreErrorsSayingWhatToDo) {
  EXPECT_TRUE(startsWith(scriptError("import torch\nx = torch.ones(2).to(torch.float8_e4m3fn)\nx * 2.0\n"),
                         "RuntimeError: this operation is not implemented for torch.float8_e4m3fn tensors"));
  EXPECT_TRUE(startsWith(scriptError("import torch\nx = torch.ones(2, 2).to(torch.float8_e5m2)\ntorch.matmul(x, x)\n"),
                         "RuntimeError: this operation is not implemented for torch.float8_e5m2 tensors"));
  EXPECT_EQ(scriptError("import torch\ntorch.ones(2).to(torch.float8_e5m2) + torch.ones(2)\n"),
            "RuntimeError: Promotion for Float8 Types is not supported, attempted to promote Float8_e5m2 and Float");
  const std::string fnuz = scriptError("import torch\ntorch.float8_e4m3fnuz\n");
  EXPECT_TRUE(startsWith(fnuz, "AttributeError: module 'torch' has no attribute 'float8_e4m3fnuz': tilescope's built-in "
                               "torch has the fp8 dtypes float8_e4m3fn and float8_e5m2"))
      << fnuz;
}

// Kernel arguments: an fp8 tensor is a pointer to tl.float8e5 / tl.float8e4nv, so loads decode its
// bytes as fp8 (as uint8 they would read 60 for 1.0) and stores round to it. A store in a kernel
// rounds as Triton does on the GPU (saturating: 500 -> 448), unlike torch's .to() (500 -> NaN).
TEST(EmbeddedFloat8, KernelsReadAndWriteFp8TensorsInTheSimulator) {
  const std::string program = std::string(kPrelude) + R"(
@triton.jit
def widen(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = tl.arange(0, B)
    m = offs < n
    tl.static_assert(x_ptr.dtype.element_ty == tl.float8e5)
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(tl.float32) * 2, mask=m)

@triton.jit
def narrow(f_ptr, q_ptr, n, B: tl.constexpr):
    offs = tl.arange(0, B)
    m = offs < n
    tl.store(q_ptr + offs, tl.load(f_ptr + offs, mask=m), mask=m)

x = torch.tensor([1.0, -0.375, 57344.0], device='cuda').to(torch.float8_e5m2)
y = torch.empty(3, device='cuda')
widen[(1,)](x, y, 3, B=4)
print(y.tolist())
f = torch.tensor([1.0, 1.0625, 500.0], device='cuda')
q = torch.empty(3, device='cuda', dtype=torch.float8_e4m3fn)
narrow[(1,)](f, q, 3, B=4)
print(q.float().tolist(), f.to(torch.float8_e4m3fn).float().tolist())
)";
  EXPECT_EQ(scriptOut(program), "[2.0, -0.75, 114688.0]\n[1.0, 1.0, 448.0] [1.0, 1.0, nan]\n");
}
