// Per-program tile extraction (core/viz/ProgramTiles), the grid layout (core/viz/GridLayout) and the
// per-program statistics (core/viz/ProgramStats) on real traces of the practitioners' guide's copy_k.
#include <gtest/gtest.h>

#include "core/viz/GridLayout.h"
#include "core/viz/ProgramStats.h"
#include "core/viz/ProgramTiles.h"
#include "tests/viz/SeedTraces.h"

namespace tilescope::viz {
namespace {

class CopyTraces : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto lines = testing::seedLines(testing::kGuide);
    if (lines) traces_ = new std::vector<sim::LaunchTrace>(testing::copyTraces(*lines));
  }
  static void TearDownTestSuite() {
    delete traces_;
    traces_ = nullptr;
  }
  void SetUp() override {
    if (!traces_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    ASSERT_EQ(traces_->size(), 3u) << "the guide launches copy_k three times";
  }
  static const sim::LaunchTrace& trace(int version) { return (*traces_)[version - 1]; }
  static std::vector<sim::LaunchTrace>* traces_;
};
std::vector<sim::LaunchTrace>* CopyTraces::traces_ = nullptr;

TEST_F(CopyTraces, ProgramTwoOfTheFixedKernelShowsItsOffsetsMaskAndValues) {
  const sim::LaunchTrace& t = trace(3);
  EXPECT_EQ(t.kernelName, "copy_k");
  const sim::ProgramTrace* p = t.findProgram({2, 0, 0});
  ASSERT_NE(p, nullptr);
  const std::vector<MemoryOp> ops = memoryOps(t, *p);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, sim::MemOpKind::Load);
  EXPECT_EQ(ops[0].argName, "x_ptr");
  EXPECT_EQ(ops[0].offsets, (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(ops[0].mask, (std::vector<bool>{true, true}));
  EXPECT_EQ(formatOffsets(ops[0]), "[4 5]");
  EXPECT_EQ(formatMask(ops[0]), "[True True]");
  EXPECT_EQ(formatValues(ops[0]), "[5 6]");
  EXPECT_EQ(ops[0].rows, 1);
  EXPECT_EQ(ops[0].cols, 2);
  EXPECT_EQ(ops[1].kind, sim::MemOpKind::Store);
  EXPECT_EQ(ops[1].argName, "z_ptr");
  EXPECT_EQ(ops[1].tensorShape, (std::vector<int64_t>{6}));
  EXPECT_NE(ops[1].title().find("store z_ptr (seed.ipynb:"), std::string::npos) << ops[1].title();
}

TEST_F(CopyTraces, TilesOfEveryProgramOfEachVersion) {
  struct Case {
    int version;
    int64_t pid;
    const char* offsets;
    const char* mask;
  };
  const Case cases[] = {
      {1, 0, "[0 1]", "[True True]"},   {1, 2, "[0 1]", "[True True]"},  // offsets ignore the pid
      {2, 1, "[6 7]", "[False False]"}, {2, 2, "[12 13]", "[False False]"},  // pid * n: past the end
      {3, 0, "[0 1]", "[True True]"},   {3, 1, "[2 3]", "[True True]"},
  };
  for (const Case& c : cases) {
    const sim::ProgramTrace* p = trace(c.version).findProgram({c.pid, 0, 0});
    ASSERT_NE(p, nullptr);
    const auto ops = memoryOps(trace(c.version), *p);
    ASSERT_FALSE(ops.empty());
    EXPECT_EQ(formatOffsets(ops[0]), c.offsets) << "version " << c.version << " pid " << c.pid;
    EXPECT_EQ(formatMask(ops[0]), c.mask) << "version " << c.version << " pid " << c.pid;
  }
}

TEST_F(CopyTraces, NamedTilesListEachVariableOnce) {
  const sim::ProgramTrace* p = trace(3).findProgram({1, 0, 0});
  ASSERT_NE(p, nullptr);
  std::vector<std::string> names;
  for (const NamedTile& n : namedTiles(trace(3), *p)) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"pid", "offs", "mask", "x"}));
}

TEST_F(CopyTraces, StatsCountMaskedLanesAndBytes) {
  const auto stats = programStats(trace(2));
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].maskedLanes, 0);
  EXPECT_EQ(stats[0].bytesMoved, 2 * 2 * 8);  // 2 lanes of int64 loaded and stored
  EXPECT_EQ(stats[0].storedElement, 0);
  EXPECT_EQ(stats[1].maskedLanes, 4);
  EXPECT_EQ(stats[1].bytesMoved, 0);
  EXPECT_EQ(stats[1].storedElement, -1);
  EXPECT_EQ(programStats(trace(3))[2].storedElement, 4);
}

TEST_F(CopyTraces, GridLayoutRoundTripsEveryTracedProgram) {
  const sim::LaunchTrace& t = trace(3);
  const GridLayout layout(sim::Grid{t.grid[0], t.grid[1], t.grid[2]}, 2);
  EXPECT_EQ(layout.dimensions(), 1);
  EXPECT_EQ(layout.columns(), 2);
  EXPECT_EQ(layout.rows(), 2);
  for (const sim::ProgramTrace& p : t.programs) EXPECT_EQ(layout.pidAt(layout.cellOf(p.pid)), p.pid);
  EXPECT_EQ(layout.pidAt({1, 1, 0}), std::nullopt);  // the strip's empty tail
}

TEST(GridLayout, CellsOfOneTwoAndThreeDimensionalGrids) {
  struct Case {
    sim::Grid grid;
    int64_t wrap;
    Pid pid;
    GridCell cell;
    int64_t columns, rows;
  };
  const Case cases[] = {
      {{70, 1, 1}, 32, {69, 0, 0}, {5, 2, 0}, 32, 3},
      {{5, 4, 1}, 32, {3, 2, 0}, {2, 3, 0}, 4, 5},  // pid_0 down, pid_1 across
      {{2, 3, 4}, 32, {1, 2, 3}, {2, 1, 3}, 3, 2},
      {{1, 1, 1}, 32, {0, 0, 0}, {0, 0, 0}, 1, 1},
  };
  for (const Case& c : cases) {
    const GridLayout l(c.grid, c.wrap);
    EXPECT_EQ(l.columns(), c.columns);
    EXPECT_EQ(l.rows(), c.rows);
    EXPECT_EQ(l.cellOf(c.pid), c.cell);
    EXPECT_EQ(l.pidAt(c.cell), c.pid);
  }
  EXPECT_EQ(GridLayout({5, 4, 1}).pidAt({4, 0, 0}), std::nullopt);
}

TEST(ProgramTilesFormat, TwoDimensionalTilesAlignLikeNumpy) {
  EXPECT_EQ(formatTile({"0", "1", "10", "11"}, {2, 2}), "[[ 0  1]\n [10 11]]");
  EXPECT_EQ(formatTile({"7"}, {}), "7");
  EXPECT_EQ(formatTile({"True", "False"}, {2}), "[ True False]");
  EXPECT_EQ(view2d({2, 3, 4}), (std::pair<int64_t, int64_t>{6, 4}));
}

}  // namespace
}  // namespace tilescope::viz
