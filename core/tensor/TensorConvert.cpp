#include "core/tensor/TensorConvert.h"

#include <cstring>

#include "core/tensor/DTypeDispatch.h"
#include "core/tensor/StridedLoop.h"

namespace tilescope::host {

namespace {

template <class To, class From>
void convertLoop(const Tensor& dst, const Tensor& src) {
  const StridedLoop<2> loop(dst.shape(), {broadcastByteStrides(dst, dst.shape()), broadcastByteStrides(src, dst.shape())});
  loop.run({reinterpret_cast<char*>(dst.rawData()), reinterpret_cast<char*>(src.rawData())},
           [](std::array<char*, 2> p, const std::array<int64_t, 2>& s, int64_t n) {
             if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
               if constexpr (std::is_same_v<To, From>) {
                 std::memcpy(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
               } else {
                 To* out = reinterpret_cast<To*>(p[0]);
                 const From* in = reinterpret_cast<const From*>(p[1]);
                 for (int64_t i = 0; i < n; ++i) out[i] = convertValue<To>(in[i]);
               }
               return;
             }
             if (s[1] == 0) {  // broadcast source: convert once
               const To v = convertValue<To>(*reinterpret_cast<const From*>(p[1]));
               for (int64_t i = 0; i < n; ++i) *reinterpret_cast<To*>(p[0] + i * s[0]) = v;
               return;
             }
             for (int64_t i = 0; i < n; ++i) {
               *reinterpret_cast<To*>(p[0] + i * s[0]) =
                   convertValue<To>(*reinterpret_cast<const From*>(p[1] + i * s[1]));
             }
           });
}

// Whether writing dst could change src's bytes before they are read.
bool mayOverlap(const Tensor& a, const Tensor& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  auto extent = [](const Tensor& t) {
    int64_t lo = t.storageOffset(), hi = t.storageOffset();
    for (int64_t d = 0; d < t.dim(); ++d) {
      const int64_t span = (t.shape()[d] - 1) * t.strides()[d];
      if (span < 0) lo += span; else hi += span;
    }
    return std::pair{lo * t.elementSize(), (hi + 1) * t.elementSize()};
  };
  const auto [alo, ahi] = extent(a);
  const auto [blo, bhi] = extent(b);
  return alo < bhi && blo < ahi;
}

}  // namespace

void markTensorWritten(const Tensor& t) {
  Storage& storage = *t.storage();
  if (storage.fullyInitialised() || t.numel() == 0) return;
  const int64_t es = t.elementSize();
  if (t.isContiguous()) {
    storage.markWritten(static_cast<size_t>(t.storageOffset() * es), static_cast<size_t>(t.numel() * es));
    return;
  }
  t.forEachElementOffset([&](int64_t off) { storage.markWritten(static_cast<size_t>(off * es), static_cast<size_t>(es)); });
}

void copyInto(const Tensor& dst, const Tensor& srcIn) {
  Tensor src = srcIn;
  while (src.dim() > dst.dim() && src.shape()[0] == 1) src = src.squeeze(0);
  src = src.expand(dst.shape());
  if (mayOverlap(dst, src)) src = src.clone();
  dispatchStorageDType(dst.dtype(), [&](auto toTag) {
    using To = typename decltype(toTag)::type;
    dispatchStorageDType(src.dtype(), [&](auto fromTag) {
      using From = typename decltype(fromTag)::type;
      convertLoop<To, From>(dst, src);
    });
  });
  markTensorWritten(dst);
}

void fillInto(const Tensor& dst, const Scalar& value) {
  dispatchStorageDType(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if (value.isFloat()) v = convertValue<T>(value.toDouble());
    else if (value.isInt()) v = convertValue<T>(value.toInt());
    else v = convertValue<T>(value.toBool());
    const StridedLoop<1> loop(dst.shape(), {broadcastByteStrides(dst, dst.shape())});
    loop.run({reinterpret_cast<char*>(dst.rawData())}, [&](std::array<char*, 1> p, const std::array<int64_t, 1>& s, int64_t n) {
      if (s[0] == sizeof(T)) {
        T* out = reinterpret_cast<T*>(p[0]);
        for (int64_t i = 0; i < n; ++i) out[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
      }
    });
  });
  markTensorWritten(dst);
}

Tensor convertTo(const Tensor& src, DType dtype, const Device& device) {
  // A copy of never-written elements is still never-written: the simulator must keep warning about them.
  const bool srcComplete = src.storage()->fullyInitialised();
  Tensor out = Tensor::allocate(src.shape(), dtype, device, /*initialised=*/srcComplete);
  dispatchStorageDType(dtype, [&](auto toTag) {
    using To = typename decltype(toTag)::type;
    dispatchStorageDType(src.dtype(), [&](auto fromTag) {
      using From = typename decltype(fromTag)::type;
      convertLoop<To, From>(out, src);
    });
  });
  if (!srcComplete) {
    const Storage& from = *src.storage();
    Storage& to = *out.storage();
    const auto srcSize = static_cast<size_t>(src.elementSize());
    const auto dstSize = static_cast<size_t>(out.elementSize());
    size_t i = 0;
    src.forEachElementOffset([&](int64_t off) {
      if (from.isInitialised(static_cast<size_t>(off) * srcSize, srcSize)) to.markWritten(i * dstSize, dstSize);
      ++i;
    });
  }
  return out;
}

}  // namespace tilescope::host
