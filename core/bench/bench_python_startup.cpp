// Start-up of the worker that runs a notebook's cells (issue 22; target: ready to run a cell within
// 300 ms of starting, without installed PyTorch). Each iteration starts `tilescope-cli worker` as the
// GUI does, sends one execute_request at once, and times from the fork until that cell's
// execute_reply arrives:
//   BM_WorkerRunsFirstCell         a cell `x = 1`: the embedded CPython started, our packages found,
//                                  the session's namespace made, the cell run
//   BM_WorkerRunsFirstKernelCell   a cell `import torch, triton; import triton.language as tl`: also
//                                  the built-in torch and our triton imported
//   BM_EmbeddedReady               in-process, for the breakdown: a PythonExecutor made in a fresh
//                                  child (no process exec, no protocol)
#include <benchmark/benchmark.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/FrameCodec.h"
#include "core/python/PythonExecutor.h"

namespace {

using Clock = std::chrono::steady_clock;

// Starts a worker, sends one cell and waits for its execute_reply; the seconds it took, or a negative
// number when the worker failed (the reply said error, or none came within 10 s).
double timeWorkerFirstCell(const std::string& code) {
  const Clock::time_point start = Clock::now();
  int toChild[2];
  int fromChild[2];
  if (::pipe(toChild) != 0 || ::pipe(fromChild) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(toChild[0], 0);
    ::dup2(fromChild[1], 1);
    ::close(toChild[1]);
    ::close(fromChild[0]);
    ::unsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");
    char* argv[] = {const_cast<char*>("tilescope-cli"), const_cast<char*>("worker"), nullptr};
    ::execv(TILESCOPE_CLI_PATH, argv);
    ::_exit(127);
  }
  ::close(toChild[0]);
  ::close(fromChild[1]);
  // Sent before the worker has started: the pipe holds it, as the GUI's first Run does.
  const nlohmann::json request = {{"type", "execute_request"}, {"id", "r1"}, {"cell_id", "c1"}, {"code", code}};
  const std::string frame = tilescope::util::encodeFrame(tilescope::util::FrameKind::Json, request.dump());
  double seconds = -1;
  if (::write(toChild[1], frame.data(), frame.size()) == static_cast<ssize_t>(frame.size())) {
    tilescope::util::FrameDecoder decoder;
    const Clock::time_point deadline = start + std::chrono::seconds(10);
    bool done = false;
    while (!done && Clock::now() < deadline) {
      pollfd p{fromChild[0], POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(fromChild[0], buffer, sizeof buffer);
      if (n <= 0) break;
      decoder.feed(buffer, static_cast<size_t>(n));
      while (auto f = decoder.next()) {
        if (f->kind != tilescope::util::FrameKind::Json) continue;
        const nlohmann::json message = nlohmann::json::parse(f->payload);
        if (message.value("type", "") != "execute_reply") continue;
        if (message.value("status", "") == "ok") seconds = std::chrono::duration<double>(Clock::now() - start).count();
        done = true;
      }
    }
  }
  ::close(toChild[1]);
  ::close(fromChild[0]);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return seconds;
}

void runWorkerBenchmark(benchmark::State& state, const std::string& code) {
  for (auto _ : state) {
    const double seconds = timeWorkerFirstCell(code);
    if (seconds < 0) {
      state.SkipWithError("the worker did not run the cell (see its stderr)");
      return;
    }
    state.SetIterationTime(seconds);
  }
}

void BM_WorkerRunsFirstCell(benchmark::State& state) { runWorkerBenchmark(state, "x = 1\n"); }
void BM_WorkerRunsFirstKernelCell(benchmark::State& state) {
  runWorkerBenchmark(state, "import torch, triton\nimport triton.language as tl\n");
}

// The embedded interpreter's share alone: a child that starts from nothing makes one executor.
void BM_EmbeddedReady(benchmark::State& state) {
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    const pid_t child = ::fork();
    if (child == 0) {
      tilescope::python::PythonExecutor executor;
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("the child failed");
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
  }
}

BENCHMARK(BM_WorkerRunsFirstCell)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_WorkerRunsFirstKernelCell)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_EmbeddedReady)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
