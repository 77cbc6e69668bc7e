// On the GPU (ctest label gpu; skipped with the reason where there is no CUDA device): kernels run
// through the host runtime with --backend gpu and TILESCOPE_GPU_CROSSCHECK, so every launch also runs
// on the simulator from the same inputs and every tensor must come out the same (within the dtype's
// rounding; KernelLauncher raises "GPU and simulator disagree" otherwise). Covered: an op-coverage
// script (tests/gpu/data/ops.py), the layout script (tests/gpu/data/layout.py), the seed tutorial's blocks, the examples, device assertions and
// what happens after a fault.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/PythonExecutor.h"
#include "tests/cli/CliRunner.h"
#include "tests/python/PythonTestUtil.h"

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

// TILESCOPE_GPU_VERBOSE=1 (each build's first launch reports its compile) and a compile cache of the
// test's own, so that an earlier run's builds on disk do not answer for this one.
struct VerboseWithOwnCache {
  fs::path dir;
  explicit VerboseWithOwnCache(const std::string& name)
      : dir(fs::temp_directory_path() / ("tilescope-" + name + "-" + std::to_string(::getpid()))) {
    setenv("TILESCOPE_CACHE_DIR", dir.c_str(), 1);
    setenv("TILESCOPE_GPU_VERBOSE", "1", 1);
  }
  ~VerboseWithOwnCache() {
    unsetenv("TILESCOPE_GPU_VERBOSE");
    unsetenv("TILESCOPE_CACHE_DIR");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// Runs tests/gpu/data/<script> on the GPU backend with every launch cross-checked against the
// simulator; the script ends by printing `lastLine`.
void expectScriptMatchesTheSimulator(const std::string& script, const std::string& lastLine) {
  CrossCheckEnv env;
  tilescope::python::PythonExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, readText(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / script), false, script);
  EXPECT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback << "\n" << r.err;
  EXPECT_NE(r.out.find(lastLine), std::string::npos) << r.out;
}

}  // namespace

TEST(GpuRun, OpCoverageScriptMatchesTheSimulator) {
  SKIP_WITHOUT_GPU();
  expectScriptMatchesTheSimulator("ops.py", "control");
}

TEST(GpuRun, BlockedLayoutAndVectorAccessesMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // Odd sizes, misaligned (x_ptr + 1..3) and strided pointers, partial masks, 1- to 8-byte elements,
  // reductions along each axis of 2D/3D tiles, tiles smaller than a CTA, 8192-wide softmax rows.
  expectScriptMatchesTheSimulator("layout.py", "layout ok");
}

TEST(GpuRun, ArgReductionsAndLongScansMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // Several threads per arg-reduction output combined by shuffles (NaNs, ties, ints, both axes);
  // scans longer than one run of 32, forward and reversed, fp32/fp16/int64, cumsum and cumprod.
  expectScriptMatchesTheSimulator("scans.py", "scans ok");
}

TEST(GpuRun, FloatToIntConversionsMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // fp32/fp16/bf16 to int8/int16/int32 on cvt.rzi.s32.f32: NaN, infinities, values past the range.
  expectScriptMatchesTheSimulator("conversions.py", "conversions ok");
}

TEST(GpuRun, PipelinedMatmulLoopsMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // cp.async stages ahead of the tensor cores: masked K tails, strides that are not 1, misaligned
  // operands, rings longer than the loop.
  expectScriptMatchesTheSimulator("pipeline.py", "pipeline ok");
}

TEST(GpuRun, Int8DotsMatchTheSimulator) {
  SKIP_WITHOUT_GPU();
  // int8 x int8 -> int32 on wmma s8: pipelined, masked K tails, strided and misaligned operands,
  // sums wrapping past the int32 limit; bit for bit (Int8DotTest.cpp checks the plan and the code).
  expectScriptMatchesTheSimulator("int8_dot.py", "int8 dot ok");
}

