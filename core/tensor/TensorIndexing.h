#pragma once
// Python subscripts on tensors, reads (x[...]) and writes (x[...] = v), with torch's semantics:
// ints (negative count from the end), slices with positive steps, None (new axis), Ellipsis, bools,
// boolean mask tensors and integer index tensors (advanced indexing on any number of dims: the index
// tensors broadcast together; their result dims go where the first one was when they are adjacent,
// in front otherwise, like numpy). Basic indexing returns views; advanced indexing copies.
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "core/tensor/Tensor.h"
#include "core/tensor/TensorOps.h"

namespace tilescope::host {

// start:stop:step with Python's defaults for missing parts.
struct Slice {
  std::optional<int64_t> start = std::nullopt;
  std::optional<int64_t> stop = std::nullopt;
  std::optional<int64_t> step = std::nullopt;
};
struct NewAxis {};        // None
struct EllipsisIndex {};  // ...

// One element of a subscript tuple. bool is Python's True/False (a new axis of size 1 / 0).
using TensorIndex = std::variant<int64_t, Slice, NewAxis, EllipsisIndex, Tensor, bool>;

Tensor getItem(const Tensor& self, std::span<const TensorIndex> indices);
// Writes `value` (broadcast to the indexed shape, converted to self's dtype) into self.
void setItem(const Tensor& self, std::span<const TensorIndex> indices, const TensorOrScalar& value);

// torch.nonzero(x): int64 tensor of shape [count, x.dim()].
Tensor nonzero(const Tensor& x);
// torch.gather(x, dim, index): out[..., j, ...] = x[..., index[..., j, ...], ...] along dim; index is
// int64 (int32 accepted) with x's number of dims and no dim larger than x's, except along dim.
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index);

}  // namespace tilescope::host
