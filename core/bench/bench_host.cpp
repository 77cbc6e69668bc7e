// Host-runtime overhead: a 10-cell notebook of small kernels of the seeds' kinds (block copy,
// vector add, row softmax, swizzle map, on small inputs), run in a fresh PythonExecutor per
// iteration. Reported: total wall time and the host share (total minus the time inside the
// simulator), whose target is < 100 ms (docs/PERFORMANCE.md). Also: interrupt latency.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/python/PythonExecutor.h"
#include "core/testing/SeedPrograms.h"

namespace {

const std::vector<std::string> kCells = {
    "import os\nos.environ['TRITON_INTERPRET'] = '1'\nimport torch\nimport triton\nimport triton.language as tl\n"
    "from functools import partial\nfrom triton_util import cdiv, print_if, check_tensors_gpu_ready",
    "@triton.jit\ndef copy_blocks(src, dst, n, B: tl.constexpr):\n    idx = tl.program_id(0) * B + tl.arange(0, B)\n"
    "    inside = idx < n\n    tl.store(dst + idx, tl.load(src + idx, inside), inside)\n",
    "def copied(t, block):\n    out = torch.zeros_like(t)\n    check_tensors_gpu_ready(t, out)\n"
    "    copy_blocks[(cdiv(t.numel(), block),)](t, out, t.numel(), block)\n    return out\n"
    "t = torch.tensor([4, 8, 15, 16, 23, 42])\nu = copied(t, block=2)\nt, u",
    "@triton.jit\ndef vec_add(a_ptr, b_ptr, out_ptr, length, TILE: tl.constexpr):\n"
    "    idx = tl.program_id(axis=0) * TILE + tl.arange(0, TILE)\n    inside = idx < length\n"
    "    tl.store(out_ptr + idx, tl.load(a_ptr + idx, mask=inside) + tl.load(b_ptr + idx, mask=inside), mask=inside)\n",
    "torch.manual_seed(0)\na = torch.rand(4096, device='cuda')\nb = torch.rand(4096, device='cuda')\nout = torch.empty_like(a)\n"
    "programs = lambda meta: (triton.cdiv(4096, meta['TILE']),)\nvec_add[programs](a, b, out, 4096, TILE=1024)\n"
    "assert torch.allclose(out, a + b)",
    "@triton.jit\ndef row_softmax(src, dst, src_pitch, dst_pitch, width, LANES: tl.constexpr):\n"
    "    r = tl.program_id(0)\n    c = tl.arange(0, LANES)\n"
    "    v = tl.load(src + r * src_pitch + c, mask=c < width, other=-float('inf'))\n"
    "    e = tl.exp(v - tl.max(v, axis=0))\n    tl.store(dst + r * dst_pitch + c, e / tl.sum(e, axis=0), mask=c < width)\n",
    "m = torch.randn(16, 100)\np = torch.empty_like(m)\nrow_softmax[(16,)](m, p, m.stride(0), p.stride(0), 100, LANES=triton.next_power_of_2(100))\n"
    "assert torch.allclose(p, torch.softmax(m, dim=1), atol=1e-6)",
    "@triton.jit\ndef swizzle_map(src, dst, GROUP: tl.constexpr):\n    i, j = tl.program_id(0), tl.program_id(1)\n"
    "    ni, nj = tl.num_programs(0), tl.num_programs(1)\n    si, sj = tl.swizzle2d(i, j, ni, nj, GROUP)\n"
    "    tl.store(dst + si * nj + sj, tl.load(src + i * nj + j))\n",
    "grid_in = torch.arange(20, device='cuda').view(5, 4)\ngrid_out = -torch.ones_like(grid_in)\n"
    "swizzle_map[(5, 4)](grid_in, grid_out, GROUP=3);\ngrid_out",
    "results = []\nfor i in range(200):\n    results.append(f'{i:>4} {i * 0.5:.2f}')\nlen(results), sum(len(r) for r in results)",
};

// Argument 1: run as the GUI does with its inspector open - every launch traced (values too) and
// its trace serialized for the worker's `launch` message - to see what the inspector costs.
void BM_TenCellNotebook(benchmark::State& state) {
  double hostSeconds = 0, totalSeconds = 0;
  size_t traceBytes = 0;
  for (auto _ : state) {
    tilescope::python::PythonExecutor ex;
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
    hostSeconds += total - ex.kernelSeconds();
  }
  state.counters["total_ms"] = benchmark::Counter(totalSeconds * 1e3 / static_cast<double>(state.iterations()));
  state.counters["host_ms"] = benchmark::Counter(hostSeconds * 1e3 / static_cast<double>(state.iterations()));
  state.counters["trace_KiB"] = benchmark::Counter(static_cast<double>(traceBytes) / 1024.0 / static_cast<double>(state.iterations()));
}
BENCHMARK(BM_TenCellNotebook)->ArgName("inspect")->Arg(0)->Arg(1)->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMillisecond);

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
  tilescope::python::PythonExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  size_t traceBytes = 0;
  if (state.range(0)) cb.launch = [&](const tilescope::host::LaunchRecord& l) { traceBytes = l.trace.size(); };
  tilescope::host::CancelToken cancel;
  if (ex.execute(setup, "setup", cb, cancel).status != tilescope::host::ExecutionOutcome::Status::Ok) {
    state.SkipWithError("setup failed");
    return;
  }
  for (auto _ : state) {
    cb.tracedLaunches = 0;  // each iteration is a fresh run of the cell: its launch is traced
    auto o = ex.execute(launch, "launch", cb, cancel);
    if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) {
      state.SkipWithError((o.errorName + ": " + o.errorValue).c_str());
      return;
    }
  }
  state.counters["trace_MiB"] = benchmark::Counter(static_cast<double>(traceBytes) / (1 << 20));
}
BENCHMARK(BM_SeedGroupedMatmul)->ArgName("inspect")->Arg(0)->Arg(1)->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMillisecond);

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
  tilescope::python::PythonExecutor ex;
  for (auto _ : state) {
    tilescope::host::ExecutionCallbacks cb;
    tilescope::host::CancelToken cancel;
    std::atomic<bool> started{false};
    cb.stream = [&](const std::string&, const std::string&) { started = true; };
    // The cell runs on this (the main) thread, as in the worker: CPython delivers the interrupt there.
    std::chrono::steady_clock::time_point cancelled;
    std::thread canceller([&] {
      while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // well inside the loop
      cancelled = std::chrono::steady_clock::now();
      cancel.cancel();
    });
    const tilescope::host::ExecutionOutcome outcome = ex.execute(code, "loop", cb, cancel);
    const auto returned = std::chrono::steady_clock::now();
    canceller.join();
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
