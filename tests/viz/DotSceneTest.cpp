// The Dot view (core/viz/DotScene, core/viz/ComputeOps) on a real trace of the practitioners'
// guide's naive matmul: the A, B and accumulator tiles of each program and K step are the matching
// blocks of the inputs and the running sums, and the last step's result is the stored output tile.
#include <gtest/gtest.h>

#include "core/viz/ComputeOps.h"
#include "core/viz/DotScene.h"
#include "core/viz/Palette.h"
#include "core/viz/SvgWriter.h"
#include "tests/viz/ComputeSeedTraces.h"

namespace tilescope::viz {
namespace {

constexpr int64_t kBlock = 16, kK = 48;

class SeedDot : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto guide = testing::seedLines(testing::kGuide);
    if (!guide) return;
    traces_ = new std::vector<sim::LaunchTrace>(testing::naiveMatmulTraces(*guide));
  }
  static void TearDownTestSuite() {
    delete traces_;
    traces_ = nullptr;
  }
  void SetUp() override {
    if (!traces_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    ASSERT_EQ(traces_->size(), 1u);
  }
  static const sim::LaunchTrace& trace() { return traces_->front(); }
  static std::vector<const sim::DotEvent*> dots(const Pid& pid) {
    std::vector<const sim::DotEvent*> out;
    const sim::ProgramTrace* p = trace().findProgram(pid);
    EXPECT_NE(p, nullptr);
    if (p)
      for (const ComputeOp& op : computeOps(trace(), *p, true)) out.push_back(&std::get<sim::DotEvent>(p->compute[op.index]));
    return out;
  }
  static inline std::vector<sim::LaunchTrace>* traces_ = nullptr;
};

// Expected acc[m, n] after K steps 0..last of the block at (pm, pn).
double partialSum(int64_t pm, int64_t pn, int64_t i, int64_t j, int64_t last) {
  double sum = 0;
  for (int64_t k = 0; k < (last + 1) * kBlock; ++k) sum += testing::matmulA(pm * kBlock + i, k) * testing::matmulB(k, pn * kBlock + j);
  return sum;
}

TEST_F(SeedDot, EveryProgramRecordsOneDotPerKStep) {
  EXPECT_EQ(trace().kernelName, "naive_matmul_k");
  ASSERT_EQ(trace().programs.size(), 4u);  // grid (2, 2)
  for (const sim::ProgramTrace& p : trace().programs) {
    const auto ops = computeOps(trace(), p, true);
    ASSERT_EQ(ops.size(), 3u) << sim::pidString(p.pid);  // K = 48 in blocks of 16
    for (int64_t s = 0; s < 3; ++s) {
      EXPECT_EQ(ops[s].step, s);
      EXPECT_EQ(ops[s].steps, 3);
      EXPECT_EQ(ops[s].title, "tl.dot line " + std::to_string(ops[s].line) + ", K step " + std::to_string(s + 1) + " of 3");
    }
    EXPECT_TRUE(computeOps(trace(), p, false).empty());  // the naive matmul reduces nothing
  }
}

TEST_F(SeedDot, ATileOfProgram0AtKStep0IsTheInputsTopLeftBlock) {
  const auto d = dots({0, 0, 0});
  ASSERT_EQ(d.size(), 3u);
  ASSERT_TRUE(d[0]->a && d[0]->b);
  EXPECT_EQ(d[0]->aShape, (ir::Shape{16, 16}));
  EXPECT_EQ(d[0]->bShape, (ir::Shape{16, 16}));
  for (int64_t i = 0; i < kBlock; ++i)
    for (int64_t j = 0; j < kBlock; ++j) {
      ASSERT_EQ(d[0]->a->asDouble(i * kBlock + j), testing::matmulA(i, j)) << i << "," << j;
      ASSERT_EQ(d[0]->b->asDouble(i * kBlock + j), testing::matmulB(i, j)) << i << "," << j;
    }
}

TEST_F(SeedDot, TilesOfAnotherProgramAndStepAreTheirOwnSlices) {
  // Program (1, 0): rows 16..31 of A; K step 3 (index 2): columns 32..47 of A, rows 32..47 of B.
  const auto d = dots({1, 0, 0});
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[2]->step, 2);
  for (int64_t i = 0; i < kBlock; ++i)
    for (int64_t j = 0; j < kBlock; ++j) {
      ASSERT_EQ(d[2]->a->asDouble(i * kBlock + j), testing::matmulA(16 + i, 32 + j));
      ASSERT_EQ(d[2]->b->asDouble(i * kBlock + j), testing::matmulB(32 + i, j));
    }
  EXPECT_EQ(dotKRange(*d[2], 3), "k = 32 .. 47 (K step 3 of 3, BK = 16)");
}

