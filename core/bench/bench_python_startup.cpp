// Start-up of host code on embedded CPython (issue 22; target: ready within 300 ms without installed
// PyTorch). Each iteration forks a child that starts from nothing, as a new worker does, and the
// parent times it until the child exits:
//   BM_EmbeddedReady              the interpreter started and a session's namespace made
//   BM_EmbeddedReadyToRunKernels  and `import torch, triton, triton.language` run in a cell
//   BM_InterpreterReady           the hand-written interpreter's HostExecutor, for comparison
// The parent never starts Python itself, so every child pays the whole start.
#include <benchmark/benchmark.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>

#include "core/host/HostExecutor.h"
#include "core/python/PythonExecutor.h"

namespace {

template <class Work>
void timeInChild(benchmark::State& state, Work work) {
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child == 0) _exit(work() ? 0 : 1);
    int status = 0;
    ::waitpid(child, &status, 0);
    const auto end = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("the child failed");
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
}

bool embeddedReady() {
  tilescope::python::PythonExecutor executor;
  return true;
}

bool embeddedReadyToRunKernels() {
  tilescope::python::PythonExecutor executor;
  tilescope::host::ExecutionCallbacks callbacks;
  auto file = std::make_shared<tilescope::lang::SourceFile>("Cell [1]", "import torch, triton\nimport triton.language as tl\n");
  return executor.run(file, true, callbacks, nullptr).status == tilescope::host::ExecutionOutcome::Status::Ok;
}

bool interpreterReady() {
  tilescope::host::HostExecutor executor;
  return true;
}

void BM_EmbeddedReady(benchmark::State& state) { timeInChild(state, embeddedReady); }
void BM_EmbeddedReadyToRunKernels(benchmark::State& state) { timeInChild(state, embeddedReadyToRunKernels); }
void BM_InterpreterReady(benchmark::State& state) { timeInChild(state, interpreterReady); }

BENCHMARK(BM_EmbeddedReady)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_EmbeddedReadyToRunKernels)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_InterpreterReady)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
