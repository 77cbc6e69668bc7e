#include "core/tensor/TensorReduce.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

// The input rearranged so that each output element reduces one contiguous run of `inner` values.
struct ReductionLayout {
  Tensor data;  // contiguous, kept dims first, reduced dims last
  int64_t outer = 1;
  int64_t inner = 1;
  Shape outShape;
};

ReductionLayout prepare(const Tensor& x, const std::vector<int64_t>& dimsIn, bool keepdim) {
  const int64_t nd = x.dim();
  std::vector<bool> reduced(static_cast<size_t>(nd), dimsIn.empty());
  for (int64_t d : dimsIn) {
    const auto w = static_cast<size_t>(wrapDim(d, nd));
    if (nd == 0) continue;
    if (reduced[w]) throw TensorError("dim " + std::to_string(w) + " appears multiple times in the list of dims");
    reduced[w] = true;
  }
  std::vector<int64_t> perm;
  ReductionLayout layout;
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[static_cast<size_t>(d)]) {
      layout.inner *= x.shape()[d];
      if (keepdim) layout.outShape.push_back(1);
    } else {
      perm.push_back(d);
      layout.outer *= x.shape()[d];
      layout.outShape.push_back(x.shape()[d]);
    }
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[static_cast<size_t>(d)]) perm.push_back(d);
  }
  layout.data = x.permute(perm).contiguous();
  return layout;
}

template <class T>
double pairwiseSum(const T* p, int64_t n) {
  if (n <= 64) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += static_cast<double>(toCompute(p[i]));
    return s;
  }
  const int64_t half = n / 2;
  return pairwiseSum(p, half) + pairwiseSum(p + half, n - half);
}

Tensor sumImpl(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype, bool isMean) {
  const DType in = x.dtype();
  DType outType = dtype.value_or(isIntegralType(in, true) ? DType::I64 : in);
  if (isMean && !isFloatingType(outType)) {
    throw TensorError("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: " +
                      std::string(scalarTypeName(outType)));
  }
  const Tensor src = dtype ? x.to(*dtype) : x;
  ReductionLayout layout = prepare(src, dims, keepdim);
  Tensor out = Tensor::allocate(layout.outShape, outType, x.device(), true);
  dispatchDType(layout.data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = layout.data.data<T>();
    dispatchDType(outType, [&](auto outTag) {
      using O = typename decltype(outTag)::type;
      O* o = out.data<O>();
      for (int64_t i = 0; i < layout.outer; ++i) {
        const T* run = in + i * layout.inner;
        if constexpr (kIsFloating<T>) {
          double s = pairwiseSum(run, layout.inner);
          if (isMean) s /= static_cast<double>(layout.inner);
          o[i] = convertValue<O>(s);
        } else {
          // Integers wrap in int64 like torch.
          uint64_t s = 0;
          for (int64_t k = 0; k < layout.inner; ++k) s += static_cast<uint64_t>(static_cast<int64_t>(run[k]));
          o[i] = convertValue<O>(static_cast<int64_t>(s));
        }
      }
    });
  });
  return out;
}

// Shared by max/min/argmax/argmin: best value and first index of each run. NaN wins (and stays).
template <bool IsMax>
void extremum(const Tensor& x, std::optional<int64_t> dim, bool keepdim, Tensor* values, Tensor* indices, const char* name) {
  std::vector<int64_t> dims;
  if (dim) dims.push_back(*dim);
  if (x.numel() == 0) {
    if (!dim) {
      throw TensorError(std::string(name) + "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
    }
    throw TensorError(std::string(name) + "(): Expected reduction dim " + std::to_string(wrapDim(*dim, x.dim())) + " to have non-zero size.", TensorError::Kind::IndexError);
  }
  ReductionLayout layout = prepare(x, dims, keepdim);
  if (!dim) layout.outShape = keepdim ? Shape(static_cast<size_t>(x.dim()), 1) : Shape{};
  if (values) *values = Tensor::allocate(layout.outShape, x.dtype(), x.device(), true);
  if (indices) *indices = Tensor::allocate(layout.outShape, DType::I64, x.device(), true);
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    const T* in = layout.data.data<T>();
    for (int64_t i = 0; i < layout.outer; ++i) {
      const T* run = in + i * layout.inner;
      int64_t best = 0;
      C bestValue = toCompute(run[0]);
      for (int64_t k = 1; k < layout.inner; ++k) {
        if constexpr (std::is_floating_point_v<C>) {
          if (std::isnan(bestValue)) break;
        }
        const C v = toCompute(run[k]);
        bool better;
        if constexpr (std::is_floating_point_v<C>) better = std::isnan(v) || (IsMax ? v > bestValue : v < bestValue);
        else better = IsMax ? v > bestValue : v < bestValue;
        if (better) {
          best = k;
          bestValue = v;
        }
      }
      if (values) values->data<T>()[i] = run[best];
      if (indices) indices->data<int64_t>()[i] = best;
    }
  });
}

