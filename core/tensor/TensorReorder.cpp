#include "core/tensor/TensorReorder.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TypePromotion.h"

namespace tilescope::host {

Tensor cat(const std::vector<Tensor>& tensors, int64_t dimIn) {
  if (tensors.empty()) throw TensorError("torch.cat(): expected a non-empty list of Tensors");
  const Tensor& first = tensors.front();
  if (first.dim() == 0) throw TensorError("zero-dimensional tensor (at position 0) cannot be concatenated");
  const int64_t dim = wrapDim(dimIn, first.dim());
  Shape shape = first.shape();
  shape[static_cast<size_t>(dim)] = 0;
  std::vector<PromotionOperand> operands;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() != first.dim())
      throw TensorError("Tensors must have same number of dimensions: got " + std::to_string(first.dim()) + " and " +
                        std::to_string(t.dim()));
    for (int64_t d = 0; d < t.dim(); ++d)
      if (d != dim && t.shape()[static_cast<size_t>(d)] != first.shape()[static_cast<size_t>(d)])
        throw TensorError("Sizes of tensors must match except in dimension " + std::to_string(dim) + ". Expected size " +
                          std::to_string(first.shape()[static_cast<size_t>(d)]) + " but got size " +
                          std::to_string(t.shape()[static_cast<size_t>(d)]) + " for tensor number " + std::to_string(i) +
                          " in the list.");
    shape[static_cast<size_t>(dim)] = checkedSizeAdd(shape[static_cast<size_t>(dim)], t.shape()[static_cast<size_t>(dim)], "torch.cat");
    operands.push_back({t.dtype(), PromotionOperand::Priority::Dimensioned});
  }
  const DType dtype = resultType(operands);
  Tensor out = Tensor::allocate(shape, dtype, first.device(), true);
  int64_t at = 0;
  for (const Tensor& t : tensors) {
    const int64_t n = t.shape()[static_cast<size_t>(dim)];
    copyInto(out.slice(dim, at, at + n), t.to(dtype));
    at += n;
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dimIn) {
  if (tensors.empty()) throw TensorError("stack expects a non-empty TensorList");
  const int64_t dim = wrapDim(dimIn, tensors.front().dim() + 1);
  std::vector<Tensor> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].shape() != tensors.front().shape())
      throw TensorError("stack expects each tensor to be equal size, but got " + shapeRepr(tensors.front().shape()) +
                        " at entry 0 and " + shapeRepr(tensors[i].shape()) + " at entry " + std::to_string(i));
    parts.push_back(tensors[i].unsqueeze(dim));
  }
  return cat(parts, dim);
}

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims) {
  Tensor out = x.contiguous();
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(x.dim(), 1)), false);
  for (int64_t dimIn : dims) {
    const int64_t dim = wrapDim(dimIn, x.dim());
    if (seen[static_cast<size_t>(dim)]) throw TensorError("dim " + std::to_string(dim) + " appears multiple times in the list of dims");
    seen[static_cast<size_t>(dim)] = true;
    // Element i along dim comes from n - 1 - i: a gather with that index, broadcast over the rest.
    const int64_t n = x.shape()[static_cast<size_t>(dim)];
    Shape along(static_cast<size_t>(x.dim()), 1);
    along[static_cast<size_t>(dim)] = n;
    const Tensor index = arange(Scalar(n - 1), Scalar(int64_t{-1}), Scalar(int64_t{-1}), TensorOptions(DType::I64, x.device()))
                             .view(along)
                             .expand(x.shape())
                             .contiguous();
    out = gather(out, dim, index);
  }
  return dims.empty() ? x.clone() : out;
}

ValuesIndices sort(const Tensor& x, int64_t dimIn, bool descending) {
  if (x.dim() == 0) return {x.clone(), zeros({}, TensorOptions(DType::I64, x.device()))};
  const int64_t dim = wrapDim(dimIn, x.dim());
  // Rows along the last dim, contiguous.
  std::vector<int64_t> order;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dim) order.push_back(d);
  order.push_back(dim);
  const Tensor rows = x.permute(order).contiguous();
  const int64_t n = x.shape()[static_cast<size_t>(dim)];
  const int64_t count = n == 0 ? 0 : rows.numel() / n;
  Tensor values = Tensor::allocate(rows.shape(), x.dtype(), x.device(), true);
  Tensor indices = Tensor::allocate(rows.shape(), DType::I64, x.device(), true);
  int64_t* idx = indices.data<int64_t>();
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = rows.data<T>();
    T* out = values.data<T>();
    for (int64_t r = 0; r < count; ++r) {
      const T* row = in + r * n;
      int64_t* perm = idx + r * n;
      std::iota(perm, perm + n, int64_t{0});
      auto less = [&](int64_t a, int64_t b) {
        const auto va = toCompute(row[a]), vb = toCompute(row[b]);
        if constexpr (std::is_floating_point_v<decltype(va)>) {
          if (std::isnan(va) || std::isnan(vb)) return !std::isnan(va) && std::isnan(vb);  // NaN is the largest
        }
        return va < vb;
      };
      if (descending) std::stable_sort(perm, perm + n, [&](int64_t a, int64_t b) { return less(b, a); });
      else std::stable_sort(perm, perm + n, less);
      for (int64_t i = 0; i < n; ++i) out[r * n + i] = row[perm[i]];
    }
  });
  std::vector<int64_t> back(order.size());
  for (size_t i = 0; i < order.size(); ++i) back[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
  return {values.permute(back).contiguous(), indices.permute(back).contiguous()};
}

ValuesIndices topk(const Tensor& x, int64_t k, int64_t dimIn, bool largest) {
  const int64_t dim = x.dim() == 0 ? 0 : wrapDim(dimIn, x.dim());
  const int64_t n = x.dim() == 0 ? 1 : x.shape()[static_cast<size_t>(dim)];
  if (k < 0 || k > n)
    throw TensorError("selected index k out of range: topk(k=" + std::to_string(k) + ") of a dimension of " +
                      std::to_string(n) + " elements");
  ValuesIndices all = sort(x, dim, largest);
  if (x.dim() == 0) return all;
  return {all.values.slice(dim, 0, k).contiguous(), all.indices.slice(dim, 0, k).contiguous()};
}

}  // namespace tilescope::host