TEST(GpuRun, CrossCheckCatchesADifference) {
  SKIP_WITHOUT_GPU();
  // The check itself must be able to fail, on every run: TILESCOPE_GPU_CROSSCHECK_CORRUPT flips the
  // bits of the first element of one argument's GPU result before the comparison. The same launch
  // without it is the positive control.
  const char* code = R"(import torch
import triton
import triton.language as tl

@triton.jit
def fill(out_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(out_ptr + offs, offs.to(tl.float32) * 2.0 + 1.0)

out = torch.zeros(64)
fill[(1,)](out, B=64)
print(out[0].item(), out[63].item())
)";
  CrossCheckEnv env;
  {
    tilescope::python::PythonExecutor ex;
    ex.setBackend(tilescope::host::Backend::Gpu);
    const PyRun clean = runPy(ex, code);
    ASSERT_TRUE(clean.ok) << clean.errorValue << clean.err;
    EXPECT_EQ(clean.out, "1.0 127.0\n");
  }
  setenv("TILESCOPE_GPU_CROSSCHECK_CORRUPT", "out_ptr", 1);
  tilescope::python::PythonExecutor ex;
  ex.setBackend(tilescope::host::Backend::Gpu);
  const PyRun r = runPy(ex, code);
  unsetenv("TILESCOPE_GPU_CROSSCHECK_CORRUPT");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errorName, "RuntimeError");
  EXPECT_NE(r.errorValue.find("GPU and simulator disagree on kernel 'fill': argument 'out_ptr' (fp32) differs in 1 of 64 "
                              "elements; first at storage element 0"),
            std::string::npos)
      << r.errorValue;
}

