#pragma once
// Where a session's kernels and device work run: the CPU simulator or a CUDA GPU. The user
// picks Simulator, Gpu or Auto (`Backend`, CellExecutor.h: --backend, the toolbar's menu);
// resolveBackend() is the one rule that turns that pick into an ExecutionBackend, so no caller
// decides "GPU, or Auto with a GPU" itself or asks the GPU runtime whether it is there.
#include <string>

#include "core/base/CellExecutor.h"

namespace tilescope::gpu {
class GpuRuntime;
}

namespace tilescope::host {

class LaunchContext;

class ExecutionBackend {
public:
  virtual ~ExecutionBackend() = default;
  // "simulator" or "gpu": what a launch reports it ran on.
  virtual const char* name() const = 0;
  // The CUDA runtime that kernels, cuBLAS, RawKernels and device timing use; nullptr on the simulator.
  virtual gpu::GpuRuntime* gpuRuntime() const = 0;
  bool isGpu() const { return gpuRuntime() != nullptr; }
  // torch.cuda.synchronize(): waits for the device's queued work (a RuntimeError when it failed);
  // the simulator's work is finished when a call returns.
  virtual void synchronize(const std::string& forWhat) const = 0;
};

class SimulatorBackend final : public ExecutionBackend {
public:
  const char* name() const override { return "simulator"; }
  gpu::GpuRuntime* gpuRuntime() const override { return nullptr; }
  void synchronize(const std::string&) const override {}
};

class CudaBackend final : public ExecutionBackend {
public:
  explicit CudaBackend(gpu::GpuRuntime& runtime) : runtime_(runtime) {}
  const char* name() const override { return "gpu"; }
  gpu::GpuRuntime* gpuRuntime() const override { return &runtime_; }
  void synchronize(const std::string& forWhat) const override;

private:
  gpu::GpuRuntime& runtime_;
};

// The backend rule. Simulator: the simulator (the GPU is not even probed). Gpu: the GPU, or a
// RuntimeError "--backend gpu needs a CUDA device: <why>; run with --backend sim or auto" when this
// machine has none. Auto: the GPU when it is usable and the caller does not need the simulator
// (only the simulator records traces), else the simulator.
const ExecutionBackend& resolveBackend(Backend choice, bool needsSimulator = false);
// resolveBackend of the session's launch settings.
const ExecutionBackend& backendOf(LaunchContext& in);
// Whether resolveBackend(choice) gives the GPU, without raising: false where Gpu is asked for on a
// machine without one.
bool resolvesToGpu(Backend choice);

// Whether this machine has a usable GPU, and if not, why (for messages).
bool gpuUsable();
std::string gpuUnusableReason();

}  // namespace tilescope::host
