#pragma once
// torch.matmul / the @ operator: 1-D·1-D (dot, 0-dim result), 2-D·2-D, 1-D/2-D mixes and batched
// matmul with broadcast batch dims. float16/bfloat16 inputs accumulate in float32 and round once, like
// torch on CPU; float32 accumulates in float32 (summation order: k ascending).
#include "core/tensor/Tensor.h"

namespace tilescope::host {

Tensor matmul(const Tensor& a, const Tensor& b);

}  // namespace tilescope::host