TEST(GpuRun, DeviceAssertionNamesTheProgram) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
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
  // The assertion's place in the kernel: the diagnostic's location, which the embedded Python shows in
  // the traceback (the error's value is the diagnostic's message).
  EXPECT_NE(r.traceback.find("assert.py:9:"), std::string::npos) << r.traceback;
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
  // Which of the two behaviours this driver showed is recorded (XML property, and a line in the log).
  const bool sameProcessWorks = r.output.find("next launch: 126.0 2.0") != std::string::npos;
  const char* branch = sameProcessWorks ? "the next launch in the faulting process worked"
                                        : "the faulting process stayed broken and its next launch said so";
  RecordProperty("after_fault", branch);
  std::printf("after the fault: %s\n", branch);
  if (!sameProcessWorks) {
    EXPECT_NE(r.output.find("restart the program or the notebook's kernel process"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("kernel 'fill'"), std::string::npos) << r.output;
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
  if (!f) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  CrossCheckEnv env("3");
  tilescope::python::PythonExecutor ex;
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
  // The kernels the tutorial defines but never launches, on odd sizes (as tests/python/EmbeddedHostSeedTest.cpp
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
  for (const char* example : {"vector_add.ipynb", "copy_debugging.py", "kernel_tour.ipynb", "triton_vs_cuda.ipynb"}) {
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

namespace {

PyRun runOnGpu(const std::string& code, tilescope::python::PythonExecutor& ex) {
  ex.setBackend(tilescope::host::Backend::Gpu);
  return runPy(ex, code);
}

const char* kAddKernel = R"(import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

def add(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
    return out
)";

}  // namespace

TEST(GpuRun, TensorsStayOnTheDeviceBetweenLaunches) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  tilescope::gpu::GpuRuntime& rt = tilescope::gpu::GpuRuntime::instance();
  PyRun r = runOnGpu(std::string(kAddKernel) + R"(
x = torch.rand(100000, device='cuda')
y = torch.rand(100000, device='cuda')
first = add(x, y)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  const uint64_t uploaded = rt.bytesUploaded(), downloaded = rt.bytesDownloaded();
  r = runPy(ex, "second = add(x, y)\nthird = add(second, y)\n");
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(rt.bytesUploaded(), uploaded) << "x, y and second were already on the device";
  EXPECT_EQ(rt.bytesDownloaded(), downloaded) << "no host code read a result yet";
  // Reading a result fetches it; writing an input on the host uploads it before the next launch.
  r = runPy(ex, R"(ok1 = torch.equal(third, x + y + y)
x[0] = 1000.0
fourth = add(x, y)
print(ok1, fourth[0].item() > 999.0, torch.equal(fourth, x + y))
)");
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True\n");
  EXPECT_GT(rt.bytesUploaded(), uploaded);
}

TEST(GpuRun, RawKernelRunsCudaCppBesideTriton) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(R"(import torch
import cupy as cp
code = r'''
extern "C" __global__ void vadd(const float* __restrict__ x, const float* y, float* out, long long n, float scale) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (x[i] + y[i]) * scale;
}
'''
k = cp.RawKernel(code, 'vadd')
x = torch.rand(5000, device='cuda')
y = torch.rand(5000, device='cuda')
out = torch.empty_like(x)
k(((5000 + 127) // 128,), (128,), (x, y, out, 5000, 0.5))
print(torch.allclose(out, (x + y) * 0.5))
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True\n");
  r = runPy(ex, "k((1,), (32,), (x, y, out))\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.errorValue.find("takes 5 arguments"), std::string::npos) << r.errorValue;
  r = runPy(ex, "bad = cp.RawKernel('extern \"C\" __global__ void f(float* p) { p[0] = undefined_name; }', 'f')\nbad((1,), (1,), (x,))\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.errorValue.find("does not compile"), std::string::npos) << r.errorValue;
  EXPECT_NE(r.errorValue.find("undefined_name"), std::string::npos) << r.errorValue;
}

TEST(GpuRun, TorchMatmulUsesCublasOnTheGpuBackend) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(R"(import torch
torch.manual_seed(0)
for dtype, tol in [(torch.float16, 1e-2), (torch.bfloat16, 5e-2), (torch.float32, 1e-4)]:
    a = torch.randn((300, 200), device='cuda', dtype=dtype)
    b = torch.randn((200, 100), device='cuda', dtype=dtype)
    ref = a.double() @ b.double()
    c = torch.matmul(a, b)
    d = a @ b
    err = (c.double() - ref).abs().max().item() / ref.abs().max().item()
    print(c.dtype == dtype, tuple(c.shape), err < tol, torch.equal(c, d))
ab = torch.randn((3, 40, 50), device='cuda')
bb = torch.randn((50, 20), device='cuda')
print(((ab @ bb).double() - ab.double() @ bb.double()).abs().max().item() < 1e-3)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True (300, 100) True True\nTrue (300, 100) True True\nTrue (300, 100) True True\nTrue\n") << r.err;
}

// What do_bench times, not how fast the GPU is: the speed of this add (2^24 floats) is measured by
// core/bench/gpu/vector_add.py (docs/PERFORMANCE.md). The samples are device work: no tensor moves
// between host and device while do_bench runs.
TEST(GpuRun, DoBenchTimesTheDeviceWork) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  tilescope::gpu::GpuRuntime& rt = tilescope::gpu::GpuRuntime::instance();
  PyRun r = runOnGpu(std::string(kAddKernel) + R"(
import time
x = torch.rand(1 << 24, device='cuda')
y = torch.rand(1 << 24, device='cuda')
first = add(x, y)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  const uint64_t uploaded = rt.bytesUploaded(), downloaded = rt.bytesDownloaded();
  r = runPy(ex, R"(t0 = time.perf_counter()
ms, lo, hi = triton.testing.do_bench(lambda: add(x, y), quantiles=[0.5, 0.2, 0.8])
wall = (time.perf_counter() - t0) * 1000
# Quantiles in order; each sample (one call) is a small part of the whole run's wall time.
print(0 < lo <= ms <= hi, wall > ms)
)");
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True True\n") << r.err;
  EXPECT_EQ(rt.bytesUploaded(), uploaded) << "do_bench's samples copied inputs to the device";
  EXPECT_EQ(rt.bytesDownloaded(), downloaded) << "do_bench's samples copied results to the host";
}

TEST(GpuRun, BenchmarksOnTheGpuAreNotLabelledSimulatedAndGpuOnlyCellsRun) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(std::string(kAddKernel) + R"(
@triton.testing.perf_report(triton.testing.Benchmark(x_names=['size'], x_vals=[4096, 65536], line_arg='provider',
    line_vals=['triton'], line_names=['Triton'], ylabel='ms', plot_name='gpu-add', args={}))
def bench(size, provider):
    x = torch.rand(size, device='cuda')
    return triton.testing.do_bench(lambda: add(x, x))
bench.run(print_data=True)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_EQ(r.out.rfind("gpu-add:\n", 0), 0u) << r.out;
  EXPECT_NE(r.displayJson.find("\"simulated\":false"), std::string::npos) << r.displayJson;
  EXPECT_TRUE(ex.runsKernelsOnGpu());
  // A notebook's gpu-only cells run here.
  nlohmann::json cell = {{"cell_type", "code"}, {"id", "g1"}, {"source", "print('ran on the GPU backend')"},
                         {"outputs", nlohmann::json::array()}, {"execution_count", nullptr}};
  cell["metadata"]["tags"] = nlohmann::json::array({"gpu-only"});
  nlohmann::json nb = {{"metadata", nlohmann::json::object()}, {"nbformat", 4}, {"nbformat_minor", 5}};
  nb["cells"] = nlohmann::json::array({cell});
  const std::string path = (fs::temp_directory_path() / "tilescope_gpu_only.ipynb").string();
  std::ofstream(path) << nb.dump();
  const tilescope::testing::CliRun run = tilescope::testing::runCli("run " + path + " --backend gpu");
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(run.output, "ran on the GPU backend\n");
}

TEST(GpuRun, ProgramTimingRecordsEveryProgramsSmAndTimes) {
  SKIP_WITHOUT_GPU();
  const fs::path dir = fs::temp_directory_path() / ("tilescope-timing-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "t.py") << R"(import torch
import triton
import triton.language as tl

@triton.jit
def busy(x_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    if pid % 3 == 1:
        return
    offs = pid * B + tl.arange(0, B)
    v = tl.load(x_ptr + offs, mask=offs < n)
    for i in range(64):
        v = v * 1.0001 + 0.5
    tl.store(x_ptr + offs, v, mask=offs < n)

x = torch.rand(1000 * 256, device='cuda')
busy[(1000,)](x, x.numel(), B=256)
busy[(7, 2, 3)](x, 0, B=256)  # all masked: only the timing matters
)";
  const auto r = tilescope::testing::runCli("run " + (dir / "t.py").string() + " --backend gpu --program-timing " +
                                            (dir / "timing.jsonl").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::ifstream in(dir / "timing.jsonl");
  std::vector<nlohmann::json> launches;
  for (std::string line; std::getline(in, line);) launches.push_back(nlohmann::json::parse(line));
  fs::remove_all(dir);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0]["kernel"], "busy");
  EXPECT_EQ(launches[0]["programs"].size(), 1000u);
  EXPECT_EQ(launches[1]["programs"].size(), 42u);
  EXPECT_EQ(launches[1]["grid"], nlohmann::json::array({7, 2, 3}));
  std::set<int64_t> sms;
  uint64_t earliest = UINT64_MAX;
  std::set<std::array<int64_t, 3>> pids;
  for (const auto& p : launches[0]["programs"]) {
    const uint64_t start = p[4], end = p[5];
    EXPECT_LE(start, end);
    EXPECT_LT(end, uint64_t{1000000000}) << "a launch of 1000 small programs takes far less than a second";
    earliest = std::min(earliest, start);
    sms.insert(p[3].get<int64_t>());
  }
  EXPECT_EQ(earliest, 0u) << "times are relative to the first program's start";
  EXPECT_GT(sms.size(), 8u) << "1000 programs spread over many SMs";
  for (const auto& p : launches[1]["programs"]) pids.insert({p[0].get<int64_t>(), p[1].get<int64_t>(), p[2].get<int64_t>()});
  EXPECT_EQ(pids.size(), 42u) << "every (x, y, z) once";
  EXPECT_TRUE(pids.count({6, 1, 2}));
}

// The autotuner keeps the config with the smallest of the medians it prints, whichever that is on
// this GPU: which config is faster is a benchmark's question (core/bench/gpu/autotune.py).
TEST(GpuRun, AutotuneTimesTheConfigsAndKeepsTheFastest) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=1), triton.Config({'BLOCK': 2048}, num_warps=4)], key=['n'])
@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)

x = torch.rand(1 << 20, device='cuda')
out = torch.empty_like(x)
scale[lambda meta: (triton.cdiv(x.numel(), meta['BLOCK']),)](x, out, x.numel())
print('best BLOCK', scale.best_config.kwargs['BLOCK'], torch.equal(out, x * 2))
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  EXPECT_NE(r.out.find("timed 2 configs of scale on the GPU"), std::string::npos) << r.out;
  // "  BLOCK: 32, num_warps: 1, ...: 0.1234 ms" per config, "using BLOCK: 2048, ..." for the choice.
  const std::regex timed(R"(^  BLOCK: (\d+), (.*): ([0-9.]+) ms$)");
  std::map<int, double> medians;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_match(line, m, timed)) medians[std::stoi(m[1])] = std::stod(m[3]);
  ASSERT_EQ(medians.size(), 2u) << r.out;
  std::smatch chosen;
  ASSERT_TRUE(std::regex_search(r.out, chosen, std::regex(R"(using BLOCK: (\d+),)"))) << r.out;
  const int block = std::stoi(chosen[1]);
  ASSERT_TRUE(medians.count(block)) << r.out;
  const double best = medians.at(block);
  for (const auto& [other, ms] : medians) EXPECT_LE(best, ms) << "BLOCK " << other << " was faster:\n" << r.out;
  EXPECT_NE(r.out.find("best BLOCK " + std::to_string(block) + " True\n"), std::string::npos) << r.out;
}

TEST(GpuRun, TensorCoreMatmulsMatchTheSimulatorAndFloat64) {
  SKIP_WITHOUT_GPU();
  CrossCheckEnv env("1000");  // every launch: within rounding of the simulator's sequential sums
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))

torch.manual_seed(1)
M, N, K = 200, 150, 96
# fp16 and bf16 on m16n16k16, fp32 on m16n16k8 as tf32 (tl.dot's default precision); bf16 and
# tf32 keep 8 and 11 significant bits of the inputs.
for dtype, tol in [(torch.float16, 2e-3), (torch.bfloat16, 2e-2), (torch.float32, 5e-3)]:
    a = torch.randn((M, K), device='cuda', dtype=dtype)
    b = torch.randn((K, N), device='cuda', dtype=dtype)
    ref = a.double() @ b.double()
    for BM, BN, BK, warps in [(16, 16, 16, 1), (64, 32, 32, 4), (128, 128, 64, 8), (64, 64, 32, 2), (32, 64, 16, 4)]:
        c = torch.empty((M, N), device='cuda', dtype=torch.float16)
        mm[(triton.cdiv(M, BM), triton.cdiv(N, BN))](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, num_warps=warps)
        err = (c.double() - ref).abs().max().item() / ref.abs().max().item()
        print(str(dtype), BM, BN, BK, warps, err < tol)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  std::string expected;
  for (const char* dtype : {"torch.float16", "torch.bfloat16", "torch.float32"})
    for (const char* config : {"16 16 16 1", "64 32 32 4", "128 128 64 8", "64 64 32 2", "32 64 16 4"})
      expected += std::string(dtype) + " " + config + " True\n";
  EXPECT_EQ(r.out, expected) << r.err;
}

