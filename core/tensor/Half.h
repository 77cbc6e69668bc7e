#pragma once
// IEEE binary16 storage type. Conversions round to nearest even, like c10::Half (and the GPU), so a
// value stored into a float16 tensor is bit-identical to what torch stores.
#include <bit>
#include <cstdint>

namespace tilescope::host {

struct Half {
  uint16_t bits = 0;

  static constexpr Half fromBits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }

  static Half fromFloat(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {  // inf or NaN; NaN stays a quiet NaN
      return fromBits(static_cast<uint16_t>(sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u)));
    }
    if (absx >= 0x477ff000u) return fromBits(static_cast<uint16_t>(sign | 0x7c00u));  // rounds to inf
    if (absx < 0x38800000u) {
      // Result is subnormal (or zero): add 0.5 so that the FPU's own round-to-nearest-even of the
      // addition does the rounding at the half-subnormal quantum (2^-24).
      const float shifted = std::bit_cast<float>(absx) + 0.5f;
      return fromBits(static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u)));
    }
    // Normal: rebias exponent (127 -> 15) and round the 13 dropped mantissa bits to nearest even.
    const uint32_t mantOdd = (absx >> 13) & 1u;
    const uint32_t rounded = absx + 0xc8000fffu + mantOdd;  // 0xc8000000 = -(112 << 23) rebias
    return fromBits(static_cast<uint16_t>(sign | (rounded >> 13)));
  }

  float toFloat() const {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exp = (bits >> 10) & 0x1fu;
    const uint32_t mant = bits & 0x3ffu;
    if (exp == 0) {
      // Zero or subnormal: value = mant * 2^-24, exact in float.
      const float v = static_cast<float>(mant) * 5.9604644775390625e-08f;
      return sign ? -v : v;
    }
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};

}  // namespace tilescope::host
