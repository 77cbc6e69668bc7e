#include "core/tensor/Tensor.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <new>
#include <numeric>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/TensorConvert.h"
#include "core/tensor/TensorError.h"

namespace tilescope::host {

namespace {

std::string legacyTypeName(DType t) { return "torch." + std::string(scalarTypeName(t)) + "Tensor"; }

// torch's view stride computation: the new shape must split or merge only dims that are laid out
// contiguously relative to each other ("chunks"). Returns nullopt when no strides exist.
std::optional<Shape> viewStrides(const Shape& oldShape, const Shape& oldStrides, const Shape& newShape) {
  Shape newStrides(newShape.size(), 0);
  if (oldShape.empty()) {
    // A scalar views as any shape of ones.
    std::fill(newStrides.begin(), newStrides.end(), 1);
    return newStrides;
  }
  if (shapeNumel(oldShape) == 0) {
    if (oldShape == newShape) return oldStrides;
    return contiguousStrides(newShape);
  }
  int64_t viewDim = static_cast<int64_t>(newShape.size()) - 1;
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1;
  int64_t viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldShape.size()) - 1; d >= 0; --d) {
    tensorNumel *= oldShape[d];
    // A chunk ends where the next-outer dim is not laid out right after this one.
    const bool chunkEnds = d == 0 || (oldShape[d - 1] != 1 && oldStrides[d - 1] != tensorNumel * chunkBaseStride);
    if (!chunkEnds) continue;
    while (viewDim >= 0 && (viewNumel < tensorNumel || newShape[viewDim] == 1)) {
      newStrides[viewDim] = viewNumel * chunkBaseStride;
      viewNumel *= newShape[viewDim];
      --viewDim;
    }
    if (viewNumel != tensorNumel) return std::nullopt;
    if (d > 0) {
      chunkBaseStride = oldStrides[d - 1];
      tensorNumel = 1;
      viewNumel = 1;
    }
  }
  if (viewDim != -1) return std::nullopt;
  return newStrides;
}

// Resolves one -1 and validates the element count.
Shape inferShape(const Shape& requested, int64_t numel) {
  Shape shape = requested;
  std::optional<size_t> inferred;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred) throw TensorError("only one dimension can be inferred");
      inferred = i;
    } else if (shape[i] < 0) {
      throw TensorError("invalid shape dimension " + std::to_string(shape[i]));
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      throw TensorError("shape '" + shapeRepr(requested) + "' is invalid for input of size " + std::to_string(numel));
    }
  }
  if (inferred) {
    if (known == 0 || numel % known != 0) {
      throw TensorError("shape '" + shapeRepr(requested) + "' is invalid for input of size " + std::to_string(numel));
    }
    shape[*inferred] = numel / known;
  } else if (known != numel) {
    throw TensorError("shape '" + shapeRepr(requested) + "' is invalid for input of size " + std::to_string(numel));
  }
  return shape;
}

template <class T>
Scalar toScalar(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return Scalar(v);
  } else if constexpr (kIsFloating<T>) {
    return Scalar(static_cast<double>(toCompute(v)));
  } else {
    return Scalar(static_cast<int64_t>(v));
  }
}

}  // namespace

std::string shapeRepr(std::span<const int64_t> shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

std::string torchSizeRepr(std::span<const int64_t> shape) { return "torch.Size(" + shapeRepr(shape) + ")"; }

namespace {
[[noreturn]] void throwShapeTooLarge(std::span<const int64_t> shape) {
  throw TensorError("the shape " + shapeRepr(shape) +
                    " has more elements than a tensor can hold (at most 2^63 - 1, and far fewer fit in memory)");
}

std::string byteCount(int64_t bytes) {
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  char text[64];
  std::snprintf(text, sizeof text, "%.1f GiB", gib);
  return std::to_string(bytes) + " bytes (" + text + ")";
}

// Physical memory: a tensor larger than that could only be paged to death (or killed by the OOM
// killer mid-run), so it is refused up front with a message instead.
int64_t physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return std::numeric_limits<int64_t>::max();
  int64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<int64_t>(pages), static_cast<int64_t>(pageSize), &bytes))
    return std::numeric_limits<int64_t>::max();
  return bytes;
}
}  // namespace

int64_t shapeNumel(std::span<const int64_t> shape) {
  // The extent (product of max(size, 1)) bounds every stride and partial product computed from the
  // shape, so checking it once covers strides too, even where a zero size makes the count 0.
  int64_t n = 1, extent = 1;
  for (int64_t s : shape) {
    if (__builtin_mul_overflow(extent, std::max<int64_t>(s, 1), &extent) || __builtin_mul_overflow(n, s, &n))
      throwShapeTooLarge(shape);
  }
  return n;
}