// A loop-resident accumulator that starts from a constant is filled in registers; one that starts
// from a load, or from an earlier pass of an outer loop, goes through shared memory. Each must hold
// its start value (wgmma on sm_90a at 128x128x64, mma.sync fragments at 64x64x32).
TEST(GpuRun, ResidentAccumulatorsKeepTheirStartValues) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.jit
def mm_from(a_ptr, b_ptr, c_ptr, d_ptr, N, K, START: tl.constexpr, PASSES: tl.constexpr,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if START == 0:
        acc = tl.full((BM, BN), 0.5, dtype=tl.float32)
    else:
        acc = tl.load(d_ptr + rm[:, None] * N + rn[None, :])
    if PASSES == 1:
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b)
    else:
        # The inner loop's acc starts from the constant only in the first pass.
        kp = K // PASSES
        for p in range(PASSES):
            for k in range(p * kp, (p + 1) * kp, BK):
                a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
                b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
                acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

torch.manual_seed(2)
M = N = K = 256
d = torch.randn((M, N), device='cuda', dtype=torch.float32)
# fp32 operands are tf32 dots: on sm_90a the first two configs take wgmma's transposed product,
# the third (8 warps over 64 columns) the wmma loop; their inputs keep 11 significant bits.
for dtype, tol, configs in [(torch.float16, 1e-5, [(128, 128, 64, 8), (64, 64, 32, 4)]),
                            (torch.float32, 1e-2, [(128, 128, 32, 8), (64, 64, 32, 4), (64, 64, 32, 8)])]:
    a = torch.randn((M, K), device='cuda', dtype=dtype)
    b = torch.randn((K, N), device='cuda', dtype=dtype)
    for BM, BN, BK, warps in configs:
        for start in [0, 1]:
            for passes in [1, 2]:
                ref = a.double() @ b.double() + (0.5 if start == 0 else d.double())
                c = torch.empty((M, N), device='cuda', dtype=torch.float32)
                mm_from[(M // BM, N // BN)](a, b, c, d, N, K, START=start, PASSES=passes, BM=BM, BN=BN, BK=BK,
                                            num_warps=warps, num_stages=3)
                err = (c.double() - ref).abs().max().item() / ref.abs().max().item()
                print(BM, BN, BK, warps, start, passes, err < tol)
)", ex);
  ASSERT_TRUE(r.ok) << r.errorValue << r.err;
  std::string expected;
  for (const char* config : {"128 128 64 8", "64 64 32 4", "128 128 32 8", "64 64 32 4", "64 64 32 8"})
    for (const char* startAndPasses : {"0 1", "0 2", "1 1", "1 2"}) expected += std::string(config) + " " + startAndPasses + " True\n";
  EXPECT_EQ(r.out, expected) << r.err;
}

