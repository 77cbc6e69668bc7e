// @triton.jit on embedded CPython: kernels from inspect.getsource, globals through fn.__globals__,
// launches on the simulator through the launch path (KernelLauncher), and kernel errors as Python exceptions
// whose message is the clang-style diagnostic naming the cell, line and column.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::host::ExecutionOutcome;
using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

const char* kImports = "import torch\nimport triton\nimport triton.language as tl\n";

// A scaled sum z = a * x + y over n elements; SCALE and the block size come from module globals.
const char* kAxpy = R"(
SCALE = 3

@triton.jit
def axpy(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    lanes = start + tl.arange(0, BLOCK)
    keep = lanes < n
    xs = tl.load(x_ptr + lanes, mask=keep)
    ys = tl.load(y_ptr + lanes, mask=keep)
    tl.store(z_ptr + lanes, SCALE * xs + ys, mask=keep)
)";

}  // namespace

TEST(EmbeddedTriton, LaunchesAKernelOnTheSimulatorWithAGridFunction) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, kImports, "Cell [1]").ok());
  ASSERT_TRUE(runPython(executor, kAxpy, "Cell [2]").ok());
  const auto run = runPython(executor, R"(
x = torch.arange(0, 1000, dtype=torch.float32, device='cuda')
y = torch.ones(1000, device='cuda')
z = torch.empty_like(x)
seen = []
def grid(meta):
    seen.append(sorted(meta))
    return (triton.cdiv(meta['n'], meta['BLOCK']),)
axpy[grid](x, y, z, x.numel(), BLOCK=256)
print(seen, z[0].item(), z[999].item(), torch.allclose(z, 3 * x + y))
axpy[(4,)](y, x, z, 1000, 256)
print(z[:3].tolist(), torch.equal(z, 3 * y + x))
)", "Cell [3]");
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out,
            "[['BLOCK', 'n', 'x_ptr', 'y_ptr', 'z_ptr']] 1.0 2998.0 True\n"
            "[3.0, 4.0, 5.0] True\n");
}

TEST(EmbeddedTriton, KernelsCallOtherJitFunctionsAndSeeConstexprGlobals) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kImports) + R"(
WIDTH = tl.constexpr(8)

@triton.jit
def square(v):
    return v * v

@triton.jit
def squares(out_ptr):
    lanes = tl.arange(0, WIDTH)
    tl.store(out_ptr + lanes, square(lanes))

out = torch.zeros(8, dtype=torch.int32)
squares[(1,)](out)
print(out.tolist())
)");
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out, "[0, 1, 4, 9, 16, 25, 36, 49]\n");
}

TEST(EmbeddedTriton, CompileErrorIsAPythonExceptionWithTheDiagnostic) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, kImports, "Cell [1]").ok());
  ASSERT_TRUE(runPython(executor, R"(
@triton.jit
def broken(x_ptr, n):
    lanes = tl.arange(0, 16)
    tl.store(x_ptr + lanes, lanes * undefined_scale)
)", "Cell [2]").ok());
  // Python code can catch it, and its message is the diagnostic.
  const auto caught = runPython(executor, R"(
x = torch.zeros(16)
try:
    broken[(1,)](x, 16)
except triton.CompilationError as e:
    print(type(e).__name__, "|", str(e).splitlines()[0])
)", "Cell [3]");
  ASSERT_TRUE(caught.ok()) << caught.traceback;
  EXPECT_EQ(caught.out.rfind("CompilationError | Cell [2]:5:37: error: ", 0), 0u) << caught.out;
  EXPECT_NE(caught.out.find("undefined_scale"), std::string::npos) << caught.out;

  // Uncaught: the cell fails with the launch's frame, then the diagnostic as a frame of its own.
  const auto run = runPython(executor, "broken[(1,)](x, 16)", "Cell [4]");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "CompilationError");
  ASSERT_EQ(run.outcome.traceback.size(), 2u);
  EXPECT_EQ(run.outcome.traceback[0].file, "Cell [4]");
  EXPECT_EQ(run.outcome.traceback[1].file, "Cell [2]");
  EXPECT_EQ(run.outcome.traceback[1].line, 5);
  EXPECT_EQ(run.outcome.traceback[1].column, 37);
  EXPECT_EQ(run.outcome.traceback[1].severity, "error");
  EXPECT_NE(run.outcome.errorValue.find("undefined_scale"), std::string::npos);
  EXPECT_NE(run.traceback.find("Cell [2]:5:37: error:"), std::string::npos) << run.traceback;
  EXPECT_NE(run.traceback.find("^"), std::string::npos) << run.traceback;  // the caret line
}

