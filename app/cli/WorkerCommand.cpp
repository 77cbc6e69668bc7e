// tilescope-cli worker: runs notebook cells for the GUI in a separate process, speaking the framed
// JSON protocol of docs/PROTOCOL.md on stdin/stdout. The main thread executes cells one at a time;
// a watcher thread keeps reading stdin so that an interrupt_request (or SIGINT) can set the cancel
// flag while a cell runs.
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "app/cli/Commands.h"
#include "core/base/GpuOnlyCells.h"
#include "core/base/WorkerRequest.h"
#include "core/base/WorkerExitCodes.h"
#include "app/cli/TestCellExecutor.h"
#include "core/python/EmbeddedInterpreter.h"
#include "core/python/PythonExecutor.h"
#include "core/python/TorchChoice.h"
#include "app/cli/WorkerChannel.h"
#include "app/cli/WorkerDeviceReport.h"
#include "core/base/WorkerProtocol.h"

namespace tilescope::cli {
namespace {
using nlohmann::json;

constexpr int kProtocolVersion = util::kWorkerProtocolVersion;

struct QueuedRequest {
  host::ExecuteRequest request;
  bool abortedBeforeStart = false;  // interrupted while still queued: reply "aborted" without running
  std::string rejection;            // a malformed execute_request: reply with this error, run nothing
};

// Requests waiting for the main thread, and the one it is running, guarded together so that an
// interrupt either cancels the running cell or aborts the queued ones, never neither.
class RequestQueue {
public:
  explicit RequestQueue(host::CancelToken& cancel) : cancel_(cancel) {}

  void push(QueuedRequest request) {
    {
      std::lock_guard lock(mutex_);
      pending_.push_back(std::move(request));
    }
    ready_.notify_one();
  }

  // Blocks for the next request; nullopt once closed and drained. Marks it running and clears the
  // cancel flag under the lock, so an earlier interrupt cannot leak into it.
  std::optional<QueuedRequest> takeNext() {
    std::unique_lock lock(mutex_);
    running_ = false;
    ready_.wait(lock, [this] { return closed_ || !pending_.empty(); });
    if (pending_.empty()) return std::nullopt;
    QueuedRequest next = std::move(pending_.front());
    pending_.pop_front();
    cancel_.reset();
    running_ = true;
    return next;
  }

  void interrupt() {
    std::lock_guard lock(mutex_);
    if (running_) cancel_.cancel();
    for (auto& request : pending_) request.abortedBeforeStart = true;
  }

  void close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      cancel_.cancel();
      for (auto& request : pending_) request.abortedBeforeStart = true;
    }
    ready_.notify_one();
  }

private:
  host::CancelToken& cancel_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<QueuedRequest> pending_;
  bool running_ = false;
  bool closed_ = false;
};

host::CancelToken* g_cancelForSignal = nullptr;  // set once before the handler is installed

extern "C" void onSigint(int) {
  if (g_cancelForSignal) g_cancelForSignal->cancel();
}

// Host code runs on the embedded CPython; the test double only where a test asks for it.
std::unique_ptr<host::CellExecutor> makeExecutor() {
  const char* test = std::getenv(TestCellExecutor::kEnvironmentVariable);
  if (test && std::strcmp(test, "1") == 0) return std::make_unique<TestCellExecutor>();
  return std::make_unique<python::PythonExecutor>();
}

json frameJson(const host::TracebackFrame& frame) {
  json out = {{"file", frame.file}, {"line", frame.line}, {"col", frame.column}, {"text", frame.text}};
  if (!frame.severity.empty()) {
    out["severity"] = frame.severity;
    out["message"] = frame.message;
  }
  return out;
}

// The error's value for the notebook. A kernel diagnostic's location is a traceback frame of its
// own (the notebook names the cell there), so the value is only its message, not "<cell:ID>:3:12:
// message" a second time.
std::string errorValue(const host::ExecutionOutcome& outcome) {
  for (const host::TracebackFrame& frame : outcome.traceback)
    if (frame.severity == "error" && !frame.message.empty()) return frame.message;
  return outcome.errorValue;
}

