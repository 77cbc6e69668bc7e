#pragma once
// The worker's answer to `device_request` (docs/PROTOCOL.md): what this machine's kernels run on, for
// the status bar of an app whose worker runs on another machine over SSH. Probing loads libcuda and
// may take a second, so it runs on a thread of its own: the watcher thread keeps reading interrupts.
#include <mutex>
#include <thread>

namespace tilescope::cli {

class WorkerChannel;

class WorkerDeviceReport {
public:
  explicit WorkerDeviceReport(WorkerChannel& channel) : channel_(channel) {}
  ~WorkerDeviceReport();  // waits for a probe still running
  WorkerDeviceReport(const WorkerDeviceReport&) = delete;
  WorkerDeviceReport& operator=(const WorkerDeviceReport&) = delete;

  // Sends one `device_report` message; later requests while a probe runs are answered by it.
  void request();

private:
  WorkerChannel& channel_;
  std::mutex mutex_;
  std::thread probe_;
};

// Called once the worker's input has ended: if the running cell has not stopped within
// util::kWorkerEndOfInputGraceSeconds of its cancel, the process exits (a worker nobody talks to must
// not keep computing, and a remote one would otherwise run on after the SSH connection closed).
void exitIfCellOutlivesInput();

}  // namespace tilescope::cli
