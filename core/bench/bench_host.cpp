// Host-runtime overhead: a 10-cell notebook built from the seeds' kernels (copy, vector add,
// softmax, swizzle, naive and grouped matmul on small inputs), run in a fresh HostExecutor per
// iteration. Reported: total wall time and the host share (total minus the time inside the
// simulator), whose target is < 100 ms (docs/PERFORMANCE.md). Also: interrupt latency.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/host/HostExecutor.h"
#include "core/host/KernelLauncher.h"
#include "core/bench/SeedPrograms.h"

namespace {

const std::vector<std::string> kCells = {
    "import os\nos.environ['TRITON_INTERPRET'] = '1'\nimport torch\nimport triton\nimport triton.language as tl\n"
    "from functools import partial\nfrom triton_util import cdiv, print_if, check_tensors_gpu_ready",
    "@triton.jit\ndef copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):\n    pid = tl.program_id(0)\n    offs = pid * bs + tl.arange(0, bs)\n"
    "    mask = offs < n\n    x = tl.load(x_ptr + offs, mask)\n    tl.store(z_ptr + offs, x, mask)\n",
    "def copy(x, bs, kernel_fn):\n    z = torch.zeros_like(x)\n    check_tensors_gpu_ready(x, z)\n    n = x.numel()\n"
    "    kernel_fn[(cdiv(n, bs),)](x, z, n, bs)\n    return z\nx = torch.tensor([1,2,3,4,5,6])\nz = copy(x, bs=2, kernel_fn=copy_k)\nx, z",
    "@triton.jit\ndef add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n    pid = tl.program_id(axis=0)\n"
    "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n    mask = offsets < n_elements\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n    y = tl.load(y_ptr + offsets, mask=mask)\n    tl.store(output_ptr + offsets, x + y, mask=mask)\n",
    "torch.manual_seed(0)\nx = torch.rand(4096, device='cuda')\ny = torch.rand(4096, device='cuda')\nout = torch.empty_like(x)\n"
    "grid = lambda meta: (triton.cdiv(4096, meta['BLOCK_SIZE']),)\nadd_kernel[grid](x, y, out, 4096, BLOCK_SIZE=1024)\n"
    "assert torch.allclose(out, x + y)",
    "@triton.jit\ndef softmax_kernel(input_ptr, output_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):\n"
    "    row_idx = tl.program_id(0)\n    col_offsets = tl.arange(0, BLOCK_SIZE)\n    mask = col_offsets < n_cols\n"
    "    row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=-float('inf'))\n"
    "    num = tl.exp(row - tl.max(row, axis=0))\n    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, num / tl.sum(num, axis=0), mask=mask)\n",
    "x = torch.randn(16, 100)\ny = torch.empty_like(x)\nsoftmax_kernel[(16,)](x, y, x.stride(0), y.stride(0), 100, BLOCK_SIZE=triton.next_power_of_2(100))\n"
    "assert torch.allclose(y, torch.softmax(x, dim=1), atol=1e-6)",
    "@triton.jit\ndef swizzle_k(x_ptr, z_ptr, group_sz: tl.constexpr):\n    pid_m, pid_n = tl.program_id(0), tl.program_id(1)\n"
    "    num_pid_m, num_pid_n = tl.num_programs(0), tl.num_programs(1)\n"
    "    pid_m_, pid_n_ = tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)\n"
    "    x = tl.load(x_ptr + pid_m * num_pid_n + pid_n)\n    tl.store(z_ptr + pid_m_ * num_pid_n + pid_n_, x)\n",
    "x = torch.arange(20, device='cuda').view(5, 4)\nz = -torch.ones_like(x)\nswizzle_k[(5, 4)](x, z, group_sz=3);\nz",
    "results = []\nfor i in range(200):\n    results.append(f'{i:>4} {i * 0.5:.2f}')\nlen(results), sum(len(r) for r in results)",
};

// Argument 1: run as the GUI does with its inspector open - every launch traced (values too) and
// its trace serialized for the worker's `launch` message - to see what the inspector costs.
void BM_TenCellNotebook(benchmark::State& state) {
  double hostSeconds = 0, totalSeconds = 0;
  size_t traceBytes = 0;
  for (auto _ : state) {
    tilescope::host::HostExecutor ex;
    tilescope::host::ExecutionCallbacks cb;
    if (state.range(0)) cb.launch = [&](const tilescope::host::LaunchRecord& l) { traceBytes += l.trace.size(); };
    tilescope::host::CancelToken cancel;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < kCells.size(); ++i) {
      auto o = ex.execute(kCells[i], "c" + std::to_string(i), cb, cancel);
      if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) {
        state.SkipWithError((o.errorName + ": " + o.errorValue).c_str());
        return;
      }
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    totalSeconds += total;
    hostSeconds += total - tilescope::host::KernelLauncher::simulatorSeconds(ex.interpreter());
  }
  state.counters["total_ms"] = benchmark::Counter(totalSeconds * 1e3 / static_cast<double>(state.iterations()));
  state.counters["host_ms"] = benchmark::Counter(hostSeconds * 1e3 / static_cast<double>(state.iterations()));
  state.counters["trace_KiB"] = benchmark::Counter(static_cast<double>(traceBytes) / 1024.0 / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_TenCellNotebook)->ArgName("inspect")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The practitioners' guide's grouped matmul (its kernel and jit helpers read from
// TILESCOPE_SEEDS_DIR) on 256x256 fp16: a 16x16 grid, 16 K steps per program. Without and with the
// inspector's tracing (argument 1), to show what tracing costs a seed launch.
std::string seedSpan(const std::string& text, const std::string& firstLine, const std::string& lastLine) {
  const size_t def = text.find(firstLine);
  if (def == std::string::npos) return "";
  const size_t begin = text.rfind("@triton.jit", def);
  const size_t end = text.find(lastLine, def);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return text.substr(begin, end + lastLine.size() - begin) + "\n";
}

void BM_SeedGroupedMatmul(benchmark::State& state) {
  const std::string guide = tilescope::bench::readSeed("triton-practitioners-guide.md");
  const std::string helpers = seedSpan(guide, "def get_1d_offset(", "< max_1)");
  const std::string kernel = seedSpan(guide, "def grouped_matmul_k(", "tl.store(c, acc, mask=mask)");
  if (helpers.empty() || kernel.empty()) {
    state.SkipWithError("seed tutorial not found in " TILESCOPE_SEEDS_DIR);
    return;
  }
  const std::string setup = "import torch\nimport triton\nimport triton.language as tl\n" + helpers + kernel +
                            "a = torch.randn((256, 256), dtype=torch.float16)\nb = torch.randn((256, 256), dtype=torch.float16)\n"
                            "c = torch.empty((256, 256), dtype=torch.float16)\n";
  const std::string launch =
      "grouped_matmul_k[(16, 16)](a, b, c, 256, 256, 256, a.stride(0), a.stride(1), b.stride(0), b.stride(1),\n"
      "                           c.stride(0), c.stride(1), bm=16, bn=16, bk=16, group_sz=4)\n";
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  size_t traceBytes = 0;
  if (state.range(0)) cb.launch = [&](const tilescope::host::LaunchRecord& l) { traceBytes = l.trace.size(); };
  tilescope::host::CancelToken cancel;
  if (ex.execute(setup, "setup", cb, cancel).status != tilescope::host::ExecutionOutcome::Status::Ok) {
    state.SkipWithError("setup failed");
    return;
  }
  for (auto _ : state) {
    auto o = ex.execute(launch, "launch", cb, cancel);
    if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) {
      state.SkipWithError((o.errorName + ": " + o.errorValue).c_str());
      return;
    }
  }
  state.counters["trace_MiB"] = benchmark::Counter(static_cast<double>(traceBytes) / (1 << 20));
}
BENCHMARK(BM_SeedGroupedMatmul)->ArgName("inspect")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The interpreter alone: a Python loop with calls, f-strings and dict/list work.
void BM_InterpreterLoop(benchmark::State& state) {
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  for (auto _ : state) {
    auto o = ex.execute("def f(i): return {'k': i * 2}['k'] + len(f'{i:.2f}')\ns = 0\nfor i in range(10000):\n    s += f(i)\n", "loop", cb, cancel);
    benchmark::DoNotOptimize(o.status);
  }
}
BENCHMARK(BM_InterpreterLoop)->Unit(benchmark::kMillisecond);

// Interrupt latency: from CancelToken::cancel() to execute() returning, for a `while True: pass` in
// host code (arg 0) and for a kernel spinning in a while loop on the simulator (arg 1). The unit and
// UI tests only guard against a hang (bounds of 5-10 s); the targets live here: the simulator's
// kernel under 100 ms, the worker's cell under 500 ms, the notebook's Interrupt under 1 s
// (docs/PERFORMANCE.md).
void BM_InterruptBusyLoop(benchmark::State& state) {
  const char* hostLoop = "print('looping')\nwhile True:\n    pass\n";
  const char* spinningKernel =
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "@triton.jit\ndef spin(out_ptr, BLOCK: tl.constexpr):\n    acc = tl.zeros((BLOCK,), dtype=tl.int32)\n"
      "    while tl.program_id(0) >= 0:\n        acc += 1\n    tl.store(out_ptr + tl.arange(0, BLOCK), acc)\n\n"
      "out = torch.zeros(16, dtype=torch.int32)\nprint('launching')\nspin[(4,)](out, BLOCK=16)\n";
  const std::string code = state.range(0) == 0 ? hostLoop : spinningKernel;
  tilescope::host::HostExecutor ex;
  for (auto _ : state) {
    tilescope::host::ExecutionCallbacks cb;
    tilescope::host::CancelToken cancel;
    std::atomic<bool> started{false};
    cb.stream = [&](const std::string&, const std::string&) { started = true; };
    std::chrono::steady_clock::time_point returned;
    tilescope::host::ExecutionOutcome outcome;
    std::thread run([&] {
      outcome = ex.execute(code, "loop", cb, cancel);
      returned = std::chrono::steady_clock::now();
    });
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // well inside the loop
    const auto cancelled = std::chrono::steady_clock::now();
    cancel.cancel();
    run.join();
    if (outcome.status != tilescope::host::ExecutionOutcome::Status::Cancelled) {
      state.SkipWithError(("the loop was not cancelled: " + outcome.errorName + ": " + outcome.errorValue).c_str());
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(returned - cancelled).count());
  }
}
BENCHMARK(BM_InterruptBusyLoop)->ArgNames({"kernel"})->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
