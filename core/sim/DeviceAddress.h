#pragma once
// Simulated device addresses. A pointer value in a tile is one int64 that packs the tensor it was
// derived from and a byte offset into that tensor:
//
//   address = tensorId * 2^40 + byteOffset
//
// so pointer arithmetic is integer addition (p + k adds k * sizeof(pointee)), pointer casts
// between element types keep the address, and every access can be bounds-checked against its own
// tensor. Offsets in [-2^39, 2^39) decode back to the same tensor, so a pointer that strayed a
// little before or after its tensor is still reported against that tensor. Tensor ids start at 1:
// address 0 is the null pointer and belongs to no tensor.
#include <algorithm>
#include <cstdint>

#include "core/ir/DType.h"

namespace tilescope::sim {

struct DeviceAddress {
  static constexpr int kOffsetBits = 40;
  static constexpr int64_t kSpan = int64_t{1} << kOffsetBits;
  static constexpr int64_t kMaxTensorBytes = int64_t{1} << (kOffsetBits - 1);

  static constexpr int64_t make(int tensorId, int64_t byteOffset) {
    return static_cast<int64_t>(tensorId) * kSpan + byteOffset;
  }
  // The tensor whose window [base - 2^39, base + 2^39) contains the address (0 or negative: none).
  static constexpr int tensorId(int64_t address) {
    return static_cast<int>((address + kMaxTensorBytes) >> kOffsetBits);
  }
  static constexpr int64_t byteOffset(int64_t address) {
    return address - static_cast<int64_t>(tensorId(address)) * kSpan;
  }
};

// Bytes of one element in memory (i1 takes a byte, like Triton); the unit of pointer arithmetic.
inline int elementBytes(ir::DType t) { return t == ir::DType::I1 ? 1 : std::max(1, ir::bitWidth(t) / 8); }

}  // namespace tilescope::sim
