// Simulator launches as a user makes them: from host code on embedded CPython, through the host
// runtime (argument binding, the kernel cache, host tensors as the simulator's memory, the worker
// threads) to the programs and back (issue 25). Each iteration is one launch from a Python cell:
//   BM_HostVectorAdd4M   out = torch.empty_like(x); add[(4096,)](x, y, out, n, BLOCK=1024), 4,194,304 fp32
//   BM_HostMatmul256     fp32 256x256x256, 32x32x32 blocks (64 programs, 8 tl.dot each)
// The argument is the thread count (TILESCOPE_SIM_THREADS; 0: every CPU). "CPU" is the whole
// process's CPU time (every thread), so a loaded machine shows the work done beside the wall time.
// Results in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "core/python/PythonExecutor.h"

namespace {

const char* kVectorAddSetup = R"(import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

x = torch.rand(4194304)
y = torch.rand(4194304)
assert torch.allclose(add(x, y), x + y)
)";

const char* kMatmulSetup = R"(import torch
import triton
import triton.language as tl

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

def matmul(a, b):
    c = torch.empty((256, 256), dtype=torch.float32)
    matmul_kernel[(8, 8)](a, b, c, 256, 256, 256, BM=32, BN=32, BK=32)
    return c

a = torch.rand((256, 256))
b = torch.rand((256, 256))
c = matmul(a, b)
assert abs(c[3, 5].item() - (a[3, :] * b[:, 5]).sum().item()) < 1e-2  # fp32 sums of 256 terms near 64
)";

void hostLaunches(benchmark::State& state, const char* setup, const char* launch) {
  const std::string threads = std::to_string(state.range(0));
  if (state.range(0) > 0)
    setenv("TILESCOPE_SIM_THREADS", threads.c_str(), 1);
  else
    unsetenv("TILESCOPE_SIM_THREADS");
  tilescope::python::PythonExecutor executor;
  tilescope::host::ExecutionCallbacks callbacks;
  std::string err;
  callbacks.stream = [&err](const std::string& name, const std::string& text) {
    if (name == "stderr") err += text;
  };
  auto run = [&](const char* name, const char* code) {
    const tilescope::host::ExecutionOutcome o =
        executor.run(std::make_shared<tilescope::lang::SourceFile>(name, code), false, callbacks, nullptr);
    if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) err += o.errorName + ": " + o.errorValue;
    return o.status == tilescope::host::ExecutionOutcome::Status::Ok;
  };
  if (!run("setup.py", setup)) {
    state.SkipWithError(("the setup failed: " + err).c_str());
    return;
  }
  for (auto _ : state) {
    if (!run("launch.py", launch)) {
      state.SkipWithError(("the launch failed: " + err).c_str());
      return;
    }
  }
  unsetenv("TILESCOPE_SIM_THREADS");
}

void BM_HostVectorAdd4M(benchmark::State& state) { hostLaunches(state, kVectorAddSetup, "z = add(x, y)\n"); }
void BM_HostMatmul256(benchmark::State& state) { hostLaunches(state, kMatmulSetup, "c = matmul(a, b)\n"); }

BENCHMARK(BM_HostVectorAdd4M)->Arg(0)->Arg(1)->Arg(2)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_HostMatmul256)->Arg(0)->Arg(1)->Arg(2)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
