#include "core/python/ExecutionBackend.h"

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"

namespace tilescope::host {

void CudaBackend::synchronize(const std::string& forWhat) const {
  try {
    runtime_.synchronize(forWhat);
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  }
}

bool gpuUsable() { return gpu::GpuRuntime::instance().available(); }

std::string gpuUnusableReason() { return gpu::GpuRuntime::instance().unavailableReason(); }

namespace {

// Both backends are stateless views; the CUDA one is made on first use only, so a simulator run
// never loads the driver.
const ExecutionBackend& simulatorBackend() {
  static const SimulatorBackend simulator;
  return simulator;
}

const ExecutionBackend& cudaBackend() {
  static const CudaBackend cuda(gpu::GpuRuntime::instance());
  return cuda;
}

}  // namespace

const ExecutionBackend& resolveBackend(Backend choice, bool needsSimulator) {
  switch (choice) {
    case Backend::Simulator: return simulatorBackend();
    case Backend::Gpu:
      if (!gpuUsable())
        throw PyError("RuntimeError", "--backend gpu needs a CUDA device: " + gpuUnusableReason() + "; run with --backend sim or auto");
      return cudaBackend();
    case Backend::Auto: return !needsSimulator && gpuUsable() ? cudaBackend() : simulatorBackend();
  }
  return simulatorBackend();
}

const ExecutionBackend& backendOf(LaunchContext& in) { return resolveBackend(in.launchSettings().backend); }

bool resolvesToGpu(Backend choice) { return choice != Backend::Simulator && gpuUsable(); }

}  // namespace tilescope::host
