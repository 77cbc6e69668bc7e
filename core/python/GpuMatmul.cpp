#include "core/python/GpuMatmul.h"

#include "core/gpu/runtime/Cublas.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/base/CellExecutor.h"
#include "core/python/DeviceMemory.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"

namespace tilescope::host {

std::optional<Tensor> gpuMatmul(LaunchContext& in, const Tensor& a, const Tensor& b) {
  if (!a.device().isCuda() || !b.device().isCuda() || a.dtype() != b.dtype() || !backendOf(in).isGpu()) return std::nullopt;
  gpu::GemmType type;
  switch (a.dtype()) {
    case DType::FP16: type = gpu::GemmType::FP16; break;
    case DType::BF16: type = gpu::GemmType::BF16; break;
    case DType::FP32: type = gpu::GemmType::FP32; break;
    default: return std::nullopt;
  }
  if (a.dim() < 2 || a.dim() > 3 || b.dim() < 2 || b.dim() > 3) return std::nullopt;
  const int64_t m = a.shape()[static_cast<size_t>(a.dim() - 2)], k = a.shape().back();
  const int64_t kb = b.shape()[static_cast<size_t>(b.dim() - 2)], n = b.shape().back();
  const int64_t batchA = a.dim() == 3 ? a.shape()[0] : 1, batchB = b.dim() == 3 ? b.shape()[0] : 1;
  if (k != kb || (batchA != batchB && batchA != 1 && batchB != 1)) return std::nullopt;  // the host path words the error
  if (m == 0 || n == 0 || k == 0) return std::nullopt;
  gpu::Cublas& cublas = gpu::Cublas::instance();
  if (!cublas.available()) {
    static bool said = false;
    if (!said) in.writeStderr("tilescope: torch.matmul runs on the host: " + cublas.unavailableReason() + "\n");
    said = true;
    return std::nullopt;
  }
  const int64_t batch = std::max(batchA, batchB);
  const Tensor ac = a.contiguous(), bc = b.contiguous();
  Shape outShape;
  if (a.dim() == 3 || b.dim() == 3) outShape.push_back(batch);
  outShape.push_back(m);
  outShape.push_back(n);
  Tensor out = Tensor::allocate(outShape, a.dtype(), a.device(), false);
  try {
    const int64_t esize = a.elementSize();
    const uint64_t pa = DeviceMemory::addressFor(*ac.storage(), "torch.matmul") + static_cast<uint64_t>(ac.storageOffset() * esize);
    const uint64_t pb = DeviceMemory::addressFor(*bc.storage(), "torch.matmul") + static_cast<uint64_t>(bc.storageOffset() * esize);
    const uint64_t pc = DeviceMemory::addressFor(*out.storage(), "torch.matmul");
    cublas.gemm(type, m, n, k, pa, batchA == 1 ? 0 : m * k, pb, batchB == 1 ? 0 : k * n, pc, batch);
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  }
  DeviceMemory::markDeviceNewer(*out.storage());
  out.storage()->markAllWritten();
  return out;
}

}  // namespace tilescope::host
