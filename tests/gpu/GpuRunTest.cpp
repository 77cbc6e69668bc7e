// On the GPU (ctest label gpu; skipped with the reason where there is no CUDA device): kernels run
// through the host runtime with --backend gpu and TILESCOPE_GPU_CROSSCHECK, so every launch also runs
// on the simulator from the same inputs and every tensor must come out the same (within the dtype's
// rounding; KernelLauncher raises "GPU and simulator disagree" otherwise). Covered: an op-coverage
// script (tests/gpu/data/ops.py), the layout script (tests/gpu/data/layout.py), the seed tutorial's blocks, the examples, device assertions and
// what happens after a fault.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/gpu/GpuRuntime.h"
#include "core/host/HostExecutor.h"
#include "tests/cli/CliRunner.h"
#include "tests/host/InterpTestUtil.h"

using tilescope::testing::PyRun;
using tilescope::testing::runPy;
namespace fs = std::filesystem;

namespace {

#define SKIP_WITHOUT_GPU()                                                                                  \
  do {                                                                                                      \
    if (!tilescope::gpu::GpuRuntime::instance().available())                                               \
      GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();     \
  } while (0)

std::string readText(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct CrossCheckEnv {
  explicit CrossCheckEnv(const char* n = "1000") { setenv("TILESCOPE_GPU_CROSSCHECK", n, 1); }
  ~CrossCheckEnv() { unsetenv("TILESCOPE_GPU_CROSSCHECK"); }
};

}  // namespace

TEST(GpuRun, OpCoverageScriptMatchesTheSimulator) {
  SKIP_WITHOUT_GPU();
  CrossCheckEnv env;
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, readText(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "ops.py"), false, "ops.py");
  EXPECT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback << "\n" << r.err;
  EXPECT_NE(r.out.find("control"), std::string::npos) << r.out;
}

TEST(GpuRun, BlockedLayoutAndVectorAccessesMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // Odd sizes, misaligned (x_ptr + 1..3) and strided pointers, partial masks, 1- to 8-byte elements,
  // reductions along each axis of 2D/3D tiles, tiles smaller than a CTA, 8192-wide softmax rows.
  CrossCheckEnv env;
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, readText(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "layout.py"), false, "layout.py");
  EXPECT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback << "\n" << r.err;
  EXPECT_NE(r.out.find("layout ok"), std::string::npos) << r.out;
}

TEST(GpuRun, CrossCheckCatchesADifference) {
  SKIP_WITHOUT_GPU();
  // The check itself must be able to fail: a kernel whose result depends on the thread that runs it
  // (a racy read of what another program writes) is not what the simulator computes.
  CrossCheckEnv env;
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, R"(import torch
import triton
import triton.language as tl

@triton.jit
def racy(x_ptr, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, B)
    v = tl.atomic_add(x_ptr + offs, 1.0)
    tl.store(x_ptr + B + pid * B + offs, v)

x = torch.zeros(64 * 65)
racy[(64,)](x, B=64)
)");
  // Atomics return old values in launch order on the simulator, in arrival order on the GPU.
  if (r.ok) GTEST_SKIP() << "the GPU happened to run the 64 programs in order";
  EXPECT_NE(r.errorValue.find("GPU and simulator disagree on kernel 'racy'"), std::string::npos) << r.errorValue;
}

TEST(GpuRun, DeviceAssertionNamesTheProgram) {
  SKIP_WITHOUT_GPU();
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, R"(import torch
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x >= 0, "x must be non-negative")

x = torch.ones(4 * 32)
x[2 * 32 + 5] = -1.0
k[(4,)](x, B=32)
)", false, "assert.py");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errorName, "RuntimeError");
  EXPECT_NE(r.errorValue.find("device assertion failed: x must be non-negative"), std::string::npos) << r.errorValue;
  EXPECT_NE(r.errorValue.find("pid (2, 0, 0)"), std::string::npos) << r.errorValue;
  EXPECT_NE(r.errorValue.find("assert.py:9:"), std::string::npos) << r.errorValue;
}

