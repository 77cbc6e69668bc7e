// Pointers loaded from memory on the simulator (core/python/AddressBook), from host code on embedded
// CPython: host code puts tensors'
// data_ptr() values into an int64 tensor, a kernel loads them and casts them to pointers, as
// Triton's grouped GEMM does. Addresses outside every live tensor are out-of-bounds errors that
// name the address and the kernel's line.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::testing::PythonRun;
using tilescope::testing::runScript;
using tilescope::testing::scriptOut;

namespace {

const char* kRowSums = R"(import torch
import triton
import triton.language as tl

@triton.jit
def row_sums(table_ptr, out_ptr, N: tl.constexpr):
    g = tl.program_id(0)
    addr = tl.load(table_ptr + g)
    p = addr.to(tl.pointer_type(tl.float32))
    x = tl.load(p + tl.arange(0, N))
    tl.store(out_ptr + g, tl.sum(x, axis=0))

)";

std::string rowSums(const std::string& host) { return std::string(kRowSums) + host; }

}  // namespace

TEST(EmbeddedAddressBook, KernelSumsRowsOfSeparateTensorsThroughAnAddressTable) {
  EXPECT_EQ(scriptOut(rowSums("a = torch.arange(8, dtype=torch.float32, device='cuda')\n"
                          "b = torch.full((8,), 3.0, device='cuda')\n"
                          "c = torch.ones(2, 8, device='cuda')[1] * 0.5\n"
                          "table = torch.tensor([a.data_ptr(), b.data_ptr(), c.data_ptr()], device='cuda')\n"
                          "out = torch.zeros(3, device='cuda')\n"
                          "row_sums[(3,)](table, out, N=8)\nprint(out.tolist())\n")),
            "[28.0, 24.0, 4.0]\n");
}

TEST(EmbeddedAddressBook, DataPtrOfAViewAndIntegerArithmeticOnAddresses) {
  // A view's address is its first element's; adding bytes to a loaded address before the cast is
  // integer arithmetic, as in Triton.
  EXPECT_EQ(scriptOut(rowSums("x = torch.arange(12, dtype=torch.float32)\n"
                          "print(x[4:].data_ptr() - x.data_ptr(), x.data_ptr() == x.view(3, 4).data_ptr())\n"
                          "table = torch.tensor([x[4:].data_ptr(), x.data_ptr()])\n"
                          "out = torch.zeros(2)\nrow_sums[(2,)](table, out, N=4)\nprint(out.tolist())\n")),
            "16 True\n[22.0, 6.0]\n");
  EXPECT_EQ(scriptOut(R"(import torch
import triton
import triton.language as tl

@triton.jit
def second_half(table_ptr, out_ptr, N: tl.constexpr):
    base = tl.load(table_ptr)
    p = (base + N * 2).to(tl.pointer_type(tl.float16))
    tl.store(out_ptr + tl.arange(0, N), tl.load(p + tl.arange(0, N)).to(tl.float32))

h = torch.arange(8, dtype=torch.float16)
out = torch.zeros(4)
second_half[(1,)](torch.tensor([h.data_ptr()]), out, N=4)
print(out.tolist())
)"),
            "[4.0, 5.0, 6.0, 7.0]\n");
}

TEST(EmbeddedAddressBook, StoresThroughLoadedPointersReachTensorsThatAreNotArguments) {
  // Only the table is passed; the kernel writes two tensors it reaches through their addresses,
  // and the host sees the results. One of them is also an argument of a later launch.
  EXPECT_EQ(scriptOut(R"(import torch
import triton
import triton.language as tl

@triton.jit
def scale_each(src_table, dst_table, N: tl.constexpr):
    g = tl.program_id(0)
    src = tl.load(src_table + g).to(tl.pointer_type(tl.float16))
    dst = tl.load(dst_table + g).to(tl.pointer_type(tl.float16))
    offs = tl.arange(0, N)
    tl.store(dst + offs, tl.load(src + offs) * 2)

@triton.jit
def add_one(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)

a = torch.arange(4, dtype=torch.float16)
b = torch.full((4,), 10.0, dtype=torch.float16)
ya = torch.empty(4, dtype=torch.float16)
yb = torch.empty(4, dtype=torch.float16)
src = torch.tensor([a.data_ptr(), b.data_ptr()], dtype=torch.int64)
dst = torch.tensor([ya.data_ptr(), yb.data_ptr()], dtype=torch.int64)
scale_each[(2,)](src, dst, N=4)
print(ya.tolist(), yb.tolist())
add_one[(1,)](ya, N=4)
print(ya.tolist())
scale_each[(2,)](src, dst, N=4)
print(ya.tolist())
)"),
            "[0.0, 2.0, 4.0, 6.0] [20.0, 20.0, 20.0, 20.0]\n[1.0, 3.0, 5.0, 7.0]\n[0.0, 2.0, 4.0, 6.0]\n");
}

TEST(EmbeddedAddressBook, AnAddressOutsideEveryTensorIsOutOfBoundsNamingTheAddress) {
  const PythonRun r = runScript(rowSums("a = torch.ones(8)\nout = torch.zeros(2)\n"
                                "row_sums[(2,)](torch.tensor([a.data_ptr(), 12345]), out, N=8)\n"));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.outcome.errorName, "RuntimeError");
  EXPECT_NE(r.outcome.errorValue.find("out-of-bounds load in kernel 'row_sums', program pid (1, 0, 0)"), std::string::npos)
      << r.outcome.errorValue;
  EXPECT_NE(r.traceback.find("test.py:10:9: error: out-of-bounds load"), std::string::npos) << r.traceback;
  EXPECT_NE(r.outcome.errorValue.find("lane 0 at address 0x3039, in no tensor"), std::string::npos) << r.outcome.errorValue;
}

TEST(EmbeddedAddressBook, TheAddressOfAFreedTensorBelongsToNoTensor) {
  const PythonRun r = runScript(rowSums("a = torch.ones(8)\ntable = torch.tensor([a.data_ptr()])\nstale = hex(table[0].item())\ndel a\n"
                                "out = torch.zeros(1)\ntry:\n    row_sums[(1,)](table, out, N=8)\nexcept RuntimeError as e:\n"
                                "    print(('at address ' + stale + ', in no tensor') in str(e))\n"));
  EXPECT_TRUE(r.ok()) << r.outcome.errorValue;
  EXPECT_EQ(r.out, "True\n");
}

TEST(EmbeddedAddressBook, OutOfBoundsThroughALoadedPointerNamesItsTensor) {
  // In a live tensor's window but past its end: the usual report, against that tensor.
  const PythonRun r = runScript(rowSums("a = torch.ones(4)\nout = torch.zeros(1)\nrow_sums[(1,)](torch.tensor([a.data_ptr()]), out, N=8)\n"));
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.outcome.errorValue.find("4 of 8 active lanes are outside tensor 'at 0x"), std::string::npos) << r.outcome.errorValue;
  EXPECT_NE(r.outcome.errorValue.find("valid offsets are 0..3"), std::string::npos) << r.outcome.errorValue;
}