// Reads control messages until stdin closes or a shutdown_request; runs on the watcher thread. A
// message that is well framed but malformed gets an error reply and the worker reads on; a broken
// stream ends it (docs/PROTOCOL.md).
void readControlMessages(WorkerChannel& channel, RequestQueue& queue, WorkerDeviceReport& deviceReport) {
  while (auto incoming = channel.receive()) {
    const host::WorkerRequest request = host::decodeWorkerRequest(incoming->json);
    if (request.kind == host::WorkerRequest::Kind::Execute) {
      queue.push({request.execute, false, {}});
    } else if (request.kind == host::WorkerRequest::Kind::Interrupt) {
      queue.interrupt();
    } else if (request.kind == host::WorkerRequest::Kind::Shutdown) {
      break;
    } else if (request.kind == host::WorkerRequest::Kind::DeviceReport) {
      deviceReport.request();
    } else if (request.rejectedId) {
      // The client waits for this request's reply: end it with the error, in order with the others.
      host::ExecuteRequest rejected;
      rejected.id = *request.rejectedId;
      rejected.cellId = request.rejectedCellId;
      queue.push({std::move(rejected), false, request.error});
    } else {
      channel.send({{"type", "protocol_error"}, {"message", request.error}});
    }
  }
  if (!channel.error().empty()) {
    std::fprintf(stderr, "tilescope-cli worker: %s\n", channel.error().c_str());
    channel.send({{"type", "protocol_error"}, {"message", channel.error()}});
  }
  queue.close();
  exitIfCellOutlivesInput();
}

// The inspector's `launch` message (docs/PROTOCOL.md); the trace travels as a binary blob.
template <class Send>
void sendLaunch(Send& send, const host::LaunchRecord& launch) {
  json message = {{"type", "launch"},          {"kernel", launch.kernel},
                  {"grid", launch.grid},       {"backend", launch.backend},
                  {"traced_programs", launch.tracedPrograms}};
  if (!launch.untracedReason.empty()) message["untraced_reason"] = launch.untracedReason;
  std::vector<host::BinaryBlob> blobs;
  if (!launch.trace.empty()) blobs.push_back({"application/vnd.tilescope.trace", launch.trace});
  send(std::move(message), blobs);
}

class CellRunner {
public:
  CellRunner(WorkerChannel& channel, host::CellExecutor& executor, const host::CancelToken& cancel)
      : channel_(channel), executor_(executor), cancel_(cancel) {}

  void run(const QueuedRequest& queued) {
    const host::ExecuteRequest& request = queued.request;
    const json ids = {{"id", request.id}, {"cell_id", request.cellId}};
    auto send = [&](json message, const std::vector<host::BinaryBlob>& blobs = {}) {
      message.update(ids);
      // The GUI has gone: nothing can be reported any more, and nobody waits for the result.
      if (!channel_.send(message, blobs)) std::_Exit(3);
    };
    send({{"type", "status"}, {"state", "busy"}});
    if (!queued.rejection.empty()) {
      send({{"type", "error"}, {"ename", "InvalidRequest"}, {"evalue", queued.rejection}, {"traceback", json::array()}});
      send({{"type", "execute_reply"}, {"status", "error"}, {"execution_count", nullptr}});
      send({{"type", "status"}, {"state", "idle"}});
      return;
    }
    if (queued.abortedBeforeStart) {
      send({{"type", "execute_reply"}, {"status", "aborted"}, {"execution_count", nullptr}});
      send({{"type", "status"}, {"state", "idle"}});
      return;
    }
    const int count = ++executionCount_;
    send({{"type", "execute_input"}, {"execution_count", count}});

    host::ExecutionCallbacks callbacks;
    callbacks.stream = [&](const std::string& name, const std::string& text) {
      send({{"type", "stream"}, {"name", name}, {"text", text}});
    };
    callbacks.displayData = [&](const host::RichOutput& output) {
      send({{"type", "display_data"}, {"data", output.data}, {"metadata", output.metadata}}, output.blobs);
    };
    if (request.inspect) callbacks.launch = [&](const host::LaunchRecord& launch) { sendLaunch(send, launch); };
    callbacks.tracedPrograms = request.tracePids;
    // The --program-timing line of each timed GPU launch travels as a blob (docs/PROTOCOL.md).
    if (request.programTiming)
      callbacks.programTiming = [&](const std::string& line) {
        send({{"type", "program_timing"}}, {{std::string(util::kProgramTimingMime), line}});
      };
    executor_.setBackend(request.backend);
    executor_.setStopOnOutOfBounds(request.stopOnOutOfBounds);
    host::ExecutionOutcome outcome;
    try {
      if (host::skipsGpuOnlyCell(request.gpuOnly, executor_)) callbacks.stream("stdout", host::gpuOnlySkipMessage());
      else outcome = executor_.execute(request.code, request.cellId, callbacks, cancel_);
    } catch (const std::exception& e) {
      // An executor bug must not take the session down with it; report it as one.
      outcome.status = host::ExecutionOutcome::Status::Error;
      outcome.errorName = "InternalError";
      outcome.errorValue = std::string("tilescope bug while running the cell (please report it): ") + e.what();
    }

    if (outcome.result)
      send({{"type", "execute_result"}, {"execution_count", count}, {"data", outcome.result->data},
            {"metadata", outcome.result->metadata}},
           outcome.result->blobs);
    const char* status = "ok";
    if (outcome.status != host::ExecutionOutcome::Status::Ok) {
      json frames = json::array();
      for (const auto& frame : outcome.traceback) frames.push_back(frameJson(frame));
      send({{"type", "error"}, {"ename", outcome.errorName}, {"evalue", errorValue(outcome)}, {"traceback", frames}});
      status = outcome.status == host::ExecutionOutcome::Status::Cancelled ? "aborted" : "error";
    }
    send({{"type", "execute_reply"}, {"status", status}, {"execution_count", count}});
    send({{"type", "status"}, {"state", "idle"}});
    // After a GPU fault this process's CUDA state stays broken: the app starts a fresh worker.
    if (executor_.needsFreshProcess()) std::_Exit(util::kWorkerExitAfterGpuFault);
  }

private:
  WorkerChannel& channel_;
  host::CellExecutor& executor_;
  const host::CancelToken& cancel_;
  int executionCount_ = 0;
};
}  // namespace