// On the GPU backend, warmup() reads the loaded kernel's registers and shared memory from the driver,
// and the handle launches on the GPU.
TEST(GpuRun, WarmupReportsTheDriversFiguresAndLaunches) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun r = runOnGpu(std::string(kAddKernel) + R"(
x = torch.rand(5000, device='cuda')
y = torch.rand(5000, device='cuda')
out = torch.empty_like(x)
k = add_kernel.warmup(x, y, out, 5000, BLOCK=256, num_warps=4, grid=(1,))
print(0 < k.n_regs <= 255, k.n_spills, k.metadata.num_warps)
k[(triton.cdiv(5000, 256),)](x, y, out, 5000, 256)
print(torch.equal(out, x + y))
)", ex);
  ASSERT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << r.err;
  EXPECT_EQ(r.out, "True 0 4\nTrue\n");
}

// The first launch of a tensor-core kernel runs its quick build while the optimized build compiles in
// the background; the next launch after that build is done runs it. Same CUDA C++, same operations:
// the two give the same bits.
TEST(GpuRun, QuickAndOptimizedBuildsGiveTheSameBits) {
  SKIP_WITHOUT_GPU();
  VerboseWithOwnCache env("tier-test");  // an earlier run's optimized build on disk would skip the quick one
  tilescope::python::PythonExecutor ex;
  PyRun first = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.jit
def tiered_mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc * 0.25, mask=(rm[:, None] < M) & (rn[None, :] < N))

