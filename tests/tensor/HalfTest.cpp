// float16 / bfloat16 storage conversions: round to nearest even, subnormals, overflow, NaN.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/tensor/BFloat16.h"
#include "core/tensor/Half.h"
#include "core/ir/Numerics.h"

namespace tilescope::host {
namespace {

struct HalfCase {
  float in;
  uint16_t bits;
};

TEST(Half, RoundsToNearestEven) {
  const HalfCase cases[] = {
      {1.0f, 0x3c00},
      {-2.0f, 0xc000},
      {0.0f, 0x0000},
      {-0.0f, 0x8000},
      {1.0f + 0x1p-11f, 0x3c00},        // tie -> even (down)
      {1.0f + 3 * 0x1p-11f, 0x3c02},    // tie -> even (up)
      {1.0f + 0x1p-11f + 0x1p-20f, 0x3c01},  // above the tie -> up
      {65504.0f, 0x7bff},               // largest finite
      {65519.99f, 0x7bff},              // just below the rounding boundary
      {65520.0f, 0x7c00},               // rounds to inf
      {0x1p-24f, 0x0001},               // smallest subnormal
      {0x1p-25f, 0x0000},               // tie -> even zero
      {3 * 0x1p-25f, 0x0002},           // tie -> even (up)
      {0x1p-14f, 0x0400},               // smallest normal
      {std::numeric_limits<float>::infinity(), 0x7c00},
  };
  for (const HalfCase& c : cases) {
    EXPECT_EQ(Half::fromFloat(c.in).bits, c.bits) << c.in;
    if ((c.bits & 0x7c00) != 0x7c00) {
      // Round trip of representable values is exact.
      EXPECT_EQ(Half::fromFloat(Half::fromBits(c.bits).toFloat()).bits, c.bits);
    }
  }
  EXPECT_TRUE(std::isnan(Half::fromFloat(std::nanf("")).toFloat()));
  EXPECT_EQ(Half::fromBits(0x0001).toFloat(), 0x1p-24f);
  EXPECT_EQ(Half::fromBits(0xfbff).toFloat(), -65504.0f);
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(BFloat16::fromFloat(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16::fromFloat(std::bit_cast<float>(0x3f808000u)).bits, 0x3f80);  // tie -> even
  EXPECT_EQ(BFloat16::fromFloat(std::bit_cast<float>(0x3f818000u)).bits, 0x3f82);  // tie -> even (up)
  EXPECT_EQ(BFloat16::fromFloat(std::bit_cast<float>(0x3f808001u)).bits, 0x3f81);
  EXPECT_EQ(BFloat16::fromFloat(std::nanf("")).bits, 0x7fc0);
  EXPECT_EQ(BFloat16::fromBits(0x4049).toFloat(), 3.140625f);
}

// Our torch-side conversions and the simulator's must agree on every finite value (they differ only
// in the NaN payload: torch's CPU keeps 0x7e00 / 0x7fc0, the GPU produces 0x7fff).
TEST(Half, AgreesWithSimulatorNumericsOnFiniteValues) {
  uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    const float f = std::bit_cast<float>(state);
    if (!std::isfinite(f)) continue;
    ASSERT_EQ(Half::fromFloat(f).bits, sim::doubleToHalfBits(f)) << f;
    ASSERT_EQ(BFloat16::fromFloat(f).bits, sim::doubleToBf16Bits(f)) << f;
  }
}

}  // namespace
}  // namespace tilescope::host
