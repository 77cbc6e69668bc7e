#include "core/tensor/TensorNN.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

// The tensor's values as doubles in row-major order.
std::vector<double> toDoubles(const Tensor& t) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t.numel()));
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* base = reinterpret_cast<const T*>(t.storage()->data());
    t.forEachElementOffset([&](int64_t off) { out.push_back(static_cast<double>(toCompute(base[off]))); });
  });
  return out;
}

void fromDoubles(const Tensor& out, const std::vector<double>& values) {
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data<T>();
    for (size_t i = 0; i < values.size(); ++i) o[i] = convertValue<T>(values[i]);
  });
}

Tensor softmaxImpl(const Tensor& xIn, int64_t dim, std::optional<DType> dtype, bool logarithm) {
  const Tensor x = dtype ? xIn.to(*dtype) : xIn;
  if (!x.isFloatingPoint()) {
    throw TensorError(std::string(logarithm ? "\"log_softmax_lastdim_kernel_impl\"" : "\"softmax_lastdim_kernel_impl\"") +
                      " not implemented for '" + std::string(scalarTypeName(x.dtype())) + "'");
  }
  const int64_t d = wrapDim(dim, x.dim());
  if (x.dim() == 0) {
    Tensor out = Tensor::allocate({}, x.dtype(), x.device(), true);
    fromDoubles(out, {logarithm ? 0.0 : 1.0});
    return out;
  }
  // Move `dim` last so every row is contiguous in the double buffer.
  const int64_t last = x.dim() - 1;
  const Tensor moved = x.transpose(d, last);
  std::vector<double> v = toDoubles(moved);
  const int64_t n = x.shape()[static_cast<size_t>(d)];
  if (n > 0) {
    for (size_t row = 0; row < v.size(); row += static_cast<size_t>(n)) {
      double* r = v.data() + row;
      double mx = -std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < n; ++i) mx = std::max(mx, r[i]);
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += std::exp(r[i] - mx);
      for (int64_t i = 0; i < n; ++i) r[i] = logarithm ? (r[i] - mx) - std::log(s) : std::exp(r[i] - mx) / s;
    }
  }
  Tensor outMoved = Tensor::allocate(moved.shape(), x.dtype(), x.device(), true);
  fromDoubles(outMoved, v);
  return outMoved.transpose(d, last).contiguous();
}

}  // namespace

Tensor softmax(const Tensor& x, int64_t dim, std::optional<DType> dtype) { return softmaxImpl(x, dim, dtype, false); }
Tensor logSoftmax(const Tensor& x, int64_t dim, std::optional<DType> dtype) { return softmaxImpl(x, dim, dtype, true); }

Tensor layerNorm(const Tensor& x, const Shape& normalizedShape, const std::optional<Tensor>& weight,
                 const std::optional<Tensor>& bias, double eps) {
  const auto k = static_cast<int64_t>(normalizedShape.size());
  bool matches = k >= 1 && k <= x.dim();
  for (int64_t i = 0; matches && i < k; ++i) {
    matches = x.shape()[static_cast<size_t>(x.dim() - k + i)] == normalizedShape[static_cast<size_t>(i)];
  }
  if (!matches) {
    std::string expected = "[*";
    for (int64_t s : normalizedShape) expected += ", " + std::to_string(s);
    throw TensorError("Given normalized_shape=" + shapeRepr(normalizedShape) + ", expected input with shape " +
                      expected + "], but got input of size" + shapeRepr(x.shape()));
  }
  for (const auto& [param, name] : {std::pair{&weight, "weight"}, std::pair{&bias, "bias"}}) {
    if (*param && (*param)->shape() != normalizedShape) {
      throw TensorError("Expected " + std::string(name) + " to be of same shape as normalized_shape, but got " + name +
                        " of shape " + shapeRepr((*param)->shape()) + " and normalized_shape = " + shapeRepr(normalizedShape));
    }
  }
  if (!x.isFloatingPoint()) {
    throw TensorError("\"LayerNormKernelImpl\" not implemented for '" + std::string(scalarTypeName(x.dtype())) + "'");
  }
  std::vector<double> v = toDoubles(x);
  const std::vector<double> w = weight ? toDoubles(*weight) : std::vector<double>();
  const std::vector<double> b = bias ? toDoubles(*bias) : std::vector<double>();
  const int64_t n = shapeNumel(normalizedShape);
  if (n > 0) {
    for (size_t row = 0; row < v.size(); row += static_cast<size_t>(n)) {
      double* r = v.data() + row;
      double mean = 0;
      for (int64_t i = 0; i < n; ++i) mean += r[i];
      mean /= static_cast<double>(n);
      double var = 0;
      for (int64_t i = 0; i < n; ++i) var += (r[i] - mean) * (r[i] - mean);
      var /= static_cast<double>(n);
      const double rstd = 1.0 / std::sqrt(var + eps);
      for (int64_t i = 0; i < n; ++i) {
        double y = (r[i] - mean) * rstd;
        if (!w.empty()) y *= w[static_cast<size_t>(i)];
        if (!b.empty()) y += b[static_cast<size_t>(i)];
        r[i] = y;
      }
    }
  }
  Tensor out = Tensor::allocate(x.shape(), x.dtype(), x.device(), true);
  fromDoubles(out, v);
  return out;
}

}  // namespace tilescope::host