Shape contiguousStrides(std::span<const int64_t> shape) {
  (void)shapeNumel(shape);  // throws when the strides would overflow
  Shape strides(shape.size(), 1);
  int64_t running = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = running;
    running *= std::max<int64_t>(shape[d], 1);
  }
  return strides;
}

int64_t checkedSizeAdd(int64_t a, int64_t b, const std::string& what) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) throw TensorError(what + ": the size overflows 64 bits (" + std::to_string(a) + " + " + std::to_string(b) + ")");
  return sum;
}

int64_t checkedTensorBytes(std::span<const int64_t> shape, DType dtype) {
  const int64_t numel = shapeNumel(shape);
  int64_t nbytes = 0;
  auto what = [&] { return torchDTypeName(dtype) + " tensor of shape " + shapeRepr(shape); };
  if (__builtin_mul_overflow(numel, host::elementSize(dtype), &nbytes))
    throw TensorError("cannot allocate a " + what() + ": its size in bytes does not fit in 64 bits", TensorError::Kind::MemoryError);
  const int64_t available = physicalMemoryBytes();
  if (nbytes > available)
    throw TensorError("cannot allocate a " + what() + ": it needs " + byteCount(nbytes) + " and this machine has " +
                          byteCount(available) + " of memory",
                      TensorError::Kind::MemoryError);
  return nbytes;
}

std::shared_ptr<Storage> allocateStorageFor(std::span<const int64_t> shape, DType dtype, bool initialised) {
  const int64_t nbytes = checkedTensorBytes(shape, dtype);
  const std::string what = torchDTypeName(dtype) + " tensor of shape " + shapeRepr(shape);
  try {
    return Storage::create(static_cast<size_t>(nbytes), initialised);
  } catch (const std::bad_alloc&) {
    throw TensorError("out of memory allocating a " + what + " (" + byteCount(nbytes) + ")", TensorError::Kind::MemoryError);
  }
}

int64_t wrapDim(int64_t dim, int64_t ndim) {
  const int64_t range = std::max<int64_t>(ndim, 1);  // a 0-dim tensor accepts dims -1 and 0
  if (dim < -range || dim >= range) {
    throw TensorError("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                          std::to_string(range - 1) + "], but got " + std::to_string(dim) + ")",
                      TensorError::Kind::IndexError);
  }
  return dim < 0 ? dim + range : dim;
}