Tensor boolReduce(const Tensor& x, std::optional<int64_t> dim, bool keepdim, bool isAll) {
  std::vector<int64_t> dims;
  if (dim) dims.push_back(*dim);
  ReductionLayout layout = prepare(x, dims, keepdim);
  Tensor out = Tensor::allocate(layout.outShape, DType::I1, x.device(), true);
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    const T* in = layout.data.data<T>();
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < layout.outer; ++i) {
      bool acc = isAll;
      for (int64_t k = 0; k < layout.inner; ++k) {
        const bool nonzero = toCompute(in[i * layout.inner + k]) != C(0);
        if (isAll && !nonzero) { acc = false; break; }
        if (!isAll && nonzero) { acc = true; break; }
      }
      o[i] = acc;
    }
  });
  return out;
}

// cumsum / cumprod along one dim: floats accumulate in double and round each prefix once; integers
// (and bools) accumulate in int64 with wrap-around, like torch.
Tensor cumulative(const Tensor& x, int64_t dim, std::optional<DType> dtype, bool product) {
  const DType outType = dtype.value_or(isIntegralType(x.dtype(), true) ? DType::I64 : x.dtype());
  const Tensor src = dtype ? x.to(*dtype) : x;
  if (src.dim() == 0) return src.to(outType).clone();
  const int64_t d = wrapDim(dim, src.dim());
  ReductionLayout layout = prepare(src, {d}, true);  // each run of `inner` values is one line along dim
  Tensor moved = Tensor::allocate(layout.data.shape(), outType, x.device(), true);
  dispatchDType(layout.data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = layout.data.data<T>();
    dispatchDType(outType, [&](auto outTag) {
      using O = typename decltype(outTag)::type;
      O* o = moved.data<O>();
      for (int64_t i = 0; i < layout.outer; ++i) {
        const T* run = in + i * layout.inner;
        O* dst = o + i * layout.inner;
        if constexpr (kIsFloating<T>) {
          double acc = product ? 1.0 : 0.0;
          for (int64_t k = 0; k < layout.inner; ++k) {
            const double v = static_cast<double>(toCompute(run[k]));
            acc = product ? acc * v : acc + v;
            dst[k] = convertValue<O>(acc);
          }
        } else {
          uint64_t acc = product ? 1 : 0;
          for (int64_t k = 0; k < layout.inner; ++k) {
            const auto v = static_cast<uint64_t>(static_cast<int64_t>(run[k]));
            acc = product ? acc * v : acc + v;
            dst[k] = convertValue<O>(static_cast<int64_t>(acc));
          }
        }
      }
    });
  });
  // `prepare` moved dim last; move it back.
  std::vector<int64_t> perm;
  for (int64_t k = 0; k < src.dim(); ++k)
    if (k != d) perm.push_back(k);
  perm.push_back(d);
  std::vector<int64_t> inverse(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) inverse[static_cast<size_t>(perm[k])] = static_cast<int64_t>(k);
  return moved.permute(inverse).contiguous();
}

}  // namespace

Tensor sum(const Tensor& x, std::optional<DType> dtype) { return sumImpl(x, {}, false, dtype, false); }
Tensor sum(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  return sumImpl(x, dims, keepdim, dtype, false);
}
Tensor mean(const Tensor& x, std::optional<DType> dtype) { return sumImpl(x, {}, false, dtype, true); }
Tensor mean(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, std::optional<DType> dtype) {
  return sumImpl(x, dims, keepdim, dtype, true);
}

Tensor max(const Tensor& x) {
  Tensor v;
  extremum<true>(x, std::nullopt, false, &v, nullptr, "max");
  return v;
}
Tensor min(const Tensor& x) {
  Tensor v;
  extremum<false>(x, std::nullopt, false, &v, nullptr, "min");
  return v;
}
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim) {
  ValuesIndices r;
  extremum<true>(x, dim, keepdim, &r.values, &r.indices, "max");
  return r;
}
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim) {
  ValuesIndices r;
  extremum<false>(x, dim, keepdim, &r.values, &r.indices, "min");
  return r;
}
Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  Tensor i;
  extremum<true>(dim ? x : x.reshape({-1}), dim ? dim : std::optional<int64_t>(0), dim ? keepdim : false, nullptr, &i, "argmax");
  if (!dim && keepdim) i = i.reshape(Shape(static_cast<size_t>(x.dim()), 1));
  return i;
}
Tensor argmin(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  Tensor i;
  extremum<false>(dim ? x : x.reshape({-1}), dim ? dim : std::optional<int64_t>(0), dim ? keepdim : false, nullptr, &i, "argmin");
  if (!dim && keepdim) i = i.reshape(Shape(static_cast<size_t>(x.dim()), 1));
  return i;
}

Tensor all(const Tensor& x) { return boolReduce(x, std::nullopt, false, true); }
Tensor any(const Tensor& x) { return boolReduce(x, std::nullopt, false, false); }
Tensor all(const Tensor& x, int64_t dim, bool keepdim) { return boolReduce(x, dim, keepdim, true); }
Tensor any(const Tensor& x, int64_t dim, bool keepdim) { return boolReduce(x, dim, keepdim, false); }

Tensor cumsum(const Tensor& x, int64_t dim, std::optional<DType> dtype) { return cumulative(x, dim, dtype, false); }
Tensor cumprod(const Tensor& x, int64_t dim, std::optional<DType> dtype) { return cumulative(x, dim, dtype, true); }

}  // namespace tilescope::host