int runWorker(const Args& givenArgs) {
  Args args = givenArgs;
  // --torch builtin|system: which torch the embedded Python's cells import (the GUI's preference).
  bool torchGiven = false;
  if (std::string error; !python::takeTorchOption(args, torchGiven, error)) {
    std::fprintf(stderr, "tilescope-cli worker: %s\n", error.c_str());
    return 2;
  }
  // `--python embedded` (from the days of two Pythons) is still accepted: it is the only one now.
  const bool pythonOption = args.size() == 2 && args[0] == "--python" && args[1] == "embedded";
  if (args.size() == 2 && args[0] == "--python" && args[1] == "interpreter") {
    std::fprintf(stderr, "tilescope-cli worker: --python interpreter: tilescope's own interpreter of a Python subset "
                         "was removed; cells run on the embedded CPython now. Drop the --python option.\n");
    return 2;
  }
  if (!args.empty() && !pythonOption) {
    const bool help = args[0] == "--help" || args[0] == "-h";
    std::fprintf(help ? stdout : stderr,
                 "usage: tilescope-cli worker [--torch builtin|system]\n\n"
                 "Runs notebook cells for the tilescope GUI on the embedded CPython: reads execute requests\n"
                 "on stdin and writes results on stdout as length-prefixed JSON frames (docs/PROTOCOL.md).\n"
                 "Not meant to be used by hand. TILESCOPE_WORKER_TEST_EXECUTOR=1 selects the test double\n"
                 "(tests only). --torch system: cells import installed PyTorch instead of the built-in torch.\n");
    return help ? 0 : 2;
  }
  // The protocol keeps a private copy of stdout; fd 1 then points at stderr, so whatever user code
  // or a library prints can never corrupt the framing.
  const int protocolFd = ::dup(STDOUT_FILENO);
  if (protocolFd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("tilescope-cli worker: cannot set up the protocol channel");
    return 1;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a vanished GUI shows up as a failed write instead of killing us

  WorkerChannel channel(STDIN_FILENO, protocolFd);
  std::unique_ptr<host::CellExecutor> executor;
  try {
    executor = makeExecutor();
  } catch (const std::runtime_error& e) {  // the embedded Python cannot start (python::PythonStartError)
    std::fprintf(stderr, "tilescope-cli worker: %s\n", e.what());
    return 1;
  }
  host::CancelToken cancel;
  RequestQueue queue(cancel);

  // Ctrl+C in a terminal (or a SIGINT from a GUI) interrupts the running cell like interrupt_request.
  g_cancelForSignal = &cancel;
  struct sigaction action {};
  action.sa_handler = onSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);

  if (!channel.send({{"type", "hello"}, {"protocol", kProtocolVersion}, {"version", TILESCOPE_VERSION},
                     {"executor", executor->name()}, {"pid", static_cast<long>(::getpid())}}))
    return 3;

  WorkerDeviceReport deviceReport(channel);
  std::thread watcher(readControlMessages, std::ref(channel), std::ref(queue), std::ref(deviceReport));
  CellRunner runner(channel, *executor, cancel);
  while (auto request = queue.takeNext()) runner.run(*request);
  watcher.join();  // takeNext() only ends after the watcher closed the queue
  return 0;
}

}  // namespace tilescope::cli
