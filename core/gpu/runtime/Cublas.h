#pragma once
// cuBLAS, loaded at run time (like the driver and NVRTC), for torch.matmul on the GPU backend: the
// seeds compare their Triton matmuls against "torch", which is cuBLAS on a real GPU.
#include <cstdint>
#include <string>

#include "core/base/DynamicLibrary.h"

namespace tilescope::gpu {

enum class GemmType { FP16, BF16, FP32 };

class Cublas {
public:
  static Cublas& instance();
  bool available() const { return available_; }
  const std::string& unavailableReason() const { return reason_; }

  // Row-major, contiguous: C[b] = A[b] (m x k) @ B[b] (k x n) for b < batch, with fp32 accumulation
  // (no tf32 for fp32, as torch's default). Device addresses; the element strides between batches are
  // m*k, k*n (0 to broadcast one matrix) and m*n. Timed by GpuRuntime::timed. Throws GpuError.
  void gemm(GemmType type, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t strideA, uint64_t b, int64_t strideB,
            uint64_t c, int64_t batch);

private:
  Cublas();
  util::DynamicLibrary library_;
  bool available_ = false;
  std::string reason_;
  void* handle_ = nullptr;
  uint64_t handleGeneration_ = 0;
  int (*create_)(void**) = nullptr;
  int (*gemmStridedBatchedEx_)(void*, int, int, int, int, int, const void*, const void*, int, int, long long, const void*,
                               int, int, long long, const void*, void*, int, int, long long, int, int, int) = nullptr;
};

}  // namespace tilescope::gpu
