// On the GPU (ctest label gpu; skipped with the reason where there is no CUDA device): launches are
// asynchronous (GpuRuntime, LaunchStatus) and cached launches from Python take the lean path
// (core/python/LaunchFastPath). A kernel's failure in a queued launch is reported at the next
// synchronisation, naming the kernel's line and the program; cached launches give the results the
// general path gives, with built-in torch tensors (uploaded again only after a host write) and with
// installed PyTorch's CUDA tensors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/gpu/runtime/GpuRuntime.h"
#include "tests/cli/CliRunner.h"

namespace fs = std::filesystem;

namespace {

#define SKIP_WITHOUT_GPU()                                                                                  \
  do {                                                                                                      \
    if (!tilescope::gpu::GpuRuntime::instance().available())                                               \
      GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();     \
  } while (0)

// Runs `code` as test.py with `tilescope-cli run --backend gpu` (plus `options`).
tilescope::testing::CliRun runOnGpu(const std::string& code, const std::string& options = "") {
  const fs::path dir = fs::temp_directory_path() / ("tilescope-async-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path script = dir / "test.py";
  std::ofstream(script) << code;
  auto r = tilescope::testing::runCli("run " + script.string() + " --backend gpu " + options);
  fs::remove_all(dir);
  return r;
}

const char* kAssertKernel = R"(import torch
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x >= 0, "x must be non-negative")

x = torch.ones(4 * 32)
k[(4,)](x, B=32)
print("first launch ok")
x[3 * 32 + 1] = -1.0
k[(4,)](x, B=32)
print("queued")
)";

}  // namespace

TEST(GpuRun, AQueuedLaunchsAssertionIsReportedAtTheNextSynchronisation) {
  SKIP_WITHOUT_GPU();
  const auto r = runOnGpu(std::string(kAssertKernel) + R"(
try:
    torch.cuda.synchronize()
    print("no failure?")
except RuntimeError as e:
    print("at synchronize:", e)
y = torch.ones(128)
k[(4,)](y, B=32)
torch.cuda.synchronize()
print("next launches work")
)");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  // The launch returned before the GPU ran it: the script went on, and synchronize() raised.
  const size_t queued = r.output.find("queued");
  const size_t reported = r.output.find("at synchronize:");
  ASSERT_NE(queued, std::string::npos) << r.output;
  ASSERT_NE(reported, std::string::npos) << r.output;
  EXPECT_LT(queued, reported) << r.output;
  EXPECT_NE(r.output.find("test.py:9:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("device assertion failed: x must be non-negative in kernel 'k', program pid (3, 0, 0)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("found at torch.cuda.synchronize()"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("next launches work"), std::string::npos) << r.output;
}

TEST(GpuRun, AFailureStillQueuedWhenTheScriptEndsIsItsError) {
  SKIP_WITHOUT_GPU();
  const auto r = runOnGpu(kAssertKernel);
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("queued"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("device assertion failed: x must be non-negative in kernel 'k', program pid (3, 0, 0)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("found at the end of the script"), std::string::npos) << r.output;
}

TEST(GpuRun, CachedLaunchesWithBuiltinTensorsSeeHostWritesAndGiveTheirResults) {
  SKIP_WITHOUT_GPU();
  const auto r = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, a * tl.load(x_ptr + i, mask=keep) + tl.load(y_ptr + i, mask=keep), mask=keep)

x = torch.arange(256, dtype=torch.float32)
y = torch.ones(256)
out = torch.zeros(256)
seen = []
for i in range(5):
    axpy[(4,)](x, y, out, 256, float(i), BLOCK=64)
    seen.append(out[10].item())
x[10] = 100.0  # a host write: the next launch uploads x again
axpy[(4,)](x, y, out, 256, 2.0, BLOCK=64)
axpy[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](x, y, out, 256, 2.0, BLOCK=64)
print(seen, out[10].item(), out[255].item())
tail = torch.zeros(256)
for _ in range(2):
    axpy[(1,)](x[1:65], y[1:65], tail[1:65], 64, 1.0, BLOCK=64)  # views 4 bytes past their storage's start
print(tail[0].item(), tail[1].item(), tail[64].item(), tail[65].item())
)");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("[1.0, 11.0, 21.0, 31.0, 41.0] 201.0 511.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0.0 2.0 65.0 0.0"), std::string::npos) << r.output;
}

TEST(GpuRun, CachedLaunchesTakeInstalledPyTorchsCudaTensors) {
  SKIP_WITHOUT_GPU();
  const char* venv = std::getenv("TILESCOPE_TORCH_VENV");
  const std::string torchVenv = venv ? venv : "/opt/torch/.venv";
  if (!fs::exists(fs::path(torchVenv) / "bin" / "python3")) GTEST_SKIP() << "no PyTorch virtual environment at " << torchVenv;
  setenv("VIRTUAL_ENV", torchVenv.c_str(), 1);
  const auto r = runOnGpu(R"(import torch
import triton
import triton.language as tl

@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, a * tl.load(x_ptr + i, mask=keep) + tl.load(y_ptr + i, mask=keep), mask=keep)

x = torch.arange(256, dtype=torch.float32, device="cuda")
y = torch.ones(256, device="cuda")
out = torch.empty_like(x)
for i in range(5):
    axpy[(4,)](x, y, out, 256, float(i), BLOCK=64)
    torch.testing.assert_close(out, i * x + y)
h, oh = x.half(), torch.empty(256, dtype=torch.float16, device="cuda")
for a in (2.0, 3.0):
    axpy[(4,)](h, y.half(), oh, 256, a, BLOCK=64)
torch.testing.assert_close(oh, 3.0 * h + 1)
tail = torch.zeros(256, device="cuda")
for _ in range(2):
    axpy[(1,)](x[1:65], y[1:65], tail[1:65], 64, 1.0, BLOCK=64)
print("installed torch:", tail[0].item(), tail[1].item(), tail[64].item(), tail[65].item(), axpy._kernel.fast_specializations)
)", "--torch system");
  unsetenv("VIRTUAL_ENV");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("installed torch: 0.0 2.0 65.0 0.0 3"), std::string::npos) << r.output;
}
