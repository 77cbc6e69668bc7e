#include "core/tensor/TensorIndexing.h"

#include <algorithm>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

// Basic indexing applied, advanced indices collected (as int64 index tensors on view dims).
struct IndexPlan {
  Tensor view;
  std::vector<int64_t> advancedDims;  // dims of `view`, in subscript order
  std::vector<Tensor> advancedIndices;
};

[[noreturn]] void indexError(const std::string& message) { throw TensorError(message, TensorError::Kind::IndexError); }

int64_t consumedDims(const TensorIndex& index) {
  if (std::holds_alternative<int64_t>(index) || std::holds_alternative<Slice>(index)) return 1;
  if (const Tensor* t = std::get_if<Tensor>(&index)) return t->dtype() == DType::I1 || t->dtype() == DType::U8 ? t->dim() : 1;
  return 0;
}

// A boolean mask over dims [dim, dim + mask.dim()) of `view` becomes one int64 index tensor per dim.
void expandMask(const Tensor& view, int64_t dim, const Tensor& mask, IndexPlan& plan) {
  for (int64_t i = 0; i < mask.dim(); ++i) {
    const int64_t have = view.shape()[static_cast<size_t>(dim + i)];
    if (mask.shape()[static_cast<size_t>(i)] != have) {
      indexError("The shape of the mask " + shapeRepr(mask.shape()) + " at index " + std::to_string(i) +
                 " does not match the shape of the indexed tensor " + shapeRepr(view.shape()) + " at index " +
                 std::to_string(dim + i));
    }
  }
  const Tensor coords = nonzero(mask);  // [count, mask.dim()]
  for (int64_t i = 0; i < mask.dim(); ++i) {
    plan.advancedDims.push_back(dim + i);
    plan.advancedIndices.push_back(coords.select(1, i).contiguous());
  }
}

IndexPlan plan(const Tensor& self, std::span<const TensorIndex> indices) {
  int64_t consumed = 0;
  int ellipses = 0;
  for (const TensorIndex& index : indices) {
    consumed += consumedDims(index);
    if (std::holds_alternative<EllipsisIndex>(index)) ++ellipses;
  }
  if (ellipses > 1) indexError("an index can only have a single ellipsis ('...')");
  if (consumed > self.dim() && self.dim() == 0) {
    for (const TensorIndex& index : indices) {
      if (std::holds_alternative<int64_t>(index)) (void)self.select(0, 0);  // torch's 0-dim message
      if (std::holds_alternative<Slice>(index)) indexError("slice() cannot be applied to a 0-dim tensor.");
    }
  }
  if (consumed > self.dim()) {
    indexError("too many indices for tensor of dimension " + std::to_string(self.dim()));
  }
  IndexPlan p;
  p.view = self;
  int64_t dim = 0;  // current dim of p.view
  for (const TensorIndex& index : indices) {
    if (const int64_t* i = std::get_if<int64_t>(&index)) {
      p.view = p.view.select(dim, *i);
    } else if (const Slice* s = std::get_if<Slice>(&index)) {
      p.view = p.view.slice(dim, s->start, s->stop, s->step.value_or(1));
      ++dim;
    } else if (std::holds_alternative<NewAxis>(index)) {
      p.view = p.view.unsqueeze(dim);
      ++dim;
    } else if (std::holds_alternative<EllipsisIndex>(index)) {
      dim += self.dim() - consumed;
    } else if (const bool* b = std::get_if<bool>(&index)) {
      // x[True] adds an axis of size 1, x[False] one of size 0.
      p.view = p.view.unsqueeze(dim);
      if (!*b) p.view = p.view.slice(dim, 0, 0);
      ++dim;
    } else {
      const Tensor& t = std::get<Tensor>(index);
      if (t.dtype() == DType::I1 || t.dtype() == DType::U8) {
        if (t.dim() == 0) {
          // A 0-dim mask acts like a bool.
          p.view = p.view.unsqueeze(dim);
          if (!t.item().toBool()) p.view = p.view.slice(dim, 0, 0);
          ++dim;
          continue;
        }
        expandMask(p.view, dim, t.to(DType::I1), p);
        dim += t.dim();
      } else if (isIntegralType(t.dtype(), false)) {
        p.advancedDims.push_back(dim);
        p.advancedIndices.push_back(t.to(DType::I64));
        ++dim;
      } else {
        indexError("tensors used as indices must be long, int, byte or bool tensors");
      }
    }
  }
  return p;
}

