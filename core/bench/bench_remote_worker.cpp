// The cost of running cells on a remote worker over SSH (issue 24; target: a trivial cell's round
// trip adds under 20 ms over a local worker), measured through a private sshd on 127.0.0.1
// (core/testing/LocalSshServer.h), so what is measured is ssh's own overhead, not a network's:
//   BM_TrivialCellRoundTrip/0   a local `tilescope-cli worker`: execute_request to execute_reply
//   BM_TrivialCellRoundTrip/1   the same worker behind `ssh -T ... tilescope-cli worker`
//   BM_InterruptWhileTrue/0, /1 from interrupt_request to the execute_reply of a `while True: pass` cell
// Each benchmark starts one worker and keeps it (the start is a one-off cost, not a per-cell one).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <thread>

#include "core/base/SshTarget.h"
#include "core/base/WorkerConnection.h"
#include "core/testing/LocalSshServer.h"

namespace {
using tilescope::util::WorkerConnection;

tilescope::testing::LocalSshServer& server() {
  static tilescope::testing::LocalSshServer instance;
  return instance;
}

// A worker, local or behind ssh, past its hello; null (with `error`) when it cannot start.
std::unique_ptr<WorkerConnection> startWorker(bool overSsh, std::string& error) {
  std::vector<std::string> argv{TILESCOPE_CLI_PATH, "worker"};
  if (overSsh) {
    if (!server().skipReason().empty()) {
      error = "no local SSH server: " + server().skipReason();
      return nullptr;
    }
    tilescope::util::SshTarget target;
    target.host = tilescope::testing::LocalSshServer::kHost;
    target.remoteCommand = TILESCOPE_CLI_PATH;
    argv = {server().sshWrapper()};
    for (std::string& a : tilescope::util::sshArguments(target, {"worker"})) argv.push_back(std::move(a));
  }
  auto worker = std::make_unique<WorkerConnection>();
  if (!worker->start(argv, error)) return nullptr;
  tilescope::util::Message hello;
  if (worker->receive(hello, 30000) != WorkerConnection::Wait::Message) {
    error = "no hello: " + worker->stderrText();
    return nullptr;
  }
  return worker;
}

// Sends a cell and waits for its execute_reply (and the status idle after it).
bool runCell(WorkerConnection& worker, const std::string& id, const std::string& code, bool interruptAfterStart = false,
             std::chrono::steady_clock::time_point* interruptedAt = nullptr) {
  worker.send({{"type", "execute_request"}, {"id", id}, {"cell_id", "c"}, {"code", code}, {"backend", "simulator"}});
  for (;;) {
    tilescope::util::Message m;
    if (worker.receive(m, 30000) != WorkerConnection::Wait::Message) return false;
    const std::string type = m.json.value("type", "");
    if (type == "execute_input" && interruptAfterStart) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the loop is running
      *interruptedAt = std::chrono::steady_clock::now();
      worker.send({{"type", "interrupt_request"}});
    }
    if (type == "status" && m.json.value("state", "") == "idle") return true;
  }
}

void BM_TrivialCellRoundTrip(benchmark::State& state) {
  std::string error;
  auto worker = startWorker(state.range(0) == 1, error);
  if (!worker) {
    state.SkipWithError(error.c_str());
    return;
  }
  runCell(*worker, "warm", "x = 1");  // the first cell pays for imports
  int n = 0;
  for (auto _ : state)
    if (!runCell(*worker, "r" + std::to_string(++n), "x = 1")) {
      state.SkipWithError("the worker went away");
      return;
    }
}
BENCHMARK(BM_TrivialCellRoundTrip)->Arg(0)->Arg(1)->ArgName("ssh")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_InterruptWhileTrue(benchmark::State& state) {
  std::string error;
  auto worker = startWorker(state.range(0) == 1, error);
  if (!worker) {
    state.SkipWithError(error.c_str());
    return;
  }
  int n = 0;
  for (auto _ : state) {
    std::chrono::steady_clock::time_point interruptedAt;
    if (!runCell(*worker, "i" + std::to_string(++n), "while True:\n    pass\n", true, &interruptedAt)) {
      state.SkipWithError("the worker went away");
      return;
    }
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - interruptedAt).count());
  }
}
BENCHMARK(BM_InterruptWhileTrue)->Arg(0)->Arg(1)->ArgName("ssh")->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(10);

}  // namespace

BENCHMARK_MAIN();
