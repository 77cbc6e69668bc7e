#pragma once
// Internal: dtype-converting copies and fills, the write path shared by Tensor::copy_, to(), setitem and
// the factories. Every write marks the destination bytes written in its Storage.
#include "core/tensor/Tensor.h"

namespace tilescope::host {

// dst[...] = src, with src broadcast to dst's shape (leading size-1 dims of src are dropped first, as
// torch's setitem does) and converted to dst's dtype. Overlapping src and dst are handled by copying
// src first.
void copyInto(const Tensor& dst, const Tensor& src);
// dst[...] = value, converted to dst's dtype.
void fillInto(const Tensor& dst, const Scalar& value);
// A fresh contiguous tensor with src's values converted to `dtype` (src's device).
Tensor convertTo(const Tensor& src, DType dtype, const Device& device);
// Records that every element of `t` was written.
void markTensorWritten(const Tensor& t);

}  // namespace tilescope::host