torch.manual_seed(7)
M, N, K = 300, 260, 200
a = torch.randn((M, K), device='cuda', dtype=torch.float16)
b = torch.randn((K, N), device='cuda', dtype=torch.float16)
def run():
    c = torch.empty((M, N), device='cuda', dtype=torch.float32)
    tiered_mm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
    return c
c_quick = run()
ref = (a.double() @ b.double()) * 0.25
print((c_quick.double() - ref).abs().max().item() < 1e-2)
)", ex);
  ASSERT_TRUE(first.ok) << first.errorValue << first.err;
  EXPECT_EQ(first.out, "True\n");
  EXPECT_NE(first.err.find("quick build"), std::string::npos) << first.err;
  tilescope::gpu::GpuCompiler::instance().waitForBackgroundBuilds();
  PyRun second = runPy(ex, "c_opt = run()\nprint(torch.equal(c_opt, c_quick))\n");
  ASSERT_TRUE(second.ok) << second.errorValue << second.err;
  EXPECT_EQ(second.out, "True\n");
  // The optimized build reports its own first launch, without the quick build's note.
  EXPECT_NE(second.err.find("gpu: kernel 'tiered_mm'"), std::string::npos) << second.err;
  EXPECT_EQ(second.err.find("quick build"), std::string::npos) << second.err;
}

