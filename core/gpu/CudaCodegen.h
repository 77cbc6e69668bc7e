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

struct CudaKernelSource {
  std::string entryName;  // extern "C" name of the __global__ function
  std::string source;     // the whole translation unit
  int numThreads = 128;
  size_t dynamicSharedBytes = 0;
  std::vector<KernelFailure> failures;
  std::vector<lang::Diagnostic> warnings;  // e.g. host calls skipped on the GPU
};

class CudaCodegen {
public:
  // Throws lang::CompileError (a user-facing diagnostic naming the op and its location) for IR the
  // GPU backend does not support yet, lang::InternalError for broken invariants.
  static CudaKernelSource generate(const ir::Kernel& kernel);
};

}  // namespace tilescope::gpu
