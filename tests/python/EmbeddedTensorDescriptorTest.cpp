// Tensor descriptors from host code: triton.set_allocator is accepted and kept (tilescope's GPU
// runtime provides the tensor maps' global scratch itself, so it is never called), and a kernel making descriptors runs
// on the simulator from a script (embedded CPython) and matches torch.
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::kPrelude;
using tilescope::testing::scriptError;
using tilescope::testing::scriptOut;

namespace {

TEST(EmbeddedTensorDescriptor, SetAllocatorKeepsTheFunctionAndNeverCallsIt) {
  EXPECT_EQ(scriptOut(std::string(kPrelude) + R"(
calls = []
def alloc_fn(size, alignment, stream):
    calls.append(size)
    return torch.empty(size, device='cuda', dtype=torch.int8)
print(triton.set_allocator(alloc_fn), triton._allocator is alloc_fn)

@triton.jit
def inplace_abs(p, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    d.store([om, on], tl.abs(d.load([om, on])))

x = torch.randn(37, 20, device='cuda')
want = x.abs()
inplace_abs[(triton.cdiv(37, 16), triton.cdiv(20, 8))](x, 37, 20, 16, 8)
print(torch.equal(x, want), calls)
)"),
            "None True\nTrue []\n");
}

TEST(EmbeddedTensorDescriptor, SetAllocatorRefusesWhatIsNotAFunction) {
  EXPECT_EQ(scriptError(std::string(kPrelude) + "triton.set_allocator(64)\n"),
            "TypeError: triton.set_allocator() takes a function (size, alignment, stream) -> buffer, or None; got int");
}

}  // namespace
