// The views as Scenes (core/viz/*Scene) on real traces of the practitioners' guide's kernels: what
// each view draws, checked through its text and cells, and the SVG/PNG writers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/viz/CoverageScene.h"
#include "core/viz/GridScene.h"
#include "core/viz/Palette.h"
#include "core/viz/PngWriter.h"
#include "core/viz/SvgWriter.h"
#include "core/viz/SwizzleScene.h"
#include "core/viz/TilesScene.h"
#include "core/viz/VariablesScene.h"
#include "tests/viz/SeedTraces.h"

namespace tilescope::viz {
namespace {

bool contains(const std::vector<std::string>& texts, const std::string& t) {
  return std::find(texts.begin(), texts.end(), t) != texts.end();
}

bool anyStartsWith(const std::vector<std::string>& texts, const std::string& prefix) {
  return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; });
}

std::vector<SceneRect> rects(const Scene& s) {
  std::vector<SceneRect> out;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i)) out.push_back(*r);
  return out;
}

class SeedScenes : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto lines = testing::seedLines(testing::kGuide);
    if (lines) copies_ = new std::vector<sim::LaunchTrace>(testing::copyTraces(*lines));
  }
  static void TearDownTestSuite() {
    delete copies_;
    copies_ = nullptr;
  }
  void SetUp() override {
    if (!copies_) GTEST_SKIP() << "seed tutorial not found in " << TILESCOPE_SEEDS_DIR;
    ASSERT_EQ(copies_->size(), 3u);
  }
  static const sim::LaunchTrace& copy(int version) { return (*copies_)[version - 1]; }
  static std::vector<sim::LaunchTrace>* copies_;
};
std::vector<sim::LaunchTrace>* SeedScenes::copies_ = nullptr;

TEST_F(SeedScenes, TilesViewOfProgramTwoShowsOffsetsFourFiveAllActive) {
  std::string error;
  const Scene s = tilesScene(copy(3), {2, 0, 0}, 0, &error);
  ASSERT_EQ(error, "");
  const auto texts = s.texts();
  EXPECT_TRUE(anyStartsWith(texts, "copy_k  pid (2, 0, 0)  operation 1 of 2: load x_ptr")) << texts[0];
  EXPECT_TRUE(contains(texts, "lanes: 2 (2 active, 0 masked off)"));
  // Offsets 4 and 5, mask T T, values 5 and 6, in that order after the captions.
  const auto offsets = std::find(texts.begin(), texts.end(), "offsets");
  ASSERT_NE(offsets, texts.end());
  EXPECT_EQ(std::vector<std::string>(offsets + 1, offsets + 3), (std::vector<std::string>{"4", "5"}));
  const auto mask = std::find(texts.begin(), texts.end(), "mask");
  ASSERT_NE(mask, texts.end());
  EXPECT_EQ(std::vector<std::string>(mask + 1, mask + 3), (std::vector<std::string>{"T", "T"}));
  const auto values = std::find(texts.begin(), texts.end(), "values loaded");
  ASSERT_NE(values, texts.end());
  EXPECT_EQ(std::vector<std::string>(values + 1, values + 3), (std::vector<std::string>{"5", "6"}));
  // The tensor x (6 elements): elements 4 and 5 highlighted, none hatched.
  const auto r = rects(s);
  ASSERT_GE(r.size(), 6u);
  std::vector<bool> highlighted;
  for (size_t i = r.size() - 6; i < r.size(); ++i) highlighted.push_back(r[i].fill == palette::kHighlight);
  EXPECT_EQ(highlighted, (std::vector<bool>{false, false, false, false, true, true}));
}

TEST_F(SeedScenes, MaskedLanesAreHatchedNotDropped) {
  std::string error;
  const Scene s = tilesScene(copy(2), {1, 0, 0}, 0, &error);  // offsets 6, 7: both past the end of x
  ASSERT_EQ(error, "");
  const auto r = rects(s);
  // offsets tile (2 cells), mask tile (2 cells, both hatched), values (2, hatched), tensor (6).
  ASSERT_EQ(r.size(), 12u);
  EXPECT_FALSE(r[0].hatched);
  EXPECT_TRUE(r[2].hatched);
  EXPECT_TRUE(r[3].hatched);
  EXPECT_TRUE(contains(s.texts(), "2 lanes point outside the tensor (masked off)"));
}

