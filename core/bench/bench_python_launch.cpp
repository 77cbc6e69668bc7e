// Per-launch host cost of a cached kernel on embedded CPython (issue 22 asks for at most half of
// Triton's per-launch host time on the GPU; this is the simulator side of it). One 1,024-element
// vector add, checked once, launched 200 times from a Python loop; the time reported is that of the
// 200 launches (simulator time included).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "core/python/PythonExecutor.h"

namespace {

const char* kSetup = R"(import torch
import triton
import triton.language as tl

@triton.jit
def add(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(out_ptr + i, tl.load(a_ptr + i, mask=keep) + tl.load(b_ptr + i, mask=keep), mask=keep)

a = torch.rand(1024, device='cuda')
b = torch.rand(1024, device='cuda')
out = torch.empty_like(a)
add[(1,)](a, b, out, 1024, BLOCK=1024)
)";

const char* kLoop = "for _ in range(200):\n    add[(1,)](a, b, out, 1024, BLOCK=1024)\n";

template <class Executor>
void launches(benchmark::State& state) {
  Executor executor;
  tilescope::host::ExecutionCallbacks callbacks;
  auto run = [&](const char* name, const char* code) {
    return executor.run(std::make_shared<tilescope::lang::SourceFile>(name, code), false, callbacks, nullptr).status ==
           tilescope::host::ExecutionOutcome::Status::Ok;
  };
  if (!run("setup.py", kSetup)) {
    state.SkipWithError("the setup failed");
    return;
  }
  for (auto _ : state) {
    if (!run("loop.py", kLoop)) {
      state.SkipWithError("the loop failed");
      return;
    }
  }
}

void BM_EmbeddedLaunches(benchmark::State& state) { launches<tilescope::python::PythonExecutor>(state); }

BENCHMARK(BM_EmbeddedLaunches)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
