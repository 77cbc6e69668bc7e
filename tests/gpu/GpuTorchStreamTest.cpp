// On the GPU with installed PyTorch (ctest label gpu; skipped with the reason where there is no CUDA
// device or no PyTorch virtual environment): kernels launch on torch's current stream
// (core/gpu/runtime/LaunchStream, core/python/TorchStream), as Triton's do. After
// `torch.cuda.set_stream(s)` (a non-blocking stream, which does not order with the null stream) a
// launch runs behind torch's work queued on s and before torch's next work there, on the general
// path (a kernel's first launch) and the lean cached path alike, and do_bench's events follow it.
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

// Runs `code` as test.py with `tilescope-cli run --backend gpu --torch system`, or says why it cannot.
struct TorchRun {
  std::string skipReason;
  tilescope::testing::CliRun run;
};

TorchRun runWithInstalledTorch(const std::string& code) {
  TorchRun r;
  if (!tilescope::gpu::GpuRuntime::instance().available()) {
    r.skipReason = "no CUDA device: " + tilescope::gpu::GpuRuntime::instance().unavailableReason();
    return r;
  }
  const char* venv = std::getenv("TILESCOPE_TORCH_VENV");
  const std::string torchVenv = venv ? venv : "/opt/torch/.venv";
  if (!fs::exists(fs::path(torchVenv) / "bin" / "python3")) {
    r.skipReason = "no PyTorch virtual environment at " + torchVenv + " (set TILESCOPE_TORCH_VENV)";
    return r;
  }
  const fs::path dir = fs::temp_directory_path() / ("tilescope-stream-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path script = dir / "test.py";
  std::ofstream(script) << code;
  setenv("VIRTUAL_ENV", torchVenv.c_str(), 1);
  r.run = tilescope::testing::runCli("run " + script.string() + " --backend gpu --torch system");
  unsetenv("VIRTUAL_ENV");
  fs::remove_all(dir);
  return r;
}

// A kernel that runs for tens of milliseconds in one program (a dependent multiply-add chain), and an
// element-wise one whose input a chain of big matmuls on the same stream produces.
const char* kKernels = R"(import torch
import triton
import triton.language as tl

@triton.jit
def spin(buf_ptr, iters, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(buf_ptr + offs)  # unknown to the compiler: the loop cannot be folded
    for _ in range(iters):
        acc = acc * 0.999 + 0.001
    tl.store(buf_ptr + offs, acc)

@triton.jit
def twice_plus_one(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, 2.0 * tl.load(x_ptr + i, mask=keep) + 1.0, mask=keep)

def slow_input(a, n):
    """A tensor of n values that s computes only after a long chain of matmuls."""
    x = a
    for _ in range(12):
        x = torch.tanh(x @ a)
    return x.flatten()[:n] * 3.0

torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda") / 64.0
torch.cuda.synchronize()  # a was made on the default stream
s = torch.cuda.Stream()
torch.cuda.set_stream(s)
)";

}  // namespace

TEST(GpuRun, LaunchesRunOnInstalledPyTorchsCurrentStream) {
  const TorchRun r = runWithInstalledTorch(std::string(kKernels) + R"(
buf = torch.zeros(128, device="cuda")
spin[(1,)](buf, 3, BLOCK=128)  # the first launch waits for the GPU (and sets up the launch status area)
torch.cuda.synchronize()
assert torch.cuda.current_stream().query()

n = 1 << 20
for trial in range(3):  # the first launch takes the general path, the later ones the lean path
    src = slow_input(a, n)
    out = torch.empty_like(src)
    twice_plus_one[(n // 1024,)](src, out, n, BLOCK=1024)
    # torch reads out on s, after the kernel; src was made on s before it
    torch.testing.assert_close(out, 2.0 * src + 1.0)
torch.cuda.synchronize()
print("inputs made on the stream: ok", twice_plus_one._kernel.fast_specializations)

spin[(1,)](buf, 20000001, BLOCK=128)
busy = not torch.cuda.current_stream().query()
torch.cuda.synchronize()
print("current stream busy with the queued kernel:", busy, torch.cuda.current_stream() != torch.cuda.default_stream())
)");
  if (!r.skipReason.empty()) GTEST_SKIP() << r.skipReason;
  EXPECT_EQ(r.run.exitCode, 0) << r.run.output;
  EXPECT_NE(r.run.output.find("inputs made on the stream: ok 1"), std::string::npos) << r.run.output;
  EXPECT_NE(r.run.output.find("current stream busy with the queued kernel: True True"), std::string::npos)
      << r.run.output;
}

TEST(GpuRun, TheFusedSoftmaxPatternOnASideStreamGivesTorchsResultsAndTimings) {
  const TorchRun r = runWithInstalledTorch(std::string(kKernels) + R"(
@triton.jit
def row_softmax(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)

for rows, cols in ((1823, 781), (4096, 1000), (1000, 1024)):
    busy = slow_input(a, 1)  # s is busy: the input below waits behind this chain
    x = torch.randn(rows, cols, device="cuda") + busy
    y = torch.empty_like(x)
    row_softmax[(rows,)](y, x, x.stride(0), cols, BLOCK=triton.next_power_of_2(cols))
    torch.testing.assert_close(y, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-4)
print("softmax on the stream: ok")

# do_bench's events go where the kernel goes: a kernel of some milliseconds measures alike on s and
# on the default stream (events left on the null stream would time nothing of it).
buf = torch.zeros(128, device="cuda")
spin[(1,)](buf, 2000001, BLOCK=128)
on_side = triton.testing.do_bench(lambda: spin[(1,)](buf, 2000001, BLOCK=128), warmup=5, rep=50)
torch.cuda.set_stream(torch.cuda.default_stream())
on_default = triton.testing.do_bench(lambda: spin[(1,)](buf, 2000001, BLOCK=128), warmup=5, rep=50)
print("do_bench alike:", 0.5 < on_side / on_default < 2.0, on_side, on_default)
)");
  if (!r.skipReason.empty()) GTEST_SKIP() << r.skipReason;
  EXPECT_EQ(r.run.exitCode, 0) << r.run.output;
  EXPECT_NE(r.run.output.find("softmax on the stream: ok"), std::string::npos) << r.run.output;
  EXPECT_NE(r.run.output.find("do_bench alike: True"), std::string::npos) << r.run.output;
}