TEST_F(SeedScenes, TilesViewExplainsMissingProgramsAndOps) {
  std::string error;
  EXPECT_TRUE(tilesScene(copy(3), {7, 0, 0}, 0, &error).items().empty());
  EXPECT_NE(error.find("program (7, 0, 0) is not in the trace"), std::string::npos) << error;
  tilesScene(copy(3), {0, 0, 0}, 5, &error);
  EXPECT_EQ(error, "program (0, 0, 0) made 2 memory operations; there is no operation 5");
}

TEST_F(SeedScenes, VariablesViewDrawsEachNamedTile) {
  EXPECT_EQ(bindingSteps(copy(3), {2, 0, 0}), 1);
  const auto texts = variablesScene(copy(3), {2, 0, 0}, 0).texts();
  const auto offs = std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.rfind("offs  i32 [2]  line ", 0) == 0; });
  ASSERT_NE(offs, texts.end()) << ::testing::PrintToString(texts);
  EXPECT_EQ(std::vector<std::string>(offs + 1, offs + 3), (std::vector<std::string>{"4", "5"}));
  const auto mask = std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.rfind("mask  i1 [2]", 0) == 0; });
  ASSERT_NE(mask, texts.end());
  EXPECT_EQ(std::vector<std::string>(mask + 1, mask + 3), (std::vector<std::string>{"T", "T"}));
  EXPECT_TRUE(contains(variablesScene(copy(3), {9, 0, 0}, 0).texts(), "program (9, 0, 0) is not in the trace"));
}

TEST_F(SeedScenes, CoverageViewHatchesTheNeverWrittenElements) {
  const Scene s = coverageScene(copy(1));
  const auto texts = s.texts();
  EXPECT_TRUE(contains(texts, "never written: z_ptr[2:6] (4 elements)")) << ::testing::PrintToString(texts);
  const auto r = rects(s);
  ASSERT_GE(r.size(), 6u);
  std::vector<bool> hatched;
  for (size_t i = r.size() - 6; i < r.size(); ++i) hatched.push_back(r[i].hatched);
  EXPECT_EQ(hatched, (std::vector<bool>{false, false, true, true, true, true}));
  // The fixed kernel covers everything: no hatched element, and the sentence says so in green.
  const Scene fixed = coverageScene(copy(3));
  EXPECT_TRUE(contains(fixed.texts(), "z_ptr (tensor 'z_ptr', shape [6]): all 6 elements written"))
      << ::testing::PrintToString(fixed.texts());
}

TEST_F(SeedScenes, GridViewColoursByOutputTileShowTheBug) {
  // In the first buggy copy every program stores at element 0: one colour for all three.
  const ProgramColors buggy = programColors(copy(1), GridColoring::OutputTile);
  EXPECT_EQ(buggy.byLinearId[0], buggy.byLinearId[1]);
  EXPECT_EQ(buggy.byLinearId[1], buggy.byLinearId[2]);
  const ProgramColors fixed = programColors(copy(3), GridColoring::OutputTile);
  EXPECT_NE(fixed.byLinearId[0], fixed.byLinearId[1]);
  // Masked colouring hatches programs 1 and 2 of the second buggy copy.
  const ProgramColors masked = programColors(copy(2), GridColoring::Masked);
  EXPECT_EQ(masked.hatched, (std::vector<uint8_t>{0, 1, 1}));
  GridViewOptions o;
  o.selected = Pid{2, 0, 0};
  const Scene s = gridScene(copy(3), o);
  EXPECT_TRUE(contains(s.texts(), "copy_k  grid (3, 1, 1)  3 of 3 programs traced"));
  // Hit testing agrees with the drawing: the centre of each cell is its program.
  const GridGeometry g = gridGeometry(copy(3), o);
  for (int64_t p = 0; p < 3; ++p)
    EXPECT_EQ(g.pidAt(g.left + (static_cast<double>(p) + 0.5) * g.cell, g.top + g.cell / 2, 0), (Pid{p, 0, 0}));
  EXPECT_EQ(g.pidAt(g.left - 1, g.top, 0), std::nullopt);
}