TEST(GpuRun, AFaultIsReportedAndTheNextLaunchWorks) {
  SKIP_WITHOUT_GPU();
  // In a child process: a fault poisons the CUDA state of the process that had it.
  const fs::path script = fs::temp_directory_path() / ("tilescope-gpu-fault-" + std::to_string(::getpid()) + ".py");
  std::ofstream(script) << R"(import torch
import triton
import triton.language as tl

@triton.jit
def wild(x_ptr, far, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(x_ptr + far + offs, offs.to(tl.float32))

@triton.jit
def fill(x_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(x_ptr + offs, offs.to(tl.float32) * 2.0)

x = torch.zeros(64)
try:
    wild[(1,)](x, 2**45, B=64)
    print("no fault?")
except RuntimeError as e:
    print("fault:", e)
y = torch.zeros(64)
fill[(1,)](y, B=64)
print("next launch:", y[63].item(), y[1].item())
)";
  const auto r = tilescope::testing::runCli("run " + script.string() + " --backend gpu");
  fs::remove(script);
  EXPECT_NE(r.output.find("fault: cuCtxSynchronize (after launching the kernel) failed for kernel 'wild'"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("illegal memory access"), std::string::npos) << r.output;
  // CUDA may keep a process's GPU state broken after a sticky error (the H100 driver 580 does): then
  // the next launch in that process must say so plainly, and the next process works.
  if (r.output.find("next launch: 126.0 2.0") == std::string::npos) {
    EXPECT_NE(r.output.find("restart the program or the notebook's kernel process"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("kernel 'ts_fill'"), std::string::npos) << r.output;
  }
  const fs::path again = fs::temp_directory_path() / ("tilescope-gpu-after-fault-" + std::to_string(::getpid()) + ".py");
  std::ofstream(again) << R"(import torch
import triton
import triton.language as tl

@triton.jit
def fill(x_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(x_ptr + offs, offs.to(tl.float32) * 2.0)

y = torch.zeros(64)
fill[(1,)](y, B=64)
print("next process:", y[63].item(), y[1].item())
)";
  const auto next = tilescope::testing::runCli("run " + again.string() + " --backend gpu");
  fs::remove(again);
  EXPECT_EQ(next.exitCode, 0) << next.output;
  EXPECT_NE(next.output.find("next process: 126.0 2.0"), std::string::npos) << next.output;
}

TEST(GpuRun, TritonFromZeroSeedBlocksMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  std::ifstream f(std::string(TILESCOPE_SEEDS_DIR) + "/triton-from-zero.md", std::ios::binary);
  if (!f) GTEST_SKIP() << "seed not found in " << TILESCOPE_SEEDS_DIR;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  CrossCheckEnv env("3");
  tilescope::host::HostExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  int blocks = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] != "```python") continue;
    std::string code;
    size_t j = i + 1;
    while (j < lines.size() && lines[j].rfind("```", 0) != 0) code += lines[j++] + "\n";
    const PyRun r = runPy(ex, code, true, "triton-from-zero.md");
    EXPECT_TRUE(r.ok) << "block at line " << i + 2 << ": " << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
    ++blocks;
    i = j;
  }
  EXPECT_GE(blocks, 8);
  // The kernels the tutorial defines but never launches, on odd sizes (as tests/host/HostSeedTest.cpp
  // launches them on the simulator); the cross-check compares every output with the simulator's.
  const PyRun r = runPy(ex, R"(torch.manual_seed(1)
x = torch.arange(300, dtype=torch.float32)
out = torch.empty_like(x)
concept_kernel[(triton.cdiv(300, 128),)](x, out, 300, BLOCK_SIZE=128)
assert torch.equal(out, x * 2)
M, N, K = 70, 50, 90
a = torch.randn((M, K), dtype=torch.float16)
b = torch.randn((K, N), dtype=torch.float16)
c = torch.empty((M, N), dtype=torch.float16)
matmul_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, a.stride(0), a.stride(1),
    b.stride(0), b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32)
Z, H, N_CTX, D = 1, 2, 40, 16
q = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)
k = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)
v = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)
o = torch.empty_like(q)
fused_attention_kernel[(triton.cdiv(N_CTX, 16), Z * H)](q, k, v, o,
    q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3),
    v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3),
    Z, H, N_CTX, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
rows, cols = 6, 300
x = torch.randn((rows, cols))
w = torch.rand((cols,))
bias = torch.randn((cols,))
y = torch.empty_like(x)
mean = torch.empty((rows,))
rstd = torch.empty((rows,))
layernorm_kernel[(rows,)](x, y, w, bias, mean, rstd, x.stride(0), cols, 1e-5, BLOCK_SIZE=512)
xd = torch.arange(2048, dtype=torch.float32) + 5
debug_kernel[(2,)](xd, BLOCK_SIZE=1024)
print("unlaunched kernels ran")
)", false, "unlaunched.py");
  EXPECT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback;
  EXPECT_NE(r.out.find("unlaunched kernels ran"), std::string::npos) << r.out;
}

TEST(GpuRun, ExamplesRunOnTheGpuLikeOnTheSimulator) {
  SKIP_WITHOUT_GPU();
  for (const char* example : {"vector_add.ipynb", "copy_debugging.py", "practitioners_guide.ipynb"}) {
    const std::string path = (fs::path(TILESCOPE_SOURCE_DIR) / "examples" / example).string();
    tilescope::testing::CliRun r;
    {
      // The first two launches of every kernel specialization are compared with the simulator.
      CrossCheckEnv env("2");
      r = tilescope::testing::runCli("run " + path + " --backend gpu");
    }
    EXPECT_EQ(r.exitCode, 0) << example << "\n" << r.output.substr(0, 6000);
    EXPECT_EQ(r.output.find("disagree"), std::string::npos) << example << "\n" << r.output.substr(0, 6000);
  }
}
