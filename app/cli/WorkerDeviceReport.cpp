#include "app/cli/WorkerDeviceReport.h"

#include <chrono>
#include <cstdlib>

#include "app/cli/WorkerChannel.h"
#include "core/base/WorkerExitCodes.h"
#include "core/gpu/runtime/DeviceReport.h"

namespace tilescope::cli {

WorkerDeviceReport::~WorkerDeviceReport() {
  std::lock_guard lock(mutex_);
  if (probe_.joinable()) probe_.join();
}

void WorkerDeviceReport::request() {
  std::lock_guard lock(mutex_);
  if (probe_.joinable()) probe_.join();  // the earlier answer was sent (or is being sent) by it
  probe_ = std::thread([this] {
    const gpu::DeviceReport report = gpu::DeviceReport::probe();
    // The first kernel run then finds the compiler and the CUDA context ready.
    report.warmUp();
    channel_.send({{"type", "device_report"},
                   {"gpu_available", report.gpuAvailable},
                   {"status_line", report.statusLine()},
                   {"details", report.text()}});
  });
}

void exitIfCellOutlivesInput() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(util::kWorkerEndOfInputGraceSeconds));
    std::_Exit(util::kWorkerExitCellOutlivedInput);
  }).detach();
}

}  // namespace tilescope::cli
