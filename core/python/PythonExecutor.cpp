#include "core/python/PythonExecutor.h"

#include "core/python/KernelLauncher.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/EmbeddedInterpreter.h"
#include "core/python/EngineSession.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

int raiseRequestedInterrupt(void*) {
  if (!EngineSession::takeInterrupt()) return 0;  // its cell has ended
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  return -1;
}

// Turns a cancel request into KeyboardInterrupt in the Python code running on the main thread: a
// pending call (run by the main thread between bytecodes), made noticed by taking the GIL once: in
// CPython 3.11 a pending call added from another thread alone does not wake the main thread's
// loop, a request for the GIL does. Kernel launches watch the same token themselves.
class CancelWatcher {
public:
  explicit CancelWatcher(const host::CancelToken* token) {
    if (!token) return;
    thread_ = std::thread([this, token] {
      {
        std::unique_lock<std::mutex> lock(m_);
        while (!done_ && !token->cancelled()) cv_.wait_for(lock, std::chrono::milliseconds(10));
        if (done_) return;
      }
      EngineSession::requestInterrupt();
      Py_AddPendingCall(&raiseRequestedInterrupt, nullptr);
      const PyGILState_STATE gil = PyGILState_Ensure();
      PyGILState_Release(gil);
    });
  }
  ~CancelWatcher() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    // The watcher may be waiting for the GIL this thread holds.
    PyThreadState* state = PyEval_SaveThread();
    thread_.join();
    PyEval_RestoreThread(state);
    EngineSession::takeInterrupt();  // not handled in time: not for the next cell
  }
  CancelWatcher(const CancelWatcher&) = delete;
  CancelWatcher& operator=(const CancelWatcher&) = delete;

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

struct PythonExecutor::State {
  py::module_ shell;
  py::object main;  // this executor's __main__ module
};

PythonExecutor::PythonExecutor() : session_(std::make_unique<EngineSession>()) {
  EmbeddedInterpreter::ensureStarted();
  state_ = std::make_unique<State>();
  try {
    state_->shell = py::module_::import("tilescope.shell");
    state_->main = state_->shell.attr("new_main_module")();
  } catch (py::error_already_set& e) {
    throw PythonStartError(std::string("the embedded Python cannot load tilescope.shell: ") + e.what());
  }
}

PythonExecutor::~PythonExecutor() {
  if (!state_) return;
  // Drop this namespace's objects now (tensors, kernels), not at process exit.
  try {
    state_->shell.attr("release_main_module")(state_->main);
  } catch (py::error_already_set&) {
  }
  state_.reset();
}

host::LaunchSettings& PythonExecutor::launchSettings() { return session_->launchSettings(); }
const host::LaunchSettings& PythonExecutor::launchSettings() const { return session_->launchSettings(); }
double PythonExecutor::kernelSeconds() const { return host::KernelLauncher::simulatorSeconds(session_->launchContext()); }

bool PythonExecutor::needsFreshProcess() const { return gpu::GpuRuntime::instance().hadStickyFault(); }

bool PythonExecutor::runsKernelsOnGpu() const {
  return launchSettings().backend != host::Backend::Simulator && gpu::GpuRuntime::instance().available();
}

host::ExecutionOutcome PythonExecutor::execute(const std::string& code, const std::string& cellId,
                                               const host::ExecutionCallbacks& callbacks, const host::CancelToken& cancel) {
  return run(std::make_shared<lang::SourceFile>(host::cellFileName(cellId), code), true, callbacks, &cancel);
}

host::ExecutionOutcome PythonExecutor::run(const lang::SourceFilePtr& file, bool displayLast,
                                           const host::ExecutionCallbacks& callbacks, const host::CancelToken* cancel) {
  host::ExecutionOutcome outcome;
  lastTraceback_.clear();
  EngineSession::Activation active(*session_, callbacks, cancel);
  std::optional<CancelWatcher> watcher(std::in_place, cancel);
  try {
    std::string scriptDir;
    if (!displayLast && std::filesystem::is_regular_file(file->name()))
      scriptDir = std::filesystem::absolute(file->name()).parent_path().string();
    py::object result = state_->shell.attr("run_code")(file->text(), file->name(), file->firstLine(), state_->main,
                                                       displayLast, scriptDir);
    if (!result.is_none()) {
      host::RichOutput out;
      out.data["text/plain"] = result.cast<std::string>();
      outcome.result = std::move(out);
    }
  } catch (py::error_already_set& e) {
    // Stopped before describing the error: an interrupt that a launch already turned into
    // KeyboardInterrupt must not raise a second one inside describe_error.
    watcher.reset();
    py::dict info;
    try {
      info = state_->shell.attr("describe_error")(e.value(), e.trace());
    } catch (py::error_already_set& failed) {
      // Describing it failed (an exception whose str() raises, say): report what is known.
      outcome.status = e.matches(PyExc_KeyboardInterrupt) ? host::ExecutionOutcome::Status::Cancelled
                                                          : host::ExecutionOutcome::Status::Error;
      outcome.errorName = py::str(e.type().attr("__name__")).cast<std::string>();
      outcome.errorValue = "(the error's message could not be shown: " + std::string(failed.what()) + ")";
      lastTraceback_ = outcome.errorName + ": " + outcome.errorValue + "\n";
      return outcome;
    }
    const bool cancelled = info["cancelled"].cast<bool>();
    outcome.status = cancelled ? host::ExecutionOutcome::Status::Cancelled : host::ExecutionOutcome::Status::Error;
    outcome.errorName = info["name"].cast<std::string>();
    outcome.errorValue = info["value"].cast<std::string>();
    for (py::handle f : info["frames"]) {
      outcome.traceback.push_back(host::TracebackFrame{f["file"].cast<std::string>(), f["line"].cast<int>(),
                                                       f["col"].cast<int>(), f["text"].cast<std::string>()});
    }
    // Kernel and syntax diagnostics: frames of their own, innermost (docs/PROTOCOL.md).
    for (py::handle d : info["diagnostics"]) {
      outcome.traceback.push_back(host::TracebackFrame{d["file"].cast<std::string>(), d["line"].cast<int>(),
                                                       d["col"].cast<int>(), d["snippet"].cast<std::string>(),
                                                       d["severity"].cast<std::string>(), d["message"].cast<std::string>()});
    }
    lastTraceback_ = info["text"].cast<std::string>();
  }
  return outcome;
}

}  // namespace tilescope::python