TEST(EmbeddedTriton, OutOfBoundsStoreIsARuntimeErrorPointingIntoTheKernel) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kImports) + R"(
@triton.jit
def overrun(x_ptr):
    lanes = tl.arange(0, 32)
    tl.store(x_ptr + lanes, lanes)

small = torch.zeros(16, dtype=torch.int32)
overrun[(1,)](small)
)", "kernels.py", false);
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "RuntimeError");
  EXPECT_NE(run.traceback.find("kernels.py:8:5: error:"), std::string::npos) << run.traceback;
}

TEST(EmbeddedTriton, LaunchArgumentsBindLikeAPythonCall) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, kImports, "Cell [1]").ok());
  ASSERT_TRUE(runPython(executor, kAxpy, "Cell [2]").ok());
  const auto run = runPython(executor, R"(
x = torch.ones(4)
axpy[(1,)](x, x, x, 4)
)", "Cell [3]");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "TypeError");
  EXPECT_NE(run.outcome.errorValue.find("BLOCK"), std::string::npos) << run.outcome.errorValue;
}

TEST(EmbeddedTriton, ALaunchAfterAGlobalChangedSeesTheNewValue) {
  PythonExecutor executor;
  ASSERT_TRUE(runPython(executor, kImports, "Cell [1]").ok());
  ASSERT_TRUE(runPython(executor, kAxpy, "Cell [2]").ok());
  const auto run = runPython(executor, R"(
x = torch.ones(8)
z = torch.empty_like(x)
axpy[(1,)](x, x, z, 8, BLOCK=8)
first = z[0].item()
SCALE = 10
axpy[(1,)](x, x, z, 8, BLOCK=8)
print(first, z[0].item())
)", "Cell [3]");
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out, "4.0 11.0\n");
}

TEST(EmbeddedTriton, AutotuneTakesTheFirstConfigThatChecksAndHeuristicsComputeMetaParameters) {
  PythonExecutor executor;
  const auto run = runPython(executor, std::string(kImports) + R"(
@triton.autotune(configs=[triton.Config({'LANES': 12}), triton.Config({'LANES': 16}, num_warps=2)], key=['n'])
@triton.jit
def ramp(out_ptr, n, LANES: tl.constexpr):
    i = tl.program_id(0) * LANES + tl.arange(0, LANES)
    tl.store(out_ptr + i, i, mask=i < n)

out = torch.zeros(40, dtype=torch.int32)
ramp[lambda meta: (triton.cdiv(meta['n'], meta['LANES']),)](out, 40)
ramp[lambda meta: (triton.cdiv(meta['n'], meta['LANES']),)](out, 40)
print(out.tolist() == list(range(40)), ramp.best_config)

@triton.heuristics({'WIDTH': lambda args: triton.next_power_of_2(args['n'])})
@triton.jit
def fill(out_ptr, n, WIDTH: tl.constexpr):
    i = tl.arange(0, WIDTH)
    tl.store(out_ptr + i, n, mask=i < n)

small = torch.zeros(5, dtype=torch.int32)
fill[(1,)](small, 5)
print(small.tolist())
)");
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out,
            "autotune: tilescope's embedded Python does not time configs yet; ramp uses the first config that checks: "
            "LANES: 16, num_warps: 2, num_ctas: 1, num_stages: 3\n"
            "True LANES: 16, num_warps: 2, num_ctas: 1, num_stages: 3\n"
            "[5, 5, 5, 5, 5]\n");
}

// Triton's TMA programs call triton.set_allocator before making descriptors; ours need no scratch.
TEST(EmbeddedTriton, SetAllocatorKeepsAFunctionAndRefusesAnythingElse) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(import triton
calls = []
triton.set_allocator(lambda size, align, stream: calls.append(size))
try:
    triton.set_allocator(42)
except TypeError as e:
    print("refused:", e)
print(callable(triton._allocator), calls)
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_NE(run.out.find("refused: triton.set_allocator() takes a function"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("True []"), std::string::npos) << run.out;
}
