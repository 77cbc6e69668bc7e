#pragma once
// torch.matmul / torch.mm / `@` on the GPU backend: cuBLAS on the tensors' device copies, as torch
// does on a real GPU (the seeds' "torch" benchmark lines are cuBLAS).
#include <optional>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

class LaunchContext;

// The product through cuBLAS, or nullopt when this product stays on the host: another backend, CPU
// tensors, dtypes other than fp16/bf16/fp32, more than 3 dimensions, or no cuBLAS (said once).
std::optional<Tensor> gpuMatmul(LaunchContext& in, const Tensor& a, const Tensor& b);

}  // namespace tilescope::host
