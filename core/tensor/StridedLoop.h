#pragma once
// Internal: the loop skeleton behind every elementwise kernel. N operands share one (broadcast) shape and
// each has its own byte strides (0 along broadcast dimensions). Dimensions of size 1 are dropped and
// adjacent dimensions that are contiguous for every operand are merged, so a contiguous operation becomes
// a single inner run that the kernel's body can process with a tight, vectorisable loop.
#include <array>
#include <cstdint>
#include <vector>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// Byte strides of `t` seen through broadcasting to `outShape` (caller has checked compatibility).
inline std::vector<int64_t> broadcastByteStrides(const Tensor& t, const Shape& outShape) {
  std::vector<int64_t> out(outShape.size(), 0);
  const int64_t offset = static_cast<int64_t>(outShape.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.shape()[d] != 1) out[offset + d] = t.strides()[d] * t.elementSize();
  }
  return out;
}

template <size_t N>
class StridedLoop {
 public:
  StridedLoop(const Shape& shape, const std::array<std::vector<int64_t>, N>& byteStrides) {
    numel_ = 1;
    for (int64_t s : shape) numel_ *= s;
    // Keep non-trivial dims, innermost last.
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      sizes_.push_back(shape[d]);
      for (size_t k = 0; k < N; ++k) strides_[k].push_back(byteStrides[k][d]);
    }
    // Merge dim d into d+1 when, for every operand, stepping d equals a full sweep of d+1.
    for (size_t d = sizes_.size(); d-- > 1;) {
      bool mergeable = true;
      for (size_t k = 0; k < N; ++k) {
        if (strides_[k][d - 1] != strides_[k][d] * sizes_[d]) mergeable = false;
      }
      if (!mergeable) continue;
      sizes_[d - 1] *= sizes_[d];
      for (size_t k = 0; k < N; ++k) strides_[k][d - 1] = strides_[k][d];
      sizes_.erase(sizes_.begin() + static_cast<std::ptrdiff_t>(d));
      for (size_t k = 0; k < N; ++k) strides_[k].erase(strides_[k].begin() + static_cast<std::ptrdiff_t>(d));
    }
  }

  int64_t numel() const { return numel_; }

  // body(std::array<char*, N> ptrs, const std::array<int64_t, N>& innerByteStrides, int64_t count) is
  // called once per innermost run.
  template <class Body>
  void run(std::array<char*, N> base, Body&& body) const {
    if (numel_ == 0) return;
    std::array<int64_t, N> inner{};
    if (sizes_.empty()) {
      body(base, inner, int64_t{1});
      return;
    }
    const size_t nd = sizes_.size();
    for (size_t k = 0; k < N; ++k) inner[k] = strides_[k][nd - 1];
    const int64_t innerCount = sizes_[nd - 1];
    if (nd == 1) {
      body(base, inner, innerCount);
      return;
    }
    std::vector<int64_t> counter(nd - 1, 0);
    std::array<char*, N> ptrs = base;
    while (true) {
      body(ptrs, inner, innerCount);
      // Odometer increment over the outer dims, innermost outer dim first.
      size_t d = nd - 1;
      while (d-- > 0) {
        ++counter[d];
        for (size_t k = 0; k < N; ++k) ptrs[k] += strides_[k][d];
        if (counter[d] < sizes_[d]) break;
        for (size_t k = 0; k < N; ++k) ptrs[k] -= strides_[k][d] * sizes_[d];
        counter[d] = 0;
        if (d == 0) return;
      }
    }
  }

 private:
  int64_t numel_ = 0;
  std::vector<int64_t> sizes_;
  std::array<std::vector<int64_t>, N> strides_;
};

}  // namespace tilescope::host
