#pragma once
// The status words of asynchronous kernel launches. Each launch gets a slot of 16 bytes in one
// persistent device area (allocated once per context); a device assertion or a zero loop step writes
// (code, pid x, y, z) there. Launches do not wait for the GPU: the slots are read at synchronisation
// points (GpuRuntime::synchronize, reads of device memory, do_bench's end, a full area), and the
// first failure in launch order becomes a diagnostic naming the kernel's file:line:col and the
// program. This class keeps the host side only (which kernel launched into which slot); GpuRuntime
// makes the CUDA calls.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/gpu/runtime/GpuCompiler.h"

namespace tilescope::gpu {

class LaunchStatus {
public:
  static constexpr size_t kSlots = 4096;
  static constexpr size_t kSlotBytes = 16;  // 4 words: code (index + 1 into the kernel's failures), pid x, y, z

  struct Failure {
    lang::Diagnostic diagnostic;
    std::string kernel;
    size_t slot = 0;
  };

  // The device area and the context generation it belongs to (0: none yet).
  uint64_t area = 0;
  uint64_t generation = 0;

  size_t used() const { return launches_.size(); }
  bool full() const { return launches_.size() >= kSlots; }
  // Records a launch into the next slot; returns the slot's device address.
  uint64_t add(std::shared_ptr<const CompiledKernel> compiled, const std::string& kernel);
  // The first failure the words of the used slots (4 per slot, as read from the area) report.
  std::optional<Failure> firstFailure(const std::vector<uint32_t>& words) const;
  // Forgets the recorded launches (their slots were read and are zero again).
  void clear();
  // "'wild', 'fill'": the distinct kernels launched since the last check (at most four named).
  std::string pendingKernels() const;

  // Whether any runtime has unchecked launches, without creating a runtime (the end of every cell asks).
  static bool anyPending() { return pending_.load(std::memory_order_relaxed); }

private:
  struct Launch {
    std::shared_ptr<const CompiledKernel> compiled;
    std::string kernel;
  };
  std::vector<Launch> launches_;
  static std::atomic<bool> pending_;
};

}  // namespace tilescope::gpu
