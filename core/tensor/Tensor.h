#pragma once
// tilescope's stand-in for torch.Tensor: a strided view (dtype, shape, strides in elements, storage offset,
// device) on a shared Storage. core/python exposes it to host code as the built-in `torch`.
//
// Naming: methods keep torch's names where C++ allows (view, reshape, permute, transpose, t, T, contiguous,
// clone, item, tolist, size, stride, numel, dim, ...). torch's `x.float()`, `x.half()`, `x.double()`,
// `x.int()`, `x.long()`, `x.bool()` are toFloat(), toHalf(), toDouble(), toInt(), toLong(), toBool()
// because those are C++ keywords. Operations (arithmetic, reductions, matmul, indexing, printing,
// factories, random numbers) are free functions in TensorOps.h, TensorReduce.h, TensorLinalg.h,
// TensorNN.h, TensorIndexing.h, TensorPrinter.h, TensorFactory.h, TorchRandom.h and TensorCompare.h.
//
// Copying a Tensor object is cheap and aliases the data, exactly like assigning a torch tensor in Python.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/tensor/Device.h"
#include "core/tensor/NestedValue.h"
#include "core/tensor/Scalar.h"
#include "core/tensor/Storage.h"
#include "core/tensor/TypePromotion.h"

namespace tilescope::host {

using Shape = std::vector<int64_t>;

// "[2, 3]" (torch's shape spelling in error messages).
std::string shapeRepr(std::span<const int64_t> shape);
// "torch.Size([2, 3])" (repr of tensor.shape).
std::string torchSizeRepr(std::span<const int64_t> shape);
// The element count. Every size computation of the tensor library goes through these two, checked: a
// shape whose count or strides do not fit in 64 bits is a RuntimeError naming the shape, never a
// count that wraps around to a small number (and a buffer too small for the tensor).
int64_t shapeNumel(std::span<const int64_t> shape);
Shape contiguousStrides(std::span<const int64_t> shape);
// a + b for sizes (cat, arange, ...): RuntimeError saying `what` overflowed instead of wrapping.
int64_t checkedSizeAdd(int64_t a, int64_t b, const std::string& what);
// The bytes of a dense tensor of this shape and dtype; MemoryError naming the shape, the dtype and the
// bytes when they do not fit in 64 bits or exceed this machine's memory. For buffers sized like a
// tensor (index lists) before they are allocated.
int64_t checkedTensorBytes(std::span<const int64_t> shape, DType dtype);
// A zero-filled storage for a dense tensor of this shape and dtype: checkedTensorBytes, and a
// MemoryError also when the allocation fails.
std::shared_ptr<Storage> allocateStorageFor(std::span<const int64_t> shape, DType dtype, bool initialised);
// Wraps a possibly negative dim for a tensor of `ndim` dims; IndexError in torch's wording otherwise.
int64_t wrapDim(int64_t dim, int64_t ndim);
// The broadcast of two shapes (numpy rules); TensorError "The size of tensor a (3) must match ..." if
// they are incompatible.
Shape broadcastShapes(std::span<const int64_t> a, std::span<const int64_t> b);

class Tensor {
 public:
  // An undefined tensor (defined() is false); every other method requires a defined one.
  Tensor() = default;
  // A view on existing storage. Strides and offset are in elements. RuntimeError when the shape's
  // element count does not fit in 64 bits (an expand to a huge size, say).
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Shape strides, int64_t storageOffset,
         Device device);

  // A fresh contiguous tensor. initialised=false is torch.empty: its bytes count as never written.
  static Tensor allocate(const Shape& shape, DType dtype, Device device = {}, bool initialised = true);

  bool defined() const { return storage_ != nullptr; }

  // --- attributes ---
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return shapeNumel(shape_); }
  int64_t size(int64_t dim) const;    // negative dims count from the end
  int64_t stride(int64_t dim) const;  // in elements
  int64_t storageOffset() const { return offset_; }
  int64_t elementSize() const { return host::elementSize(dtype_); }
  const Device& device() const { return device_; }
  bool isCuda() const { return device_.isCuda(); }
  bool isContiguous() const;
  bool isFloatingPoint() const { return isFloatingType(dtype_); }

  const std::shared_ptr<Storage>& storage() const { return storage_; }
  // Address of the element at index (0, ..., 0).
  std::byte* rawData() const { return storage_->data() + offset_ * elementSize(); }
  template <class T>
  T* data() const {
    return reinterpret_cast<T*>(rawData());
  }

  // --- views (share storage) ---
  Tensor view(const Shape& shape) const;  // one -1 may be inferred
  Tensor reshape(const Shape& shape) const;
  Tensor permute(const std::vector<int64_t>& dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;  // <= 2-D only
  Tensor T() const;  // reverses all dims
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor expand(const Shape& shape) const;  // broadcast_to; -1 keeps a size
  Tensor select(int64_t dim, int64_t index) const;
  // Python slice semantics on one dim (clamped bounds); step must be positive like torch.
  Tensor slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step = 1) const;
  Tensor flatten() const;
  Tensor contiguous() const;  // self when already contiguous

  // --- copies and conversions ---
  Tensor clone() const;  // always a fresh contiguous copy
  // Self (aliased) when nothing changes, like torch.
  Tensor to(DType dtype) const;
  Tensor to(const Device& device) const;
  Tensor to(const Device& device, DType dtype) const;
  Tensor toFloat() const { return to(DType::FP32); }
  Tensor toHalf() const { return to(DType::FP16); }
  Tensor toBFloat16() const { return to(DType::BF16); }
  Tensor toDouble() const { return to(DType::FP64); }
  Tensor toInt() const { return to(DType::I32); }
  Tensor toLong() const { return to(DType::I64); }
  Tensor toBool() const { return to(DType::I1); }
  Tensor cpu() const { return to(Device()); }
  Tensor cuda() const { return to(Device(Device::Type::CUDA, 0)); }

  // --- in-place writes (mark the bytes written) ---
  Tensor& copy_(const Tensor& src);  // src broadcasts to this shape and is cast to this dtype
  Tensor& fill_(const Scalar& value);

  // --- Python values ---
  Scalar item() const;  // one element only
  NestedValue tolist() const;
  // The element at a full multi-index (negative indices allowed).
  Scalar at(std::span<const int64_t> index) const;
  Scalar at(std::initializer_list<int64_t> index) const { return at(std::span(index.begin(), index.size())); }
  // The element at storage element offset `elementOffset` (no bounds check beyond the storage).
  Scalar loadElement(int64_t elementOffset) const;

  // --- initialisation tracking (see Storage) ---
  void markWritten() const;
  bool isInitialised() const;
  // Calls fn(storageElementOffset) for every element in row-major order of this view.
  template <class Fn>
  void forEachElementOffset(Fn&& fn) const;

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::FP32;
  Shape shape_;
  Shape strides_;
  int64_t offset_ = 0;
  Device device_;
};

template <class Fn>
void Tensor::forEachElementOffset(Fn&& fn) const {
  const int64_t n = numel();
  if (n == 0) return;
  const size_t nd = shape_.size();
  std::vector<int64_t> index(nd, 0);
  int64_t offset = offset_;
  for (int64_t i = 0; i < n; ++i) {
    fn(offset);
    for (size_t d = nd; d-- > 0;) {
      if (++index[d] < shape_[d]) {
        offset += strides_[d];
        break;
      }
      offset -= strides_[d] * (shape_[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace tilescope::host
