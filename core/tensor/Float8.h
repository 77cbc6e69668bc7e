#pragma once
// fp8 storage types of host tensors, torch.float8_e4m3fn and torch.float8_e5m2: one byte each,
// converted like c10::Float8_e4m3fn / c10::Float8_e5m2 (from a float, round to nearest even; e4m3fn
// overflow is NaN, e5m2 overflow is Inf). The bit-level rounding is core/ir/Numerics', which the
// simulator's fp8 loads and stores use too.
#include <cstdint>

#include "core/ir/DType.h"
#include "core/ir/Numerics.h"

namespace tilescope::host {

template <ir::DType Format>
struct Float8 {
  static_assert(Format == ir::DType::FP8E4NV || Format == ir::DType::FP8E5);
  uint8_t bits = 0;

  static constexpr Float8 fromBits(uint8_t b) {
    Float8 v;
    v.bits = b;
    return v;
  }

  static Float8 fromFloat(float f) { return fromBits(sim::floatToTorchFp8Bits(Format, f)); }

  // Every fp8 value is exact in a float.
  float toFloat() const { return static_cast<float>(sim::bitsToFloat(Format, bits)); }
};

using Float8E4M3Fn = Float8<ir::DType::FP8E4NV>;
using Float8E5M2 = Float8<ir::DType::FP8E5>;

}  // namespace tilescope::host
