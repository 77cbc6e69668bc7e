#pragma once
// torch.softmax / torch.nn.functional.softmax and torch.nn.functional.layer_norm. Both compute in double
// and round once to the output dtype (torch computes float32 in float32; results agree to ~1 ulp).
#include <optional>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// Softmax along `dim`; `dtype` casts the input first (torch's dtype= argument).
Tensor softmax(const Tensor& x, int64_t dim, std::optional<DType> dtype = {});
Tensor logSoftmax(const Tensor& x, int64_t dim, std::optional<DType> dtype = {});

// Normalises over the trailing dims given by normalizedShape (biased variance), then applies the
// optional elementwise affine weight and bias (each of shape normalizedShape).
Tensor layerNorm(const Tensor& x, const Shape& normalizedShape, const std::optional<Tensor>& weight = {},
                 const std::optional<Tensor>& bias = {}, double eps = 1e-5);

}  // namespace tilescope::host
