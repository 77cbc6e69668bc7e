// The SM timeline: a --program-timing file as the runtime writes it (core/gpu/runtime/ProgramTiming's line
// writer, fed the 3 words per program the GPU stores), read back by the real reader and laid out.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/viz/TimelineScene.h"

namespace tilescope::viz {
namespace {

// 6 programs of a 3x2 grid on SMs 4 and 9, stamped with %globaltimer values far from zero.
// SM 4 runs programs 0 and 2 together, then 4; SM 9 runs 1, then 3 and 5 together.
std::vector<uint64_t> deviceWords() {
  const uint64_t t0 = 1'700'000'000'000;
  //                    start        end          sm
  return {t0 + 0,    t0 + 4000,  4,   // pid 0
          t0 + 100,  t0 + 2100,  9,   // pid 1
          t0 + 50,   t0 + 3050,  4,   // pid 2
          t0 + 2100, t0 + 5000,  9,   // pid 3
          t0 + 4000, t0 + 6000,  4,   // pid 4 (starts as pid 0 ends: same lane)
          t0 + 2500, t0 + 4500,  9};  // pid 5
}

gpu::LaunchTiming readBack(const std::string& file) {
  std::istringstream in(file);
  const auto launches = gpu::readProgramTiming(in, "timing.jsonl");
  EXPECT_EQ(launches.size(), 2u);
  return launches.at(1);
}

std::string timingFile() {
  const int64_t grid[3] = {3, 2, 1};
  const int64_t small[3] = {1, 1, 1};
  return gpu::programTimingLine("warmup", 1, small, {10, 20, 0}) + "\n" + gpu::programTimingLine("add_kernel", 2, grid, deviceWords()) + "\n";
}

TEST(ProgramTiming, ReadsBackWhatTheRuntimeWrites) {
  const gpu::LaunchTiming launch = readBack(timingFile());
  EXPECT_EQ(launch.kernel, "add_kernel");
  EXPECT_EQ(launch.launch, 2);
  EXPECT_EQ(launch.grid[0], 3);
  EXPECT_EQ(launch.grid[1], 2);
  ASSERT_EQ(launch.programs.size(), 6u);
  // Linear id 4 is pid (1, 1, 0); times from the first start.
  EXPECT_EQ(launch.programs[4].pid[0], 1);
  EXPECT_EQ(launch.programs[4].pid[1], 1);
  EXPECT_EQ(launch.programs[4].sm, 4);
  EXPECT_EQ(launch.programs[4].startNs, 4000u);
  EXPECT_EQ(launch.programs[4].endNs, 6000u);
  EXPECT_EQ(launch.spanNs(), 6000u);
  EXPECT_EQ(launch.smCount(), 2);
}

TEST(ProgramTiming, BadLinesNameFileAndLine) {
  std::istringstream in(gpu::programTimingLine("k", 1, std::array<int64_t, 3>{1, 1, 1}.data(), {0, 5, 1}) +
                        "\n{\"kernel\": \"k\", \"programs\": [[0, 0, 0, 1, 9, 3]]}\n");
  try {
    gpu::readProgramTiming(in, "t.jsonl");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("t.jsonl:2: program 1 ends before it starts", 0), 0u) << e.what();
  }
  std::istringstream notJson("[1, 2\n");
  EXPECT_THROW(gpu::readProgramTiming(notJson, "t.jsonl"), std::runtime_error);
  EXPECT_THROW(gpu::readProgramTimingFile("/nonexistent/timing.jsonl"), std::runtime_error);
}

TEST(TimelineScene, OneRowPerSmAndLanesForProgramsThatRanTogether) {
  const TimelineLayout layout = timelineLayout(readBack(timingFile()));
  EXPECT_EQ(layout.sms, (std::vector<int64_t>{4, 9}));
  EXPECT_EQ(layout.lanes, (std::vector<size_t>{2, 2}));
  ASSERT_EQ(layout.bars.size(), 6u);
  auto at = [&](size_t p) { return std::make_pair(layout.bars[p].row, layout.bars[p].lane); };
  EXPECT_EQ(at(0), std::make_pair(size_t{0}, size_t{0}));
  EXPECT_EQ(at(2), std::make_pair(size_t{0}, size_t{1}));
  EXPECT_EQ(at(4), std::make_pair(size_t{0}, size_t{0}));  // pid 0's lane is free when 4 starts
  EXPECT_EQ(at(1), std::make_pair(size_t{1}, size_t{0}));
  EXPECT_EQ(at(3), std::make_pair(size_t{1}, size_t{0}));  // starts when pid 1 ends
  EXPECT_EQ(at(5), std::make_pair(size_t{1}, size_t{1}));
}

TEST(TimelineScene, BarsSpanEachProgramsTimeAtTheGivenScale) {
  const gpu::LaunchTiming launch = readBack(timingFile());
  TimelineOptions options;
  options.plotWidth = 600;  // 6000 ns: 0.1 px per ns
  options.selectedProgram = 3;
  const Scene scene = timelineScene(launch, options);
  std::vector<SceneRect> bars;
  for (const SceneItem& item : scene.items())
    if (const auto* r = std::get_if<SceneRect>(&item)) bars.push_back(*r);
  ASSERT_EQ(bars.size(), 6u);
  // Bars in program order; program 4 runs 4000..6000 ns.
  EXPECT_DOUBLE_EQ(bars[4].w, 200);
  EXPECT_DOUBLE_EQ(bars[4].x - bars[0].x, 400);
  EXPECT_DOUBLE_EQ(bars[0].y, bars[4].y);
  EXPECT_GT(bars[2].y, bars[0].y);   // second lane of SM 4
  EXPECT_GT(bars[1].y, bars[2].y);   // SM 9 below SM 4
  EXPECT_EQ(bars[3].stroke, (Color{0, 0, 0, 255}));
  EXPECT_DOUBLE_EQ(bars[3].strokeWidth, 2);
  const auto texts = scene.texts();
  EXPECT_EQ(texts[0], "add_kernel, launch 2: 6 programs on 2 SMs in 6 us");
  EXPECT_NE(std::find(texts.begin(), texts.end(), "SM 9"), texts.end());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "6"), texts.end());  // the last time tick, in us
}

TEST(TimelineScene, ColouringByDurationRampsFromShortestToLongest) {
  TimelineOptions options;
  options.coloring = TimelineColoring::Duration;
  const Scene scene = timelineScene(readBack(timingFile()), options);
  std::vector<SceneRect> bars;
  for (const SceneItem& item : scene.items())
    if (const auto* r = std::get_if<SceneRect>(&item)) bars.push_back(*r);
  ASSERT_EQ(bars.size(), 6u);
  EXPECT_NE(bars[0].fill, bars[1].fill);  // 4000 ns vs 2000 ns
  EXPECT_EQ(bars[1].fill, bars[4].fill);  // both 2000 ns
}

}  // namespace
}  // namespace tilescope::viz