// Storage element offsets (row-major over the result) and the result shape of an advanced index.
struct Gather {
  Shape shape;
  std::vector<int64_t> offsets;
};

Gather gatherOffsets(const IndexPlan& p) {
  const Tensor& view = p.view;
  Shape indexShape;
  for (const Tensor& t : p.advancedIndices) indexShape = broadcastShapes(indexShape, t.shape());
  const int64_t count = shapeNumel(indexShape);
  (void)checkedTensorBytes(indexShape, DType::I64);  // the offsets below are one int64 per index

  // Offset contributed by the advanced dims for each broadcast index position.
  std::vector<int64_t> advOffset(static_cast<size_t>(count), 0);
  for (size_t k = 0; k < p.advancedIndices.size(); ++k) {
    const int64_t d = p.advancedDims[k];
    const int64_t size = view.shape()[static_cast<size_t>(d)];
    const int64_t stride = view.strides()[static_cast<size_t>(d)];
    const Tensor idx = p.advancedIndices[k].expand(indexShape);
    const int64_t* base = reinterpret_cast<const int64_t*>(idx.storage()->data());
    size_t i = 0;
    idx.forEachElementOffset([&](int64_t off) {
      int64_t v = base[off];
      if (v < -size || v >= size) {
        indexError("index " + std::to_string(v) + " is out of bounds for dimension " + std::to_string(d) +
                   " with size " + std::to_string(size));
      }
      if (v < 0) v += size;
      advOffset[i++] += v * stride;
    });
  }

  // Remaining (basic) dims keep their order; the index dims go where the first advanced dim was when
  // the advanced dims are adjacent, in front otherwise.
  bool adjacent = true;
  for (size_t k = 1; k < p.advancedDims.size(); ++k) {
    if (p.advancedDims[k] != p.advancedDims[k - 1] + 1) adjacent = false;
  }
  Shape preShape, preStrides, postShape, postStrides;
  const int64_t first = p.advancedDims.front();
  for (int64_t d = 0; d < view.dim(); ++d) {
    if (std::find(p.advancedDims.begin(), p.advancedDims.end(), d) != p.advancedDims.end()) continue;
    const bool before = adjacent && d < first;
    (before ? preShape : postShape).push_back(view.shape()[static_cast<size_t>(d)]);
    (before ? preStrides : postStrides).push_back(view.strides()[static_cast<size_t>(d)]);
  }
  Gather g;
  g.shape = preShape;
  g.shape.insert(g.shape.end(), indexShape.begin(), indexShape.end());
  g.shape.insert(g.shape.end(), postShape.begin(), postShape.end());
  g.offsets.reserve(static_cast<size_t>(checkedTensorBytes(g.shape, DType::I64) / 8));
  const Tensor pre(view.storage(), view.dtype(), preShape, preStrides, 0, view.device());
  const Tensor post(view.storage(), view.dtype(), postShape, postStrides, 0, view.device());
  pre.forEachElementOffset([&](int64_t preOff) {
    for (int64_t i = 0; i < count; ++i) {
      const int64_t base = view.storageOffset() + preOff + advOffset[static_cast<size_t>(i)];
      post.forEachElementOffset([&](int64_t postOff) { g.offsets.push_back(base + postOff); });
    }
  });
  return g;
}

}  // namespace

Tensor nonzero(const Tensor& x) {
  std::vector<int64_t> coords;
  int64_t count = 0;
  const Tensor c = x.contiguous();
  dispatchDType(c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = c.data<T>();
    const int64_t n = c.numel();
    std::vector<int64_t> index(static_cast<size_t>(c.dim()), 0);
    for (int64_t i = 0; i < n; ++i) {
      if (toCompute(data[i]) != ComputeType<T>(0)) {
        coords.insert(coords.end(), index.begin(), index.end());
        ++count;
      }
      for (size_t d = index.size(); d-- > 0;) {
        if (++index[d] < c.shape()[d]) break;
        index[d] = 0;
      }
    }
  });
  Tensor out = Tensor::allocate({count, x.dim()}, DType::I64, x.device(), true);
  std::copy(coords.begin(), coords.end(), out.data<int64_t>());
  return out;
}