TEST_F(SeedDot, TheAccumulatorGrowsStepByStepToTheStoredOutputTile) {
  const Pid pid{1, 1, 0};
  const auto d = dots(pid);
  ASSERT_EQ(d.size(), 3u);
  const sim::ProgramTrace* p = trace().findProgram(pid);
  for (int64_t s = 0; s < 3; ++s) {
    // `acc += tl.dot(a, b)` runs as tl.dot(a, b, acc), as Triton compiles it: the dot records acc,
    // and the view names it after the variable its result is bound to.
    EXPECT_TRUE(d[s]->hasAcc);
    ASSERT_TRUE(d[s]->result);
    const auto acc = dotAccumulator(*p, *d[s]);
    ASSERT_TRUE(acc) << "step " << s;
    EXPECT_EQ(acc->name, "acc");
    ASSERT_TRUE(acc->before && acc->after);
    for (int64_t i = 0; i < kBlock; ++i)
      for (int64_t j = 0; j < kBlock; ++j) {
        ASSERT_EQ(acc->before->asDouble(i * kBlock + j), s == 0 ? 0.0 : partialSum(1, 1, i, j, s - 1)) << "step " << s;
        ASSERT_EQ(acc->after->asDouble(i * kBlock + j), partialSum(1, 1, i, j, s)) << "step " << s;
      }
  }
  // The program's store of c writes exactly the last step's result (values recorded).
  const sim::MemAccessEvent* store = nullptr;
  for (const sim::TraceEvent& e : p->events)
    if (const auto* m = std::get_if<sim::MemAccessEvent>(&e); m && m->kind == sim::MemOpKind::Store) store = m;
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->values);
  ASSERT_EQ(store->values->numel(), kBlock * kBlock);
  for (int64_t i = 0; i < kBlock * kBlock; ++i) ASSERT_EQ(store->values->asDouble(i), dotAccumulator(*p, *d[2])->after->asDouble(i)) << i;
  // Each dot comes after the loads that produced its operands.
  EXPECT_GE(d[0]->eventIndex, 2u);
  EXPECT_LT(d[2]->eventIndex, p->events.size());
}

TEST_F(SeedDot, SceneLabelsTheStepAndDrawsAllFourTiles) {
  std::string error;
  const Scene s = dotScene(trace(), {0, 1, 0}, 1, &error);
  EXPECT_EQ(error, "");
  const auto texts = s.texts();
  auto has = [&](const std::string& t) { return std::find(texts.begin(), texts.end(), t) != texts.end(); };
  const auto ops = computeOps(trace(), *trace().findProgram({0, 1, 0}), true);
  EXPECT_TRUE(has("naive_matmul_k  pid (0, 1, 0)  tl.dot line " + std::to_string(ops[1].line) + ", K step 2 of 3"));
  EXPECT_TRUE(has("k = 16 .. 31 (K step 2 of 3, BK = 16)"));
  EXPECT_TRUE(has("A  fp32 [16, 16]  columns k 16..31"));
  EXPECT_TRUE(has("B  fp32 [16, 16]  rows k 16..31"));
  EXPECT_TRUE(has("acc = acc + A @ B  (acc += tl.dot(...))"));
  EXPECT_TRUE(has("acc before  fp32 [16, 16]"));
  EXPECT_TRUE(has("acc after  fp32 [16, 16]"));
  size_t cells = 0;
  for (const SceneItem& i : s.items()) cells += std::holds_alternative<SceneRect>(i);
  EXPECT_EQ(cells, 4u * 256u);
  // acc before and after share one colour scale: before's smallest value is the scale's bottom,
  // after's largest its top, and before's largest (smaller than after's) is not at the top.
  std::vector<SceneRect> all;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i)) all.push_back(*r);
  const sim::ProgramTrace* p = trace().findProgram({0, 1, 0});
  const auto acc = dotAccumulator(*p, std::get<sim::DotEvent>(p->compute[ops[1].index]));
  ASSERT_TRUE(acc && acc->before && acc->after);
  auto extreme = [](const sim::Tile& t, bool largest) {
    int64_t best = 0;
    for (int64_t i = 1; i < t.numel(); ++i)
      if (largest ? t.asDouble(i) > t.asDouble(best) : t.asDouble(i) < t.asDouble(best)) best = i;
    return static_cast<size_t>(best);
  };
  EXPECT_EQ(all[512 + extreme(*acc->before, false)].fill, palette::ramp(0.15));
  EXPECT_EQ(all[768 + extreme(*acc->after, true)].fill, palette::ramp(1.0));
  EXPECT_LT(acc->before->asDouble(static_cast<int64_t>(extreme(*acc->before, true))),
            acc->after->asDouble(static_cast<int64_t>(extreme(*acc->after, true))));
  EXPECT_NE(all[512 + extreme(*acc->before, true)].fill, palette::ramp(1.0));
  // The top-left A cell of program (0, 1) at K step 2 is a[0, 16] = 16 % 7 = 2, drawn as its number.
  EXPECT_TRUE(has("2."));
  EXPECT_NE(SvgWriter::write(s).find("K step 2 of 3"), std::string::npos);
}

TEST_F(SeedDot, StepIndexClampsAndMissingProgramsSaySo) {
  std::string error;
  const Scene last = dotScene(trace(), {0, 0, 0}, 99, &error);
  const auto texts = last.texts();
  EXPECT_NE(std::find(texts.begin(), texts.end(), std::string("k = 32 .. 47 (K step 3 of 3, BK = 16)")), texts.end());
  const Scene none = dotScene(trace(), {5, 5, 0}, 0, &error);
  EXPECT_TRUE(none.items().empty());
  EXPECT_EQ(error, "program (5, 5, 0) is not in the trace");
}

}  // namespace
}  // namespace tilescope::viz
