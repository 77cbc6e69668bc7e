#pragma once
// bfloat16 storage type: the top 16 bits of a float32, rounded to nearest even like c10::BFloat16.
#include <bit>
#include <cstdint>

namespace tilescope::host {

struct BFloat16 {
  uint16_t bits = 0;

  static constexpr BFloat16 fromBits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }

  static BFloat16 fromFloat(float f) {
    if (f != f) return fromBits(0x7fc0);  // canonical quiet NaN, as c10 does
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t roundingBias = 0x7fffu + ((x >> 16) & 1u);
    return fromBits(static_cast<uint16_t>((x + roundingBias) >> 16));
  }

  float toFloat() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }
};

}  // namespace tilescope::host