// A large tensor shows only the rows around the operation's elements, so stepping stays fast.
TEST(TilesScene, LargeTensorsShowTheRowsAroundTheOperation) {
  sim::LaunchTrace t;
  t.kernelName = "k";
  t.totalPrograms = 1;
  t.tensors = {{1, "x", ir::DType::FP32, {10000}}};
  t.args = {{"x_ptr", 1, ir::DType::FP32, ""}};
  sim::ProgramTrace p;
  sim::MemAccessEvent e;
  e.argIndex = 0;
  e.tensorId = 1;
  e.shape = {64};
  for (int64_t l = 0; l < 64; ++l) e.offsets.push_back(5000 + l);
  p.events.push_back(e);
  t.programs.push_back(p);
  std::string error;
  const Scene s = tilesScene(t, {0, 0, 0}, 0, &error);
  ASSERT_EQ(error, "");
  EXPECT_TRUE(anyStartsWith(s.texts(), "tensor x_ptr shape [10000] elements 4928..5183: elements this operation addresses"));
  // offsets (64) + mask (64) + 4 rows of 64 tensor cells.
  EXPECT_EQ(rects(s).size(), 64u + 64u + 256u);
}

TEST(SwizzleScene, SideBySideOrdersAndBlockCounts) {
  const Scene s = swizzleScene({9, 9, 3, 9, 9});
  const auto texts = s.texts();
  EXPECT_TRUE(contains(texts, "first 9 programs load 90 distinct blocks (9 of A, 81 of B)"));
  EXPECT_TRUE(contains(texts, "first 9 programs load 54 distinct blocks (27 of A, 27 of B)"));
  const Scene small = swizzleScene({5, 4, 3, 9, 4});
  const auto t = small.texts();
  // The grouped grid's numbers row by row: 0 3 6 9 / 1 4 7 10 / ...
  const auto grouped = std::find(t.begin(), t.end(), "grouped ordering, group size 3");
  ASSERT_NE(grouped, t.end());
  EXPECT_EQ(std::vector<std::string>(grouped + 1, grouped + 9), (std::vector<std::string>{"0", "3", "6", "9", "1", "4", "7", "10"}));
}

TEST(SceneWriters, ScenesWidenToFitTheirText) {
  Scene s(10, 10);
  s.add(SceneText{5, 8, "abcdefghij", 10});
  s.fitTextWidth(12);
  EXPECT_DOUBLE_EQ(s.width(), 5 + 10 * 10 * 0.62 + 12);
  s.add(SceneText{100, 8, "\u2192", 10, {}, TextAlign::Right});  // anchored at its right end
  s.fitTextWidth(0);
  EXPECT_DOUBLE_EQ(s.width(), 100);
  s.add(SceneText{100, 8, "\u2192\u2192", 10});  // two code points (six bytes)
  s.fitTextWidth(0);
  EXPECT_DOUBLE_EQ(s.width(), 100 + 2 * 10 * 0.62);
}

TEST(SceneWriters, SvgAndPngOfAScene) {
  Scene s(100, 50);
  s.add(SceneRect{10, 10, 20, 20, {255, 0, 0, 255}, {0, 0, 0, 255}, 1, true});
  s.add(SceneLine{0, 0, 100, 50, {0, 0, 255, 255}, 2, true});
  s.add(SceneText{50, 40, "a < b & c", 12, {}, TextAlign::Center});
  const std::string svg = SvgWriter::write(s);
  EXPECT_NE(svg.find("width=\"100\" height=\"50\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#ff0000\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"url(#hatch)\""), std::string::npos);
  EXPECT_NE(svg.find(">a &lt; b &amp; c</text>"), std::string::npos);
  if (!PngWriter::available()) GTEST_SKIP() << "built without cairo";
  const std::string path = (std::filesystem::temp_directory_path() / "tilescope-scene-test.png").string();
  std::string error;
  ASSERT_TRUE(PngWriter::write(s, path, &error, 2)) << error;
  std::ifstream f(path, std::ios::binary);
  std::string head(24, '\0');
  f.read(head.data(), 24);
  EXPECT_EQ(head.substr(1, 3), "PNG");
  // IHDR width and height (big-endian) at bytes 16..23: 200 x 100 at scale 2.
  EXPECT_EQ(static_cast<unsigned char>(head[19]), 200);
  EXPECT_EQ(static_cast<unsigned char>(head[23]), 100);
  std::filesystem::remove(path);
  EXPECT_FALSE(PngWriter::write(s, "/nonexistent-dir/x.png", &error));
  EXPECT_NE(error.find("cannot write /nonexistent-dir/x.png"), std::string::npos) << error;
}

}  // namespace
}  // namespace tilescope::viz
