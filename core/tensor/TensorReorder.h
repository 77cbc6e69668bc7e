#pragma once
// torch.cat, torch.stack, torch.flip, torch.sort and torch.topk on host tensors, with torch's checks.
#include <vector>

#include "core/tensor/Tensor.h"
#include "core/tensor/TensorReduce.h"

namespace tilescope::host {

// Joined along dim; the dtype promotes over all inputs as torch.cat does.
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
// Joined along a new dim.
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim);
// Reversed along each of dims (a copy, as torch.flip).
Tensor flip(const Tensor& x, const std::vector<int64_t>& dims);
// Sorted along dim with the indices (int64) of the sorted elements; NaN counts as the largest
// value, equal elements keep their order (torch's stable sort, which its default also gives on CPU).
ValuesIndices sort(const Tensor& x, int64_t dim, bool descending);
// The k largest (or smallest) along dim, in that order, with their indices: the first k of sort().
ValuesIndices topk(const Tensor& x, int64_t k, int64_t dim, bool largest);

}  // namespace tilescope::host
