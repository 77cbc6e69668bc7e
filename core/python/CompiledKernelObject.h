#pragma once
// What `kernel.warmup(*args, grid=..., **meta)` returns, like Triton's CompiledKernel: the kernel
// checked for one specialization, with the registers, spills and shared memory its compiled code
// needs (from the driver on the GPU backend, from ptxas through NVRTC otherwise), and
// `compiled[grid](*args)` to launch that specialization (the fused-softmax tutorial sizes its grid
// from these figures), and `compiled.asm` with the generated CUDA C++ ('cuda') and its PTX ('ptx'),
// compiled on first access (NVRTC only, no GPU needed).
#include <memory>

#include "core/gpu/runtime/GpuCompiler.h"
#include "core/python/JitFunction.h"
#include "core/python/KernelLauncher.h"

namespace tilescope::host {

class CompiledKernelObject : public Object {
public:
  std::string typeName() const override { return "CompiledKernel"; }
  std::string repr(LaunchContext& in) const override;
  std::optional<Value> getAttr(LaunchContext& in, const std::string& name) override;
  std::optional<Value> getItem(LaunchContext& in, const Value& grid) override;

  // Checks `jit` for the warm-up's arguments and finds its resources. PyError when neither a GPU
  // nor NVRTC can compile it.
  static Value warmUp(LaunchContext& in, const std::shared_ptr<JitFunction>& jit, CallArgs args);

  std::shared_ptr<JitFunction> jit;
  int numWarps = 4;
  int numStages = 3;
  gpu::KernelResources resources;
  ir::KernelPtr kernel;  // the checked specialization, for `asm`

private:
  std::optional<Value> asm_;  // built on first access
};

}  // namespace tilescope::host
