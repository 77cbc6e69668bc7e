#pragma once
// Typed tile IR -> CUDA C++ (one translation unit, one __global__ function).
//
// Execution model: one CTA per program, numWarps * 32 threads. Every tile is spread over the T threads
// in a blocked layout (BlockedLayout below): each thread owns groups of V consecutive elements, so
// tile loads and stores can use 8/16-byte vector accesses. Scalars are computed redundantly by every thread, so
// control flow (all of it on scalars) is uniform and __syncthreads() may appear anywhere.
// Elementwise ops, splats, expand_dims and reshapes keep element indices and need no data movement;
// broadcasts, permutes, reductions, scans and tl.dot go through dynamic shared memory.
// docs/GPU_BACKEND.md describes the layout and what is supported.
#include <string>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/base/Diagnostic.h"

namespace tilescope::gpu {

// A runtime failure the kernel can report through its status word (code = index + 1).
struct KernelFailure {
  lang::SourceRange range;
  std::string message;  // e.g. "device assertion failed: x > 0"
};

struct CudaCodegenOptions {
  // Each program records its SM (%smid) and start/end times (%globaltimer, ns) into an extra
  // `unsigned long long* ts_timing` argument: 3 words per program, linear program index
  // x + y*gx + z*gx*gy. For the SM timeline; off by default (it costs two stamps per program).
  bool programTiming = false;
  // The target's compute capability times ten (sm_90 -> 90): cp.async staging needs 80.
  int smArch = 80;
  // An arch-specific target ("sm_90a"): Hopper's wgmma may be used; its PTX runs only on that arch.
  bool archSpecific = false;
  // With archSpecific sm_90: a pipelined wgmma loop over tensor-descriptor boxes copies them with
  // TMA (tensor maps built in the kernel, in the program's global scratch); off, with cp.async.
  bool tma = true;
};

struct CudaKernelSource {
  std::string entryName;  // extern "C" name of the __global__ function
  std::string source;     // the whole translation unit
  int numThreads = 128;
  size_t dynamicSharedBytes = 0;
  std::vector<KernelFailure> failures;
  std::vector<lang::Diagnostic> warnings;  // e.g. host calls skipped on the GPU
  bool programTiming = false;              // takes the ts_timing argument (CudaCodegenOptions)
  bool usesTensorCores = false;            // a tl.dot sums on tensor cores, in another order than the simulator
  // Global scratch each program needs (TMA's tensor maps): when non-zero the kernel takes a
  // `unsigned char* ts_scratch` argument after ts_status of grid * this many bytes, 128-byte aligned.
  size_t scratchBytesPerProgram = 0;
};

// Where the elements of a tile live: slot j of thread tid holds element
//   (j / vec) * (threads * vec) + tid * vec + j % vec
// (vec = 1 is the plain row-major spread, element i in thread i % threads). vec is chosen per numel
// for the whole kernel by the pass assign-blocked-layouts (core/gpu/passes/BlockedLayoutAssignment,
// the kernel's blockedVectorWidths), so reshapes and expand_dims never move data.
struct BlockedLayout {
  int threads = 128;
  int vec = 1;
  int64_t element(int tid, int slot) const {
    return static_cast<int64_t>(slot / vec) * threads * vec + static_cast<int64_t>(tid) * vec + slot % vec;
  }
  // Slots per thread for numel elements (a multiple of vec); elements >= numel are guarded off.
  int slots(int64_t numel) const {
    const int64_t per = static_cast<int64_t>(threads) * vec;
    return static_cast<int>((numel + per - 1) / per) * vec;
  }
};


// The pass pipeline's view of a codegen target.
gpu::passes::GpuTarget gpuTargetOf(const CudaCodegenOptions& options);

class CudaCodegen {
public:
  // Runs the pass pipeline (gpu::passes::lowerForGpu), then emits CUDA C++ for its result.
  // Throws lang::CompileError (a user-facing diagnostic naming the op and its location) for IR the
  // GPU backend does not support yet, lang::InternalError for broken invariants.
  static CudaKernelSource generate(const ir::Kernel& kernel, const CudaCodegenOptions& options = {});
  // Emits CUDA C++ for a kernel lowerForGpu already made (its tables say what to print: layouts,
  // dot plans), without running the passes again: what the tests use to check that the emitter
  // follows a plan rather than deciding.
  static CudaKernelSource emitLowered(const ir::Kernel& lowered, const CudaCodegenOptions& options = {});

};

}  // namespace tilescope::gpu
