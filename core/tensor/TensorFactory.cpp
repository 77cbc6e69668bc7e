#include "core/tensor/TensorFactory.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

DType inferDType(std::span<const Scalar> values) {
  bool anyFloat = false, anyInt = false;
  for (const Scalar& v : values) {
    anyFloat |= v.isFloat();
    anyInt |= v.isInt();
  }
  if (anyFloat) return kDefaultFloat;
  if (anyInt || values.empty()) return values.empty() ? kDefaultFloat : DType::I64;
  return DType::I1;
}

void flattenNested(const NestedValue& v, size_t depth, Shape& shape, std::vector<Scalar>& out) {
  if (!v.isList()) {
    if (depth < shape.size()) {
      throw TensorError("expected sequence of length " + std::to_string(shape[depth]) + " at dim " +
                            std::to_string(depth) + " (got scalar)",
                        TensorError::Kind::ValueError);
    }
    out.push_back(v.scalar());
    return;
  }
  const auto& items = v.list();
  const auto n = static_cast<int64_t>(items.size());
  if (depth == shape.size()) {
    if (depth > 0 && !out.empty()) {
      throw TensorError("expected scalar at dim " + std::to_string(depth), TensorError::Kind::ValueError);
    }
    shape.push_back(n);  // first visit of this depth fixes its length
  } else if (shape[depth] != n) {
    throw TensorError("expected sequence of length " + std::to_string(shape[depth]) + " at dim " +
                          std::to_string(depth) + " (got " + std::to_string(n) + ")",
                      TensorError::Kind::ValueError);
  }
  for (const NestedValue& item : items) flattenNested(item, depth + 1, shape, out);
}

// torch's infer_dense_strides: a dense stride order that keeps the input's layout permutation.
Shape denseStridesLike(const Tensor& like) {
  const auto nd = static_cast<size_t>(like.dim());
  const Shape& sizes = like.shape();
  const Shape& strides = like.strides();
  std::vector<size_t> perm(nd);
  std::iota(perm.rbegin(), perm.rend(), size_t{0});  // innermost candidate first
  auto shouldSwap = [&](size_t d0, size_t d1) {
    if (strides[d0] == 0 || strides[d1] == 0) return 0;
    if (strides[d0] < strides[d1]) return -1;
    if (strides[d0] > strides[d1]) return 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int cmp = shouldSwap(perm[d0], perm[d1]);
      if (cmp > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  Shape out(nd);
  int64_t running = 1;
  for (size_t i = 0; i < nd; ++i) {
    out[perm[i]] = running;
    if (sizes[perm[i]] > 1) running *= sizes[perm[i]];
  }
  return out;
}

Tensor allocate(const Shape& shape, TensorOptions options, DType fallback, bool initialised) {
  return Tensor::allocate(shape, options.dtype.value_or(fallback), options.device.value_or(Device()), initialised);
}

}  // namespace

Tensor tensor(std::span<const Scalar> values, const Shape& shape, TensorOptions options) {
  if (shapeNumel(shape) != static_cast<int64_t>(values.size())) {
    throw TensorError("tensor(): " + std::to_string(values.size()) + " values do not fill shape " + shapeRepr(shape),
                      TensorError::Kind::ValueError);
  }
  Tensor out = allocate(shape, options, inferDType(values), true);
  dispatchStorageDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      const Scalar& v = values[i];
      if (v.isFloat()) data[i] = convertValue<T>(v.toDouble());
      else if (v.isInt()) data[i] = convertValue<T>(v.toInt());
      else data[i] = convertValue<T>(v.toBool());
    }
  });
  return out;
}

Tensor tensor(const NestedValue& data, TensorOptions options) {
  Shape shape;
  std::vector<Scalar> flat;
  flattenNested(data, 0, shape, flat);
  return tensor(flat, shape, options);
}

Tensor arange(const Scalar& end, TensorOptions options) { return arange(Scalar(int64_t{0}), end, Scalar(int64_t{1}), options); }

