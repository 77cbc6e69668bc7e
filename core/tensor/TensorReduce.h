#pragma once
// Reductions: sum, mean, max, min, argmax, argmin, all, any (whole tensor or over dims, keepdim).
// sum of integers and bools gives int64 like torch; float32 sums accumulate in double (torch's cascade
// sum is about as accurate, so the results agree except for rare last-ulp ties).
#include <optional>
#include <vector>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// An empty `dims` reduces every dimension.
Tensor sum(const Tensor& x, std::optional<DType> dtype = {});
Tensor sum(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim = false, std::optional<DType> dtype = {});
Tensor mean(const Tensor& x, std::optional<DType> dtype = {});
Tensor mean(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim = false, std::optional<DType> dtype = {});

// Whole-tensor max/min: a 0-dim tensor (NaN propagates).
Tensor max(const Tensor& x);
Tensor min(const Tensor& x);
// torch.max(x, dim) returns (values, indices); ties pick the first index.
struct ValuesIndices {
  Tensor values;
  Tensor indices;
};
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim = false);
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim = false);
// Without a dim: the flat index into the (row-major) tensor.
Tensor argmax(const Tensor& x, std::optional<int64_t> dim = {}, bool keepdim = false);
Tensor argmin(const Tensor& x, std::optional<int64_t> dim = {}, bool keepdim = false);

// bool results (0-dim without dims).
// torch.cumsum / torch.cumprod along dim; integer and bool inputs give int64 unless dtype says otherwise.
Tensor cumsum(const Tensor& x, int64_t dim, std::optional<DType> dtype = {});
Tensor cumprod(const Tensor& x, int64_t dim, std::optional<DType> dtype = {});
Tensor all(const Tensor& x);
Tensor any(const Tensor& x);
Tensor all(const Tensor& x, int64_t dim, bool keepdim = false);
Tensor any(const Tensor& x, int64_t dim, bool keepdim = false);

}  // namespace tilescope::host
