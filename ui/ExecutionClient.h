#pragma once
// How the notebook runs code: an interface, so that the window neither knows nor cares that cells
// run in a separate worker process (WorkerProcessClient), and tests can drive it directly.
// Every signal carries the id of the cell it belongs to; cells keep their id when they move.
#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace tilescope::ui {

enum class Backend { Simulator, Gpu, Auto };
QString backendName(Backend backend);  // "simulator", "gpu", "auto" (protocol spelling)

struct TracebackFrame {
  QString file;  // "<cell:ID>" for code of a notebook cell
  int line = 0;  // 1-based; 0 = unknown
  int column = 0;
  QString text;      // the source line; a diagnostic's source line with a caret line under it
  QString severity;  // empty for a call frame; "error", "warning" or "note" for a kernel diagnostic
  QString message;   // a diagnostic's message
  QString cellId() const;  // the ID of a "<cell:ID>" file, else empty
  bool isDiagnostic() const { return !severity.isEmpty(); }
};

struct ExecutionError {
  QString name;   // "TypeError", "KeyboardInterrupt", ...
  QString value;  // the message
  QList<TracebackFrame> traceback;  // outermost first
};

struct BinaryBlob {
  QString mimeType;
  QByteArray bytes;
};

// display_data or execute_result: a Jupyter MIME bundle plus binary blobs (large traces).
struct RichOutput {
  bool isExecuteResult = false;
  int executionCount = 0;  // execute_result only
  nlohmann::json data = nlohmann::json::object();
  nlohmann::json metadata = nlohmann::json::object();
  QList<BinaryBlob> blobs;
};

// A kernel launch of a cell, for the inspector (the worker's `launch` message): the binary trace of a
// simulated launch (docs/TRACE_FORMAT.md); empty for GPU launches.
struct KernelLaunch {
  QString kernel;
  qint64 grid[3] = {1, 1, 1};
  QString backend;  // "simulator" or "gpu"
  qint64 tracedPrograms = 0;
  QByteArray trace;
  QString untracedReason;  // a simulated launch without a trace: why
  QByteArray programTiming;  // a GPU launch with program timing: its --program-timing JSON line (core/gpu/runtime/ProgramTiming)
};

enum class CellRunStatus { Ok, Error, Aborted };

class ExecutionClient : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;
  // Queues the cell; cells run one at a time in the order given. After an error (unless the cell was
  // queued with expectErrors()) or an interrupt the queue is dropped (each dropped cell gets
  // cellFinished(Aborted)), as Jupyter does.
  virtual void runCell(const QString& cellId, const QString& code, Backend backend) = 0;
  virtual void interrupt() = 0;
  // A fresh interpreter: state from earlier cells is gone.
  virtual void restart() = 0;
  virtual bool isBusy() const = 0;

  // What the simulator does with unmasked out-of-bounds lanes in the cells queued from now on: stop
  // with an error (the default) or read 0 with a warning. A notebook asks for "warn" in its metadata
  // ({"tilescope": {"out_of_bounds": "warn"}}), as `tilescope-cli run` honours.
  void setWarnOnOutOfBounds(bool warn) { warnOnOutOfBounds_ = warn; }
  bool warnOnOutOfBounds() const { return warnOnOutOfBounds_; }
  // Whether the cells queued from now on are expected to fail (tagged "raises-exception", Jupyter's
  // convention): such a cell's error does not drop the cells queued after it.
  void setExpectErrors(bool expect) { expectErrors_ = expect; }
  bool expectErrors() const { return expectErrors_; }
  // Whether the cells queued from now on are tagged "gpu-only": the worker skips them, saying why,
  // unless kernels run on a GPU (core/base/GpuOnlyCells.h).
  void setGpuOnly(bool gpuOnly) { gpuOnly_ = gpuOnly; }
  bool gpuOnly() const { return gpuOnly_; }
  // Whether cells queued from now on report their kernel launches (kernelLaunched) with traces.
  void setInspectLaunches(bool inspect) { inspectLaunches_ = inspect; }
  bool inspectLaunches() const { return inspectLaunches_; }
  // Programs the inspector asked to see in this cell's launches (its "Trace on the next run"): from
  // the cell's next run on, they are traced besides the trace policy's sample (execute_request's
  // "trace_pids").
  void setRequestedTracePrograms(const QString& cellId, const std::vector<std::array<int64_t, 3>>& pids) {
    requestedTracePrograms_[cellId] = pids;
  }
  std::vector<std::array<int64_t, 3>> requestedTracePrograms(const QString& cellId) const {
    return requestedTracePrograms_.value(cellId);
  }

signals:
  void executionStarted(const QString& cellId, int executionCount);
  void streamOutput(const QString& cellId, const QString& streamName, const QString& text);
  void richOutput(const QString& cellId, const tilescope::ui::RichOutput& output);
  void errorOutput(const QString& cellId, const tilescope::ui::ExecutionError& error);
  void cellFinished(const QString& cellId, tilescope::ui::CellRunStatus status);
  void kernelLaunched(const QString& cellId, const tilescope::ui::KernelLaunch& launch);
  void busyChanged(bool busy);
  void workerStarted(const QString& description);
  // The worker stopped unexpectedly (crash, or killed because it ignored an interrupt). reason is a
  // sentence for the user; a fresh worker is being started.
  void workerDied(const QString& reason);

private:
  bool warnOnOutOfBounds_ = false;
  bool expectErrors_ = false;
  bool gpuOnly_ = false;
  bool inspectLaunches_ = false;
  QHash<QString, std::vector<std::array<int64_t, 3>>> requestedTracePrograms_;
};

}  // namespace tilescope::ui