Tensor linspace(double start, double end, int64_t steps, TensorOptions options) {
  if (steps < 0) throw TensorError("linspace(): number of steps must be non-negative");
  const DType dtype = options.dtype.value_or(kDefaultFloat);
  Tensor out = Tensor::allocate({steps}, dtype, options.device.value_or(Device()), true);
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  const int64_t half = steps / 2;
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    for (int64_t i = 0; i < steps; ++i) {
      const double v = i < half ? start + step * static_cast<double>(i) : end - step * static_cast<double>(steps - 1 - i);
      data[i] = convertValue<T>(isIntegralType(dtype, true) ? std::trunc(v) : v);
    }
  });
  return out;
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const bool anyFloat = start.isFloat() || end.isFloat() || step.isFloat();
  const DType dtype = options.dtype.value_or(anyFloat ? kDefaultFloat : DType::I64);
  const double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  if (!std::isfinite(s) || !std::isfinite(e)) throw TensorError("unsupported range: " + start.repr() + " -> " + end.repr());
  if (st == 0) throw TensorError("step must be nonzero");
  if (!((st > 0 && e >= s) || (st < 0 && e <= s))) {
    throw TensorError("upper bound and larger bound inconsistent with step sign");
  }
  const bool integral = isIntegralType(dtype, true);
  int64_t size;
  const auto tooLong = [&] {
    return TensorError("arange(" + start.repr() + ", " + end.repr() + ", " + step.repr() +
                           ") would have more elements than a tensor can hold",
                       TensorError::Kind::RuntimeError);
  };
  if (dtype == DType::I64) {
    // torch computes int64 ranges in int64 (the bounds truncated toward zero); the span is taken in
    // 128 bits because end - start itself may not fit in 64.
    const int64_t xs = start.toInt(), xe = end.toInt(), xst = step.toInt();
    if (xst == 0) throw TensorError("step must be nonzero");
    const __int128 sign = xst > 0 ? 1 : -1;
    const __int128 wide = (static_cast<__int128>(xe) - xs + xst - sign) / xst;
    if (wide > std::numeric_limits<int64_t>::max()) throw tooLong();
    size = static_cast<int64_t>(wide);
  } else {
    const double count = std::ceil((e - s) / st);
    if (!(count < 9.2233720368547758e18)) throw tooLong();  // also NaN: an infinite or undefined count
    size = static_cast<int64_t>(count);
  }
  Tensor out = Tensor::allocate({std::max<int64_t>(size, 0)}, dtype, options.device.value_or(Device()), true);
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    if (integral) {
      const int64_t xs = start.toInt(), xst = step.toInt();
      for (int64_t i = 0; i < size; ++i) data[i] = convertValue<T>(xs + xst * i);
    } else {
      for (int64_t i = 0; i < size; ++i) data[i] = convertValue<T>(s + st * static_cast<double>(i));
    }
  });
  return out;
}

Tensor zeros(const Shape& shape, TensorOptions options) { return allocate(shape, options, kDefaultFloat, true); }

Tensor ones(const Shape& shape, TensorOptions options) {
  Tensor out = allocate(shape, options, kDefaultFloat, true);
  fillInto(out, Scalar(int64_t{1}));
  return out;
}

Tensor empty(const Shape& shape, TensorOptions options) { return allocate(shape, options, kDefaultFloat, false); }

Tensor full(const Shape& shape, const Scalar& fillValue, TensorOptions options) {
  const DType inferred = fillValue.isFloat() ? kDefaultFloat : fillValue.isInt() ? DType::I64 : DType::I1;
  Tensor out = allocate(shape, options, inferred, true);
  fillInto(out, fillValue);
  return out;
}

Tensor allocateLike(const Tensor& like, TensorOptions options, bool initialised) {
  const DType dtype = options.dtype.value_or(like.dtype());
  const Device device = options.device.value_or(like.device());
  if (like.isContiguous()) return Tensor::allocate(like.shape(), dtype, device, initialised);
  const Shape strides = denseStridesLike(like);
  return Tensor(allocateStorageFor(like.shape(), dtype, initialised), dtype, like.shape(), strides, 0, device);
}

Tensor zerosLike(const Tensor& like, TensorOptions options) { return allocateLike(like, options, true); }

Tensor onesLike(const Tensor& like, TensorOptions options) {
  Tensor out = allocateLike(like, options, true);
  fillInto(out, Scalar(int64_t{1}));
  return out;
}

Tensor emptyLike(const Tensor& like, TensorOptions options) { return allocateLike(like, options, false); }

Tensor fullLike(const Tensor& like, const Scalar& fillValue, TensorOptions options) {
  Tensor out = allocateLike(like, options, true);
  fillInto(out, fillValue);
  return out;
}

}  // namespace tilescope::host