Tensor gather(const Tensor& x, int64_t dimIn, const Tensor& indexIn) {
  if (indexIn.dtype() != DType::I64 && indexIn.dtype() != DType::I32)
    throw TensorError("gather(): Expected dtype int64 for index");
  if (indexIn.dim() != x.dim() && !(x.dim() == 0 && indexIn.dim() <= 1))
    throw TensorError("Index tensor must have the same number of dimensions as input tensor");
  const int64_t nd = x.dim();
  const int64_t dim = nd == 0 ? 0 : wrapDim(dimIn, nd);
  for (int64_t d = 0; d < nd; ++d)
    if (d != dim && indexIn.shape()[static_cast<size_t>(d)] > x.shape()[static_cast<size_t>(d)])
      throw TensorError("Size does not match at dimension " + std::to_string(d) + " expected index " +
                        shapeRepr(indexIn.shape()) + " to be no larger than self " + shapeRepr(x.shape()) +
                        " apart from dimension " + std::to_string(dim));
  const Tensor index = indexIn.to(DType::I64).contiguous();
  const Tensor src = x.contiguous();
  Tensor out = Tensor::allocate(index.shape(), x.dtype(), x.device(), true);
  const int64_t* idx = index.data<int64_t>();
  const int64_t extent = nd == 0 ? 1 : x.shape()[static_cast<size_t>(dim)];
  std::vector<int64_t> coord(static_cast<size_t>(nd), 0);
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = src.data<T>();
    T* o = out.data<T>();
    for (int64_t n = 0; n < index.numel(); ++n) {
      int64_t at = idx[n];
      if (at < -extent || at >= extent)
        throw TensorError("index " + std::to_string(at) + " is out of bounds for dimension " + std::to_string(dim) +
                          " with size " + std::to_string(extent), TensorError::Kind::IndexError);
      if (at < 0) at += extent;
      int64_t offset = 0;
      for (int64_t d = 0; d < nd; ++d)
        offset += (d == dim ? at : coord[static_cast<size_t>(d)]) * src.strides()[static_cast<size_t>(d)];
      o[n] = in[offset];
      for (int64_t d = nd; d-- > 0;) {
        if (++coord[static_cast<size_t>(d)] < index.shape()[static_cast<size_t>(d)]) break;
        coord[static_cast<size_t>(d)] = 0;
      }
    }
  });
  return out;
}

Tensor getItem(const Tensor& self, std::span<const TensorIndex> indices) {
  const IndexPlan p = plan(self, indices);
  if (p.advancedIndices.empty()) return p.view;
  const Gather g = gatherOffsets(p);
  Tensor out = Tensor::allocate(g.shape, self.dtype(), self.device(), true);
  dispatchStorageDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = reinterpret_cast<const T*>(self.storage()->data());
    T* dst = out.data<T>();
    for (size_t i = 0; i < g.offsets.size(); ++i) dst[i] = src[g.offsets[i]];
  });
  return out;
}

void setItem(const Tensor& self, std::span<const TensorIndex> indices, const TensorOrScalar& value) {
  const IndexPlan p = plan(self, indices);
  if (p.advancedIndices.empty()) {
    if (value.isTensor()) copyInto(p.view, value.tensor());
    else fillInto(p.view, value.scalar());
    return;
  }
  const Gather g = gatherOffsets(p);
  // The value, broadcast to the indexed shape and converted to self's dtype, in row-major order.
  Tensor src;
  if (value.isTensor()) {
    Tensor v = value.tensor();
    while (v.dim() > static_cast<int64_t>(g.shape.size()) && v.shape()[0] == 1) v = v.squeeze(0);
    src = v.expand(g.shape).to(self.dtype()).contiguous();
    if (src.storage() == self.storage()) src = src.clone();  // x[i] = x[j] must read before writing
  } else {
    src = Tensor::allocate(g.shape, self.dtype(), self.device(), true);
    fillInto(src, value.scalar());
  }
  Storage& storage = *self.storage();
  const int64_t es = self.elementSize();
  dispatchStorageDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = reinterpret_cast<T*>(storage.data());
    const T* in = src.data<T>();
    for (size_t i = 0; i < g.offsets.size(); ++i) dst[g.offsets[i]] = in[i];
  });
  if (!storage.fullyInitialised()) {
    for (int64_t off : g.offsets) storage.markWritten(static_cast<size_t>(off * es), static_cast<size_t>(es));
  }
}

}  // namespace tilescope::host
