// The fast path of cached launches (core/python/KernelBindings, PythonKernel::FastLaunch; the
// Python side's binding plans in resources/python/triton): a launch whose specialization ran before
// skips binding, keying and checking, and still gets the specialization its arguments ask for.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

const char* kKernel = R"(import torch, triton
import triton.language as tl

@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, a * tl.load(x_ptr + i, mask=keep) + tl.load(y_ptr + i, mask=keep), mask=keep)

def run(x, y, a, block=64):
    out = torch.zeros_like(y)
    axpy[(triton.cdiv(x.numel(), block),)](x, y, out, x.numel(), a, BLOCK=block)
    return out
)";

}  // namespace

TEST(EmbeddedLaunchFastPath, ARepeatedLaunchReusesItsSpecialization) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
x = torch.arange(100, dtype=torch.float32)
y = torch.ones(100)
for _ in range(5):
    r = run(x, y, 2.0)
print(axpy._kernel.fast_specializations, len(axpy.cache[0]), r[:4].tolist(), r[-1].item())
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "1 1 [1.0, 3.0, 5.0, 7.0] 199.0\n");
}

TEST(EmbeddedLaunchFastPath, ArgumentsThatSpecializeDifferentlyGetTheirOwnKernels) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
x = torch.arange(64, dtype=torch.float32)
y = torch.ones(64)
a = run(x, y, 1.0)              # n = 64: divisible by 16
b = run(x[:17], y[:17], 1.0)     # n = 17
c = run(x[1:18], y[1:18], 1.0)   # pointers not 16-byte aligned
d = run(x.half(), y.half(), 1.0) # fp16 pointers
e = run(x[:17], y[:17], 1.0, block=32)  # another constexpr
again = run(x[:17], y[:17], 1.0)
print(a[63].item(), b.tolist()[16], c.tolist()[0], d.dtype, e.tolist()[16], again.tolist()[16])
print(axpy._kernel.fast_specializations, len(axpy.cache[0]))
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "64.0 17.0 2.0 torch.float16 17.0 17.0\n5 5\n");
}

TEST(EmbeddedLaunchFastPath, AChangedGlobalIsReadAgain) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(import torch, triton
import triton.language as tl
SCALE = tl.constexpr(2)

@triton.jit
def fill(out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), SCALE * 1.0)

out = torch.zeros(4)
fill[(1,)](out, BLOCK=4)
fill[(1,)](out, BLOCK=4)
first = out.tolist()
SCALE = tl.constexpr(5)
fill[(1,)](out, BLOCK=4)
print(first, out.tolist())
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[2.0, 2.0, 2.0, 2.0] [5.0, 5.0, 5.0, 5.0]\n");
}

TEST(EmbeddedLaunchFastPath, TheGridIsReadAtEachLaunchThroughItsCachedLauncher) {
  // kernel[grid] keeps one launcher per grid object (resources/python/triton, _tilescope.BoundLaunch):
  // a list changed in place, a grid function's result and keyword arguments still count per launch.
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
x = torch.arange(256, dtype=torch.float32)
y = torch.ones(256)
grid = [1]
outs = []
for blocks in (1, 2, 4):
    grid[0] = blocks
    out = torch.zeros(256)
    axpy[grid](x, y, out, 256, 1.0, BLOCK=64)
    outs.append(int((out != 0).sum().item()))
by_meta = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)
for n in (64, 256):
    out = torch.zeros(256)
    axpy[by_meta](x_ptr=x, y_ptr=y, out_ptr=out, n=n, a=1.0, BLOCK=32)
    outs.append(int((out != 0).sum().item()))
print(outs, len(axpy._launchers))
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[64, 128, 256, 64, 256] 2\n");
}

TEST(EmbeddedLaunchFastPath, OneLauncherTakesCallsOfEveryShape) {
  // The launcher keeps its last call shape's plan (BoundLaunch): calls alternating between shapes,
  // keywords in another order and a bad call still bind as Python binds them.
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kKernel) + R"(
x = torch.arange(64, dtype=torch.float32)
y = torch.ones(64)
out = torch.zeros(64)
launch = axpy[(1,)]
print(axpy[(1,)] is launch, launch is axpy[launch.grid])
sums = []
for a in (1.0, 2.0, 3.0):
    launch(x, y, out, 64, a, BLOCK=64)
    sums.append(out.sum().item())
    launch(x, y, out, 64, a=a + 10, BLOCK=64)
    sums.append(out.sum().item())
    launch(BLOCK=64, n=64, a=a + 20, out_ptr=out, y_ptr=y, x_ptr=x)
    sums.append(out.sum().item())
print(sums)
try:
    launch(x, y, out, 64, BLOCK=64)
except TypeError as e:
    print("TypeError:", e)
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  // sum(a * i + 1 for i in range(64)) = 2016 a + 64
  EXPECT_EQ(run.out,
            "True True\n"
            "[2080.0, 22240.0, 42400.0, 4096.0, 24256.0, 44416.0, 6112.0, 26272.0, 46432.0]\n"
            "TypeError: missing a required argument: 'a'\n");
}

TEST(EmbeddedLaunchFastPath, AKernelAndItsLaunchersAreFreedWhenNothingUsesThem) {
  // A kernel and its launchers refer to each other; the garbage collector frees them (a notebook
  // cell defining its kernel again must not keep every old definition alive).
  PythonExecutor executor;
  const auto run = runPython(executor, R"(import gc, weakref, torch, triton
import triton.language as tl

@triton.jit
def fill(out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), 1.0)

out = torch.zeros(4)
fill[(1,)](out, BLOCK=4)
fill[(1,)](out, BLOCK=4)
ref = weakref.ref(fill)
del fill
gc.collect()
print(out.tolist(), ref() is None)
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out, "[1.0, 1.0, 1.0, 1.0] True\n");
}
