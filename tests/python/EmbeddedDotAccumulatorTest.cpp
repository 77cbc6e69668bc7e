// `acc += tl.dot(a, b)` on the simulator means what Triton compiles it to: tl.dot(a, b, acc), the
// products accumulated into acc (core/ir/passes/DotAccumulatorFusion, run by the launch path before
// the simulator). Accumulating into a fresh zero and adding acc afterwards rounds once more, which
// changed the last bit of some fp32 sums (and so of Triton's grouped-GEMM tutorial's fp16 results).
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

TEST(EmbeddedDotAccumulator, AccPlusDotEqualsTheDotIntoAccBitwiseInEveryForm) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(
import torch
import triton
import triton.language as tl

@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, K: tl.constexpr, BLOCK: tl.constexpr, FORM: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + rows[:, None] * K + k + cols[None, :])
        b = tl.load(b_ptr + (k + rows[:, None]) * BLOCK + cols[None, :])
        if FORM == 0:
            acc = tl.dot(a, b, acc)
        elif FORM == 1:
            acc += tl.dot(a, b)
        elif FORM == 2:
            acc = acc + tl.dot(a, b)
        else:
            acc = tl.dot(a, b) + acc
    tl.store(c_ptr + rows[:, None] * BLOCK + cols[None, :], acc)

torch.manual_seed(0)
K, BLOCK = 256, 32
a = torch.randn((BLOCK, K), dtype=torch.float16, device='cuda')
b = torch.randn((K, BLOCK), dtype=torch.float16, device='cuda')
outs = []
for form in range(4):
    c = torch.empty((BLOCK, BLOCK), dtype=torch.float32, device='cuda')
    matmul[(1,)](a, b, c, K, BLOCK, form)
    outs.append(c)
print([int((outs[0] != c).sum().item()) for c in outs[1:]])
# A separate dot and add (what the three forms meant before) differs from the fused dot here.
two_roundings = torch.zeros((BLOCK, BLOCK), dtype=torch.float32, device='cuda')
for k in range(0, K, BLOCK):
    part = torch.empty((BLOCK, BLOCK), dtype=torch.float32, device='cuda')
    matmul[(1,)](a[:, k:k + BLOCK].contiguous(), b[k:k + BLOCK], part, BLOCK, BLOCK, 0)
    two_roundings = two_roundings + part
print(int((two_roundings != outs[0]).sum().item()) > 0)
)");
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out, "[0, 0, 0]\nTrue\n");
}
