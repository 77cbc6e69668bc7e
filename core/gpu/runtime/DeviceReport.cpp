#include "core/gpu/runtime/DeviceReport.h"

#include <cstdio>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"

namespace tilescope::gpu {
namespace {
std::string gib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}
}  // namespace

DeviceReport DeviceReport::probe() {
  DeviceReport report;
  const CudaDriver& driver = CudaDriver::instance();
  if (driver.available()) {
    const GpuDeviceInfo& dev = driver.devices().front();
    report.gpuAvailable = true;
    report.gpuSummary = dev.name + " (" + dev.arch() + ", compute capability " + std::to_string(dev.computeMajor) +
                        "." + std::to_string(dev.computeMinor) + ", " + std::to_string(dev.multiprocessors) +
                        " SMs, " + gib(dev.totalMemoryBytes) + ")";
    if (driver.devices().size() > 1)
      report.gpuSummary += " + " + std::to_string(driver.devices().size() - 1) + " more";
  } else {
    report.gpuSummary = "No CUDA device - simulator mode (" + driver.unavailableReason() + ")";
  }
  const Nvrtc& nvrtc = Nvrtc::instance();
  report.nvrtcAvailable = nvrtc.available();
  report.nvrtcSummary = nvrtc.available() ? "NVRTC " + nvrtc.version() + " (" + nvrtc.libraryPath() + ")"
                                          : nvrtc.unavailableReason();
  return report;
}

void DeviceReport::warmUp() const {
  if (!gpuAvailable || !nvrtcAvailable) return;
  GpuCompiler::warmUpInBackground(GpuCompiler::defaultArch());
  GpuRuntime::instance().prepareInBackground();
}

std::string DeviceReport::statusLine() const {
  const std::string gpu = gpuAvailable ? gpuSummary : std::string("No CUDA device - simulator mode");
  const std::string compiler = nvrtcAvailable ? nvrtcSummary.substr(0, nvrtcSummary.find(" (")) : "no NVRTC";
  return gpu + "  |  " + compiler;
}

std::string DeviceReport::text() const {
  std::string out = "GPU:   " + gpuSummary + "\n";
  out += "NVRTC: " + nvrtcSummary + "\n";
  out += std::string("Backends: simulator") + (gpuAvailable && nvrtcAvailable ? ", gpu" : "") +
         (gpuAvailable && nvrtcAvailable ? "" : " (gpu backend needs a CUDA device and NVRTC)") + "\n";
  return out;
}

}  // namespace tilescope::gpu
