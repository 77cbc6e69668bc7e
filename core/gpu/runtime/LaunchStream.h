#pragma once
// The CUDA stream GPU work goes on. Without a source it is the legacy null stream (the built-in torch
// runs everything in order there). With installed PyTorch, core/python sets a source that reads
// torch's current stream, so that kernels launched after `torch.cuda.set_stream(s)` run on `s`, ordered
// with torch's own work on it, as Triton launches on torch's current stream.
#include <atomic>

#include "core/gpu/runtime/CudaApi.h"

namespace tilescope::gpu {

class LaunchStream {
public:
  // The source runs on the thread that launches (for installed PyTorch: host code's thread, which
  // holds the GIL); nullptr means the null stream.
  using Source = CUstream (*)();
  static void setSource(Source source) { source_.store(source, std::memory_order_relaxed); }
  static CUstream current() {
    const Source source = source_.load(std::memory_order_relaxed);
    return source ? source() : nullptr;
  }

private:
  static inline std::atomic<Source> source_{nullptr};
};

}  // namespace tilescope::gpu
