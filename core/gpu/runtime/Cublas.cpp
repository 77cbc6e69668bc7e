#include "core/gpu/runtime/Cublas.h"

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <vector>

#include "core/gpu/runtime/GpuRuntime.h"

namespace tilescope::gpu {

namespace {
namespace fs = std::filesystem;
// cuBLAS / library_types.h enum values (stable ABI; spelled out so the build needs no cublas headers).
constexpr int kOpN = 0, kR32F = 0, kR16F = 2, kR16BF = 14, kCompute32F = 68, kGemmDefault = -1;
}  // namespace

Cublas& Cublas::instance() {
  static Cublas* cublas = new Cublas();  // never destroyed, like GpuRuntime
  return *cublas;
}

Cublas::Cublas() {
  std::vector<std::string> candidates;
  if (const char* explicitPath = std::getenv("TILESCOPE_CUBLAS")) candidates.push_back(explicitPath);
  const std::vector<std::string> roots = {std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "",
                                          std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH") : ""};
  const char* sonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  for (const std::string& root : roots)
    if (!root.empty())
      for (const char* so : sonames) candidates.push_back((fs::path(root) / "lib64" / so).string());
  for (const char* so : sonames) candidates.push_back(so);
  for (const char* so : sonames) candidates.push_back((fs::path(TILESCOPE_CUDA_DEFAULT_ROOT) / "lib64" / so).string());
  if (!library_.open(candidates)) {
    reason_ = "cuBLAS not found (" + library_.error() + ")";
    return;
  }
  create_ = reinterpret_cast<decltype(create_)>(library_.symbol("cublasCreate_v2"));
  gemmStridedBatchedEx_ = reinterpret_cast<decltype(gemmStridedBatchedEx_)>(library_.symbol("cublasGemmStridedBatchedEx"));
  if (!create_ || !gemmStridedBatchedEx_) {
    reason_ = library_.path() + " lacks cublasCreate_v2 or cublasGemmStridedBatchedEx";
    return;
  }
  available_ = true;
}

void Cublas::gemm(GemmType type, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t strideA, uint64_t b,
                  int64_t strideB, uint64_t c, int64_t batch) {
  if (!available_) throw GpuError(reason_);
  constexpr int64_t kMax = std::numeric_limits<int>::max();
  if (m > kMax || n > kMax || k > kMax || batch > kMax) throw GpuError("torch.matmul: a dimension exceeds cuBLAS's int range");
  GpuRuntime& rt = GpuRuntime::instance();
  rt.makeCurrent("cuBLAS");
  if (!handle_ || handleGeneration_ != rt.generation()) {
    // A handle belongs to a context; after a fault the context was rebuilt.
    handle_ = nullptr;
    if (const int status = create_(&handle_); status != 0)
      throw GpuError("cublasCreate failed (cuBLAS status " + std::to_string(status) + ")");
    handleGeneration_ = rt.generation();
  }
  const int dataType = type == GemmType::FP16 ? kR16F : type == GemmType::BF16 ? kR16BF : kR32F;
  const float alpha = 1.0f, beta = 0.0f;
  int status = 0;
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands, keep every leading dimension.
  rt.timed("cuBLAS gemm", [&] {
    status = gemmStridedBatchedEx_(handle_, kOpN, kOpN, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha,
                                   reinterpret_cast<const void*>(b), dataType, static_cast<int>(n), strideB,
                                   reinterpret_cast<const void*>(a), dataType, static_cast<int>(k), strideA, &beta,
                                   reinterpret_cast<void*>(c), dataType, static_cast<int>(n), m * n, static_cast<int>(batch),
                                   kCompute32F, kGemmDefault);
  });
  if (status != 0) throw GpuError("cublasGemmStridedBatchedEx failed (cuBLAS status " + std::to_string(status) + ")");
  rt.synchronize("cuBLAS gemm");
}

}  // namespace tilescope::gpu
