#pragma once
// The seam between the worker process (app/cli/WorkerCommand.cpp) and whatever runs a cell's code.
// The worker owns the protocol, the threads and cancellation (docs/PROTOCOL.md); an executor only runs
// code on the worker's main thread, reports what it produces through the callbacks, and polls the
// cancel token often (between statements, inside loops) so that Interrupt stops it within 1 s.
// core/python's PythonExecutor (the embedded CPython) implements this interface.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::host {

enum class Backend { Simulator, Gpu, Auto };

inline const char* backendName(Backend backend) {
  switch (backend) {
    case Backend::Simulator: return "simulator";
    case Backend::Gpu: return "gpu";
    case Backend::Auto: return "auto";
  }
  return "auto";
}

inline std::optional<Backend> parseBackend(std::string_view name) {
  if (name == "simulator") return Backend::Simulator;
  if (name == "gpu") return Backend::Gpu;
  if (name == "auto") return Backend::Auto;
  return std::nullopt;
}

// Set from the worker's control thread (interrupt_request) or its SIGINT handler, polled by the
// executor. Lock-free, so setting it from a signal handler is safe.
class CancelToken {
public:
  bool cancelled() const noexcept { return flag_.load(std::memory_order_relaxed); }
  void cancel() noexcept { flag_.store(true, std::memory_order_relaxed); }
  void reset() noexcept { flag_.store(false, std::memory_order_relaxed); }
  // For a simulator launch to poll directly (sim::CancelToken::follow).
  const std::atomic<bool>* flag() const noexcept { return &flag_; }

private:
  static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler needs a lock-free flag");
  std::atomic<bool> flag_{false};
};

// One frame of a traceback, outermost first as Python prints them. line and column are 1-based;
// 0 means unknown. A cell's code is compiled under cellFileName(cellId), so the UI can put an error
// marker into the right cell (also into another cell, e.g. the one defining a failing kernel).
struct TracebackFrame {
  TracebackFrame() = default;
  TracebackFrame(std::string file, int line, int column, std::string text, std::string severity = {},
                 std::string message = {})
      : file(std::move(file)), line(line), column(column), text(std::move(text)), severity(std::move(severity)),
        message(std::move(message)) {}

  std::string file;
  int line = 0;
  int column = 0;
  std::string text;  // what went wrong here, or the source line (a diagnostic's: and a caret line)
  // Empty for a frame of the call stack. A diagnostic of the kernel checker, the simulator or the
  // parser: "error", "warning" or "note", with its message (docs/PROTOCOL.md).
  std::string severity;
  std::string message;
};

inline std::string cellFileName(std::string_view cellId) { return "<cell:" + std::string(cellId) + ">"; }

// Large binary payloads (program traces) travel as raw frames next to a rich output, never as JSON.
struct BinaryBlob {
  std::string mimeType;
  std::string bytes;
};

// A Jupyter MIME bundle ({"text/plain": "...", "image/png": "<base64>"}) with its metadata.
struct RichOutput {
  nlohmann::json data = nlohmann::json::object();
  nlohmann::json metadata = nlohmann::json::object();
  std::vector<BinaryBlob> blobs;
};

// A kernel launch for the inspector: what ran where, and on the simulator its trace in the binary
// format of docs/TRACE_FORMAT.md (empty for GPU launches, which record no trace).
struct LaunchRecord {
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::string backend;  // "simulator" or "gpu"
  int64_t tracedPrograms = 0;
  std::string trace;
  std::string untracedReason;  // why a simulated launch has no trace ("" when it has one)
};

struct ExecutionCallbacks {
  // streamName is "stdout" or "stderr"; text is sent as it comes (no buffering by line).
  std::function<void(const std::string& streamName, const std::string& text)> stream;
  std::function<void(const RichOutput& output)> displayData;
  // Set only by clients that show launches (the GUI's inspector): simulated launches are then traced
  // (LaunchSettings::inspectorTraceBytes caps each trace) and every launch is reported here.
  std::function<void(const LaunchRecord& launch)> launch;
  // Only the first launches of a run are traced for `launch` (a benchmark loop launches a kernel
  // hundreds of times); later ones are reported without a trace.
  int tracedLaunchLimit = 16;
  mutable int tracedLaunches = 0;  // counted by the launches during the run
  // Programs the user asked to see (the inspector's "Trace on the next run"): traced in every launch
  // traced for `launch` whose grid has them, besides the trace policy's sample.
  std::vector<std::array<int64_t, 3>> tracedPrograms;
  // Set: GPU launches record each program's SM and start/end times, and each launch's timing comes
  // here as its --program-timing JSON line (core/gpu/runtime/ProgramTiming), as `run --program-timing`
  // writes to its file. The worker sends it to the client (the protocol's program_timing message).
  std::function<void(const std::string& line)> programTiming;
};

struct ExecutionOutcome {
  enum class Status { Ok, Error, Cancelled };
  Status status = Status::Ok;
  std::optional<RichOutput> result;       // the value of a trailing expression (execute_result)
  std::string errorName;                  // Error: e.g. "TypeError"; Cancelled: "KeyboardInterrupt"
  std::string errorValue;                 // the message, saying what to do
  std::vector<TracebackFrame> traceback;  // outermost first
};

class CellExecutor {
public:
  virtual ~CellExecutor() = default;
  // Short name reported to the UI ("host-runtime", "test-double", ...).
  virtual std::string name() const = 0;
  // The backend chosen in the UI for the following execute() calls. Kept as a setting rather than an
  // execute() argument because it is a session choice, like Triton's device.
  virtual void setBackend(Backend backend) = 0;
  // Whether an unmasked out-of-bounds access stops a simulated launch (true) or warns and reads 0.
  virtual void setStopOnOutOfBounds(bool stop) = 0;
  // Runs one cell. State (variables, kernels) persists between calls within one worker process.
  // Must return soon after cancel.cancelled() becomes true, with Status::Cancelled.
  virtual ExecutionOutcome execute(const std::string& code, const std::string& cellId,
                                   const ExecutionCallbacks& callbacks, const CancelToken& cancel) = 0;
  // True after a cell left this process unable to run further cells (a GPU fault: CUDA keeps the
  // process's GPU state broken). The worker then replies and exits, and the app starts a fresh one.
  virtual bool needsFreshProcess() const { return false; }
  // Whether kernels launched by the next execute() run on a GPU (the GPU or auto backend with a usable
  // device). Cells tagged gpu-only are skipped when they would not (GpuOnlyCells.h).
  virtual bool runsKernelsOnGpu() const { return false; }
};

}  // namespace tilescope::host