Shape broadcastShapes(std::span<const int64_t> a, std::span<const int64_t> b) {
  const size_t nd = std::max(a.size(), b.size());
  Shape out(nd, 1);
  for (size_t i = 0; i < nd; ++i) {
    const size_t fromEnd = nd - 1 - i;
    const int64_t sa = fromEnd < a.size() ? a[a.size() - 1 - fromEnd] : 1;
    const int64_t sb = fromEnd < b.size() ? b[b.size() - 1 - fromEnd] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      throw TensorError("The size of tensor a (" + std::to_string(sa) + ") must match the size of tensor b (" +
                        std::to_string(sb) + ") at non-singleton dimension " + std::to_string(i));
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Shape strides, int64_t storageOffset,
               Device device)
    : storage_(std::move(storage)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(storageOffset),
      device_(device) {
  (void)shapeNumel(shape_);  // a view's element count must be countable, like every tensor's
}

Tensor Tensor::allocate(const Shape& shape, DType dtype, Device device, bool initialised) {
  if (!isTorchDType(dtype)) throwUnsupportedDType(dtype);
  for (int64_t s : shape) {
    if (s < 0) {
      throw TensorError("Trying to create tensor with negative dimension " + std::to_string(s) + ": " +
                        shapeRepr(shape));
    }
  }
  return Tensor(allocateStorageFor(shape, dtype, initialised), dtype, shape, contiguousStrides(shape), 0, device);
}

int64_t Tensor::size(int64_t d) const {
  if (dim() == 0) throw TensorError("dimension specified as " + std::to_string(d) + " but tensor has no dimensions", TensorError::Kind::IndexError);
  return shape_[static_cast<size_t>(wrapDim(d, dim()))];
}

int64_t Tensor::stride(int64_t d) const {
  if (dim() == 0) throw TensorError("dimension specified as " + std::to_string(d) + " but tensor has no dimensions", TensorError::Kind::IndexError);
  return strides_[static_cast<size_t>(wrapDim(d, dim()))];
}

bool Tensor::isContiguous() const {
  if (numel() == 0) return true;
  int64_t expected = 1;
  for (size_t d = shape_.size(); d-- > 0;) {
    if (shape_[d] == 1) continue;  // a size-1 dim's stride is never used
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

Tensor Tensor::view(const Shape& requested) const {
  const Shape shape = inferShape(requested, numel());
  auto strides = viewStrides(shape_, strides_, shape);
  if (!strides) {
    throw TensorError(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
        "two contiguous subspaces). Use .reshape(...) instead.");
  }
  return Tensor(storage_, dtype_, shape, *strides, offset_, device_);
}

Tensor Tensor::reshape(const Shape& requested) const {
  const Shape shape = inferShape(requested, numel());
  if (auto strides = viewStrides(shape_, strides_, shape)) return Tensor(storage_, dtype_, shape, *strides, offset_, device_);
  return clone().view(shape);
}

Tensor Tensor::permute(const std::vector<int64_t>& dims) const {
  if (static_cast<int64_t>(dims.size()) != dim()) {
    throw TensorError(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
        "ordering of dimensions i.e. input.dim() = " + std::to_string(dim()) + " is not equal to len(dims) = " +
        std::to_string(dims.size()));
  }
  Shape shape(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const auto d = static_cast<size_t>(wrapDim(dims[i], dim()));
    if (seen[d]) throw TensorError("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    shape[i] = shape_[d];
    strides[i] = strides_[d];
  }
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  if (dim() == 0) {
    wrapDim(dim0, 0);
    wrapDim(dim1, 0);
    return *this;
  }
  const auto a = static_cast<size_t>(wrapDim(dim0, dim()));
  const auto b = static_cast<size_t>(wrapDim(dim1, dim()));
  Shape shape = shape_, strides = strides_;
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::t() const {
  if (dim() > 2) {
    throw TensorError("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(dim()) + "D");
  }
  return dim() < 2 ? *this : transpose(0, 1);
}

Tensor Tensor::T() const {
  std::vector<int64_t> dims(static_cast<size_t>(dim()));
  std::iota(dims.rbegin(), dims.rend(), 0);
  return permute(dims);
}

Tensor Tensor::unsqueeze(int64_t d) const {
  const auto pos = static_cast<size_t>(wrapDim(d, dim() + 1));
  Shape shape = shape_, strides = strides_;
  // The new dim's stride only matters for contiguity checks; torch uses size*stride of the next dim.
  const int64_t stride = pos < shape_.size() ? shape_[pos] * strides_[pos] : 1;
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(pos), 1);
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(pos), stride);
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::squeeze() const {
  Shape shape, strides;
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (shape_[d] == 1) continue;
    shape.push_back(shape_[d]);
    strides.push_back(strides_[d]);
  }
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::squeeze(int64_t d) const {
  if (dim() == 0) {
    wrapDim(d, 0);
    return *this;
  }
  const auto pos = static_cast<size_t>(wrapDim(d, dim()));
  if (shape_[pos] != 1) return *this;
  Shape shape = shape_, strides = strides_;
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(pos));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(pos));
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::expand(const Shape& target) const {
  if (static_cast<int64_t>(target.size()) < dim()) {
    throw TensorError("expand(" + legacyTypeName(dtype_) + "{" + shapeRepr(shape_) + "}, size=" + shapeRepr(target) +
                      "): the number of sizes provided (" + std::to_string(target.size()) +
                      ") must be greater or equal to the number of dimensions in the tensor (" + std::to_string(dim()) + ")");
  }
  const size_t nd = target.size();
  const size_t lead = nd - shape_.size();
  Shape shape(nd), strides(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t want = target[i];
    if (i < lead) {
      if (want < 0) {
        throw TensorError("The expanded size of the tensor (" + std::to_string(want) +
                          ") isn't allowed in a leading, non-existing dimension " + std::to_string(i));
      }
      shape[i] = want;
      strides[i] = 0;
      continue;
    }
    const int64_t have = shape_[i - lead];
    if (want == -1 || want == have) {
      shape[i] = have;
      strides[i] = strides_[i - lead];
    } else if (have == 1) {
      shape[i] = want;
      strides[i] = 0;
    } else {
      throw TensorError("The expanded size of the tensor (" + std::to_string(want) +
                        ") must match the existing size (" + std::to_string(have) + ") at non-singleton dimension " +
                        std::to_string(i) + ".  Target sizes: " + shapeRepr(target) + ".  Tensor sizes: " + shapeRepr(shape_));
    }
  }
  return Tensor(storage_, dtype_, shape, strides, offset_, device_);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  if (dim() == 0) {
    throw TensorError(
        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
        "0-dim tensor to a number",
        TensorError::Kind::IndexError);
  }
  const auto pos = static_cast<size_t>(wrapDim(d, dim()));
  const int64_t n = shape_[pos];
  if (index < -n || index >= n) {
    throw TensorError("index " + std::to_string(index) + " is out of bounds for dimension " + std::to_string(pos) +
                          " with size " + std::to_string(n),
                      TensorError::Kind::IndexError);
  }
  if (index < 0) index += n;
  Shape shape = shape_, strides = strides_;
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(pos));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(pos));
  return Tensor(storage_, dtype_, shape, strides, offset_ + index * strides_[pos], device_);
}

Tensor Tensor::slice(int64_t d, std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step) const {
  if (step <= 0) throw TensorError("step must be greater than zero", TensorError::Kind::ValueError);
  if (dim() == 0) throw TensorError("slice() cannot be applied to a 0-dim tensor.", TensorError::Kind::IndexError);
  const auto pos = static_cast<size_t>(wrapDim(d, dim()));
  const int64_t n = shape_[pos];
  // Python's clamping: negative bounds count from the end, then clamp into [0, n].
  auto clampBound = [n](std::optional<int64_t> v, int64_t fallback) {
    if (!v) return fallback;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::clamp<int64_t>(x, 0, n);
  };
  const int64_t lo = clampBound(start, 0);
  const int64_t hi = std::max(clampBound(stop, n), lo);
  Shape shape = shape_, strides = strides_;
  shape[pos] = hi == lo ? 0 : (hi - lo - 1) / step + 1;  // ceil((hi - lo) / step) without overflowing for a huge step
  strides[pos] = shape[pos] <= 1 ? strides_[pos] : strides_[pos] * step;  // one element: the stride is never used
  return Tensor(storage_, dtype_, shape, strides, offset_ + lo * strides_[pos], device_);
}

Tensor Tensor::flatten() const { return reshape({-1}); }

Tensor Tensor::contiguous() const { return isContiguous() ? *this : clone(); }

Tensor Tensor::clone() const { return convertTo(*this, dtype_, device_); }

Tensor Tensor::to(DType dtype) const { return to(device_, dtype); }

Tensor Tensor::to(const Device& device) const { return to(device, dtype_); }

Tensor Tensor::to(const Device& device, DType dtype) const {
  if (device == device_ && dtype == dtype_) return *this;
  if (!isTorchDType(dtype)) throwUnsupportedDType(dtype);
  return convertTo(*this, dtype, device);
}

Tensor& Tensor::copy_(const Tensor& src) {
  copyInto(*this, src);
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  fillInto(*this, value);
  return *this;
}

Scalar Tensor::loadElement(int64_t elementOffset) const {
  return dispatchStorageDType(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return toScalar(reinterpret_cast<const T*>(storage_->data())[elementOffset]);
  });
}

Scalar Tensor::item() const {
  if (numel() != 1) {
    throw TensorError("a Tensor with " + std::to_string(numel()) + " elements cannot be converted to Scalar");
  }
  return loadElement(offset_);
}

Scalar Tensor::at(std::span<const int64_t> index) const {
  if (static_cast<int64_t>(index.size()) != dim()) {
    throw TensorError("at(): expected " + std::to_string(dim()) + " indices, got " + std::to_string(index.size()),
                      TensorError::Kind::IndexError);
  }
  Tensor view = *this;
  for (int64_t i : index) view = view.select(0, i);
  return view.item();
}

NestedValue Tensor::tolist() const {
  if (dim() == 0) return NestedValue{item()};
  std::vector<NestedValue> items;
  items.reserve(static_cast<size_t>(shape_[0]));
  for (int64_t i = 0; i < shape_[0]; ++i) items.push_back(select(0, i).tolist());
  return NestedValue{std::move(items)};
}

void Tensor::markWritten() const { markTensorWritten(*this); }

bool Tensor::isInitialised() const {
  const Storage& storage = *storage_;
  if (storage.fullyInitialised()) return true;
  const int64_t es = elementSize();
  bool all = true;
  forEachElementOffset([&](int64_t off) {
    if (all && !storage.isInitialised(static_cast<size_t>(off * es), static_cast<size_t>(es))) all = false;
  });
  return all;
}

}  // namespace tilescope::host
