#pragma once
// Typed tile IR -> CUDA C++ (one translation unit, one __global__ function).
//
// Execution model: one CTA per program, numWarps * 32 threads. Every tile is spread over the threads
// in row-major order: element i belongs to thread i % T and sits at slot i / T of a per-thread
// register array (E = ceil(numel / T) slots). Scalars are computed redundantly by every thread, so
// control flow (all of it on scalars) is uniform and __syncthreads() may appear anywhere.
// Elementwise ops, splats, expand_dims and reshapes keep element indices and need no data movement;
// broadcasts, permutes, reductions, scans and tl.dot go through dynamic shared memory.
// docs/GPU_BACKEND.md describes the layout and what is supported.
#include <string>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/lang/Diagnostic.h"

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
};

class CudaCodegen {
public:
  // Throws lang::CompileError (a user-facing diagnostic naming the op and its location) for IR the
  // GPU backend does not support yet, lang::InternalError for broken invariants.
  static CudaKernelSource generate(const ir::Kernel& kernel, const CudaCodegenOptions& options = {});

};

}  // namespace tilescope::gpu