// A kernel cell run again after an edit: the new def starts compiling, in the background, for the
// specialization the old kernel was launched with, so the launch in the next cell finds the
// optimized build in memory instead of compiling.
TEST(GpuRun, RedefinedKernelCompilesBeforeItsLaunch) {
  SKIP_WITHOUT_GPU();
  VerboseWithOwnCache env("prefetch-test");
  tilescope::python::PythonExecutor ex;
  auto kernelCell = [](const char* scale) {
    return std::string(R"(import torch
import triton
import triton.language as tl

@triton.jit
def edited_mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :]), tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :]))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc * )") + scale + ")\n";
  };
  const char* launchCell = R"(torch.manual_seed(3)
a = torch.randn((256, 128), device='cuda', dtype=torch.float16)
b = torch.randn((128, 256), device='cuda', dtype=torch.float16)
c = torch.empty((256, 256), device='cuda', dtype=torch.float32)
edited_mm[(2, 2)](a, b, c, 256, 256, 128, BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
print(((c.double() - SCALE * (a.double() @ b.double())).abs().max() < 1e-2).item())
)";
  auto launchWith = [&](const char* scale) {
    std::string code = launchCell;
    code.replace(code.find("SCALE"), 5, scale);
    return runPy(ex, code);
  };
  PyRun define = runOnGpu(kernelCell("0.25"), ex);
  ASSERT_TRUE(define.ok) << define.errorValue << define.err;
  PyRun first = launchWith("0.25");
  ASSERT_TRUE(first.ok) << first.errorValue << first.err;
  EXPECT_EQ(first.out, "True\n");
  EXPECT_NE(first.err.find("quick build"), std::string::npos) << first.err;  // nothing was prefetched yet
  PyRun redefine = runPy(ex, kernelCell("0.5"));
  ASSERT_TRUE(redefine.ok) << redefine.errorValue << redefine.err;
  tilescope::gpu::GpuCompiler::instance().waitForBackgroundBuilds();
  PyRun second = launchWith("0.5");
  ASSERT_TRUE(second.ok) << second.errorValue << second.err;
  EXPECT_EQ(second.out, "True\n");
  EXPECT_NE(second.err.find("(memory cache)"), std::string::npos) << second.err;
  EXPECT_EQ(second.err.find("quick build"), std::string::npos) << second.err;
}

// Launches remember the build of each kernel object (no code generation per launch); a kernel
// redefined again and again, whose IR may be allocated where an earlier one's was, must still run
// its own code every time.
TEST(GpuRun, EachDefinitionOfAKernelRunsItsOwnBuild) {
  SKIP_WITHOUT_GPU();
  tilescope::python::PythonExecutor ex;
  PyRun setup = runOnGpu("import torch\nimport triton\nimport triton.language as tl\nout = torch.zeros(64, device='cuda')\n", ex);
  ASSERT_TRUE(setup.ok) << setup.errorValue << setup.err;
  for (int version = 1; version <= 12; ++version) {
    const std::string v = std::to_string(version);
    PyRun r = runPy(ex, "@triton.jit\ndef fill(out_ptr, B: tl.constexpr):\n    tl.store(out_ptr + tl.arange(0, B), tl.full((B,), " + v +
                            ".0, tl.float32))\n\nfor _ in range(2):\n    fill[(1,)](out, B=64)\nprint(out.min().item(), out.max().item())\n");
    ASSERT_TRUE(r.ok) << r.errorValue << r.err;
    EXPECT_EQ(r.out, v + ".0 " + v + ".0\n") << "definition " << version;
  }
}
