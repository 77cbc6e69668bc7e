// Programs per SM from a kernel's resources (core/compiled/Occupancy), by the occupancy calculator's rules.
#include <gtest/gtest.h>

#include "core/compiled/Occupancy.h"

using namespace tilescope::compiled;

TEST(Occupancy, TheTightestLimitWinsAndIsNamed) {
  const SmLimits h100 = smLimitsFor("sm_90a");
  EXPECT_EQ(h100.computeCapability, 90);
  // 32 registers, 128 threads: 16 blocks fit by registers and by warps (64 / 4); warps come first.
  Occupancy light = occupancyFor(h100, 128, 32, 0);
  EXPECT_EQ(light.blocksPerSm, 16);
  EXPECT_EQ(light.warpsPerSm, 64);
  EXPECT_EQ(light.limitedBy, "warps");
  // 255 registers round up to 8192 per warp: 65536 / (8192 * 4) = 2 blocks.
  Occupancy heavy = occupancyFor(h100, 128, 255, 0);
  EXPECT_EQ(heavy.blocksPerSm, 2);
  EXPECT_EQ(heavy.limitedBy, "registers");
  EXPECT_EQ(heavy.str(), "2 programs (8 of 64 warps, 13%) per SM, limited by registers");
  // 100 KiB of shared memory (plus 1 KiB reserved) per block: 2 of 228 KiB.
  Occupancy shared = occupancyFor(h100, 128, 32, 100 * 1024);
  EXPECT_EQ(shared.blocksPerSm, 2);
  EXPECT_EQ(shared.limitedBy, "shared memory");
  // An Ada SM has 48 warp slots: 8 warps per block -> 6 blocks.
  Occupancy ada = occupancyFor(smLimitsFor("sm_89"), 256, 32, 0);
  EXPECT_EQ(ada.blocksPerSm, 6);
  EXPECT_EQ(ada.limitedBy, "warps");
}
