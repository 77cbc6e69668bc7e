#pragma once
// torch's tensor factories: torch.tensor, arange, zeros, ones, empty, full and the *_like forms.
// Random factories (rand, randn, randint, manual_seed) live in TorchRandom.h.
#include <optional>
#include <span>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// The dtype= and device= keyword arguments. Unset means "torch's default" (inferred dtype, cpu) for
// factories and "same as the input" for the *_like functions.
struct TensorOptions {
  std::optional<DType> dtype;
  std::optional<Device> device;

  TensorOptions() = default;
  TensorOptions(DType d) : dtype(d) {}
  TensorOptions(Device dev) : device(dev) {}
  TensorOptions(DType d, Device dev) : dtype(d), device(dev) {}
};

// torch.tensor(data) from the row-major flattening of a nested list. Without a dtype it is inferred like
// torch: any float -> float32, else any int -> int64, else bool. `values.size()` must equal the shape's
// element count.
Tensor tensor(std::span<const Scalar> values, const Shape& shape, TensorOptions options = {});
// torch.tensor(nested list or number). Ragged lists raise torch's ValueError.
Tensor tensor(const NestedValue& data, TensorOptions options = {});

// torch.arange(end) / torch.arange(start, end, step). Ints give int64, any float gives float32.
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = Scalar(int64_t{1}),
              TensorOptions options = {});

// torch.linspace(start, end, steps): float32 unless dtype says otherwise; the first half counts up
// from start and the second half down from end, as torch does, so both ends are exact.
Tensor linspace(double start, double end, int64_t steps, TensorOptions options = {});

Tensor zeros(const Shape& shape, TensorOptions options = {});
Tensor ones(const Shape& shape, TensorOptions options = {});
// Contents are zero but count as never written (see Storage).
Tensor empty(const Shape& shape, TensorOptions options = {});
// dtype inferred from the fill value when not given: bool -> bool, int -> int64, float -> float32.
Tensor full(const Shape& shape, const Scalar& fillValue, TensorOptions options = {});

// The *_like factories keep the input's shape, dtype, device and (like torch's preserve_format) its
// stride order.
Tensor zerosLike(const Tensor& like, TensorOptions options = {});
Tensor onesLike(const Tensor& like, TensorOptions options = {});
Tensor emptyLike(const Tensor& like, TensorOptions options = {});
Tensor fullLike(const Tensor& like, const Scalar& fillValue, TensorOptions options = {});
// The uninitialised tensor a *_like factory starts from (exposed for TorchRandom).
Tensor allocateLike(const Tensor& like, TensorOptions options, bool initialised);

}  // namespace tilescope::host
