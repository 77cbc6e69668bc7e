// The program grid coloured by GPU program timing (core/viz/TimingColors) on a synthetic timing
// table (no GPU needed): by duration and by SM, the legend, programs without timing, and records
// outside the grid ignored.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/viz/Palette.h"
#include "core/viz/TimingColors.h"

namespace tilescope::viz {
namespace {

// A 2x2 launch: programs (0,0) and (0,1) on SM 0, (1,0) and (1,1) on SM 7; 1, 2, 3 and 5 us long.
gpu::LaunchTiming table() {
  gpu::LaunchTiming t;
  t.kernel = "matmul";
  t.launch = 1;
  t.grid[0] = 2;
  t.grid[1] = 2;
  t.programs = {{{0, 0, 0}, 0, 0, 1000}, {{1, 0, 0}, 7, 0, 2000}, {{0, 1, 0}, 0, 1000, 4000}, {{1, 1, 0}, 7, 2000, 7000}};
  return t;
}

int64_t linear(int64_t x, int64_t y) { return x + 2 * y; }

TEST(TimingColors, ByDurationRampsFromTheShortestToTheLongestProgram) {
  const ProgramColors pc = timingColors(table(), TimingColoring::Duration);
  ASSERT_EQ(pc.byLinearId.size(), 4u);
  EXPECT_EQ(pc.byLinearId[linear(0, 0)], palette::ramp(0));     // 1 us
  EXPECT_EQ(pc.byLinearId[linear(1, 0)], palette::ramp(0.25));  // 2 us
  EXPECT_EQ(pc.byLinearId[linear(0, 1)], palette::ramp(0.5));   // 3 us
  EXPECT_EQ(pc.byLinearId[linear(1, 1)], palette::ramp(1));     // 5 us
  EXPECT_EQ(pc.legend, "colour by duration on the GPU: dark 1.00 us to yellow 5.00 us");
  std::vector<std::string> labels;
  for (const LegendSwatch& s : timingLegend(table(), TimingColoring::Duration)) labels.push_back(s.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1.00 us", "2.00 us", "3.00 us", "4.00 us", "5.00 us"}));
}

TEST(TimingColors, BySmGivesEachSmItsOwnColour) {
  const ProgramColors pc = timingColors(table(), TimingColoring::Sm);
  EXPECT_EQ(pc.byLinearId[linear(0, 0)], pc.byLinearId[linear(0, 1)]);
  EXPECT_EQ(pc.byLinearId[linear(1, 0)], pc.byLinearId[linear(1, 1)]);
  EXPECT_NE(pc.byLinearId[linear(0, 0)], pc.byLinearId[linear(1, 0)]);
  EXPECT_EQ(pc.byLinearId[linear(1, 0)], palette::categorical(7));
  EXPECT_EQ(pc.legend, "colour by the SM each program ran on (2 SMs)");
  const std::vector<LegendSwatch> legend = timingLegend(table(), TimingColoring::Sm);
  ASSERT_EQ(legend.size(), 2u);
  EXPECT_EQ(legend[0].label, "SM 0 (2)");
  EXPECT_EQ(legend[1].label, "SM 7 (2)");
  EXPECT_EQ(legend[1].color, palette::categorical(7));
}

TEST(TimingColors, ProgramsWithoutTimingStayGreyAndTheLegendSaysSo) {
  gpu::LaunchTiming t = table();
  t.programs.pop_back();
  const ProgramColors pc = timingColors(t, TimingColoring::Duration);
  EXPECT_EQ(pc.byLinearId[linear(1, 1)], palette::kUntraced);
  EXPECT_EQ(pc.traced, (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_NE(pc.legend.find("grey: no timing"), std::string::npos);
}

TEST(TimingColors, SceneDrawsTheGridAndTheLegendSwatches) {
  const Scene s = timingGridScene(table(), TimingColoring::Sm, {});
  const auto texts = s.texts();
  EXPECT_EQ(texts.front(), "matmul  grid (2, 2, 1)  GPU launch 1, 4 programs timed");
  EXPECT_NE(std::find(texts.begin(), texts.end(), "SM 7 (2)"), texts.end());
  int sm7 = 0;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i)) sm7 += r->fill == palette::categorical(7);
  EXPECT_EQ(sm7, 3);  // two programs and the legend's swatch
  EXPECT_EQ(programTimingText(table(), {1, 1, 0}), "SM 7, 5.00 us (2.00 us to 7.00 us)");
  EXPECT_EQ(programTimingText(table(), {3, 0, 0}), "");
}

TEST(TimingColors, ProgramsOutsideTheGridAreIgnoredNotWrittenPastTheEnd) {
  gpu::LaunchTiming t = table();
  // A malformed record: pid_0 3 of a 2-wide grid, whose linear id 3 is program (1, 1)'s.
  t.programs.push_back({{3, 0, 0}, 1, 0, 100});
  const ProgramColors pc = timingColors(t, TimingColoring::Sm);
  ASSERT_EQ(pc.byLinearId.size(), 4u);
  EXPECT_EQ(pc.byLinearId[linear(1, 1)], palette::categorical(7));
}

}  // namespace
}  // namespace tilescope::viz
