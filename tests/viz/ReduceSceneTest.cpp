// The Reduce view (core/viz/ReduceScene, core/viz/ComputeOps) on real traces: the from-zero
// tutorial's softmax (its row max and its sum of exponentials) and small kernels of our own for
// argmax ties and 2-D reductions over either axis.
#include <gtest/gtest.h>

#include <cmath>

#include "core/viz/ComputeOps.h"
#include "core/viz/Palette.h"
#include "core/viz/ReduceScene.h"
#include "tests/viz/ComputeSeedTraces.h"

namespace tilescope::viz {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

std::vector<const sim::ReduceEvent*> reductions(const sim::LaunchTrace& trace, const Pid& pid) {
  std::vector<const sim::ReduceEvent*> out;
  const sim::ProgramTrace* p = trace.findProgram(pid);
  EXPECT_NE(p, nullptr);
  if (p)
    for (const ComputeOp& op : computeOps(trace, *p, false)) out.push_back(&std::get<sim::ReduceEvent>(p->compute[op.index]));
  return out;
}

std::vector<double> values(const sim::TileRef& t) {
  std::vector<double> v;
  for (int64_t i = 0; t && i < t->numel(); ++i) v.push_back(t->asDouble(i));
  return v;
}

std::vector<SceneRect> framedCells(const Scene& s) {
  std::vector<SceneRect> out;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i); r && r->stroke == palette::kHighlight) out.push_back(*r);
  return out;
}

bool has(const Scene& s, const std::string& text) {
  const auto texts = s.texts();
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

TEST(SeedReduce, SoftmaxMaxIsTheRowMaxOfItsInputTile) {
  const auto zero = testing::seedLines(testing::kZero);
  if (!zero) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  const auto traces = testing::softmaxTraces(*zero);
  ASSERT_EQ(traces.size(), 1u);
  const sim::LaunchTrace& t = traces[0];
  EXPECT_EQ(t.kernelName, "softmax_kernel");
  ASSERT_EQ(t.programs.size(), 3u);
  const double rowMax[3] = {10, 9, 10};
  for (int64_t row = 0; row < 3; ++row) {
    const auto r = reductions(t, {row, 0, 0});
    ASSERT_EQ(r.size(), 2u);  // tl.max, then tl.sum
    EXPECT_EQ(r[0]->kind, sim::ReduceKind::Max);
    EXPECT_EQ(r[0]->axis, 0);
    // BLOCK_SIZE = 8: five values and three masked-off lanes loaded as -inf.
    std::vector<double> in;
    for (int64_t c = 0; c < 5; ++c) in.push_back(static_cast<double>((5 * row + c) * 7 % 11));
    in.insert(in.end(), {-kInf, -kInf, -kInf});
    EXPECT_EQ(values(r[0]->input), in);
    EXPECT_EQ(values(r[0]->result), std::vector<double>{rowMax[row]});
    EXPECT_EQ(r[1]->kind, sim::ReduceKind::Sum);
    double sum = 0;
    for (int64_t c = 0; c < 8; ++c) sum += r[1]->input->asDouble(c);
    EXPECT_NEAR(r[1]->result->asDouble(0), sum, 1e-6);
    EXPECT_FLOAT_EQ(static_cast<float>(r[1]->input->asDouble(1)), std::exp(static_cast<float>(in[1] - rowMax[row])));
  }
  // Row 1 = [2 9 5 1 8]: the max came from element 1, which the view frames.
  const auto r1 = reductions(t, {1, 0, 0});
  EXPECT_EQ(reductionWinners(*r1[0]), std::vector<int64_t>{1});
  std::string error;
  const Scene s = reduceScene(t, {1, 0, 0}, 0, &error);
  EXPECT_EQ(error, "");
  const auto ops = computeOps(t, *t.findProgram({1, 0, 0}), false);
  EXPECT_TRUE(has(s, "softmax_kernel  pid (1, 0, 0)  tl.max axis 0, line " + std::to_string(ops[0].line)));
  EXPECT_TRUE(has(s, "tl.max over all 8 elements: one result"));
  EXPECT_TRUE(has(s, "input  fp32 [8]"));
  EXPECT_TRUE(has(s, "result  fp32 scalar"));
  EXPECT_TRUE(has(s, "-inf"));
  EXPECT_TRUE(has(s, "9."));
  const auto framed = framedCells(s);
  ASSERT_EQ(framed.size(), 1u);
  // Input and result share one colour scale: the result 9 has the colour of the input's 9.
  std::vector<SceneRect> cells;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i); r && r->stroke != palette::kHighlight) cells.push_back(*r);
  ASSERT_EQ(cells.size(), 9u);  // 8 input lanes, 1 result
  EXPECT_EQ(cells[8].fill, cells[1].fill);
  EXPECT_NE(cells[8].fill, cells[0].fill);
  // The sum is the program's second reduction, with no winner to frame.
  const Scene sum = reduceScene(t, {1, 0, 0}, 1, &error);
  EXPECT_TRUE(has(sum, "softmax_kernel  pid (1, 0, 0)  tl.sum axis 0, line " + std::to_string(ops[1].line)));
  EXPECT_TRUE(framedCells(sum).empty());
}

// Our own kernels (not the seeds'): argmax over rows with ties, and max/min over both axes of 4x4.
std::vector<sim::LaunchTrace> smallReductionTraces() {
  testing::TracedSession s;
  s.run(R"(import torch
import triton
import triton.language as tl

@triton.jit
def argmax_rows(x_ptr, out_ptr, N: tl.constexpr):
    r = tl.program_id(0)
    x = tl.load(x_ptr + r * N + tl.arange(0, N))
    tl.store(out_ptr + r, tl.argmax(x, axis=0))

@triton.jit
def both_axes(x_ptr, out_ptr):
    offs = tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + tl.arange(0, 4), tl.max(x, axis=0))
    tl.store(out_ptr + 4 + tl.arange(0, 4), tl.min(x, axis=1))

x = torch.tensor([[3.0, 7.0, 1.0, 7.0], [5.0, 5.0, 5.0, 5.0]], device='cuda')
idx = torch.empty(2, dtype=torch.int32, device='cuda')
argmax_rows[(2,)](x, idx, N=4)
m = torch.tensor([[1.0, 8.0, 2.0, 2.0], [6.0, 0.0, 9.0, 2.0], [6.0, 8.0, 3.0, 1.0], [4.0, 4.0, 4.0, 7.0]], device='cuda')
out = torch.empty(8, device='cuda')
both_axes[(1,)](m, out)
)");
  return s.takeTraces();
}

TEST(Reduce, ArgmaxReturnsTheIndexOfTheFirstMaximum) {
  const auto traces = smallReductionTraces();
  ASSERT_EQ(traces.size(), 2u);
  const auto row0 = reductions(traces[0], {0, 0, 0});
  const auto row1 = reductions(traces[0], {1, 0, 0});
  ASSERT_EQ(row0.size(), 1u);
  ASSERT_EQ(row1.size(), 1u);
  EXPECT_EQ(row0[0]->kind, sim::ReduceKind::ArgMax);
  EXPECT_EQ(row0[0]->result->dtype(), ir::DType::I32);
  EXPECT_EQ(values(row0[0]->result), std::vector<double>{1});  // [3 7 1 7]: 7 first at 1, not 3
  EXPECT_EQ(values(row1[0]->result), std::vector<double>{0});  // all equal: the first
  EXPECT_EQ(reductionWinners(*row0[0]), std::vector<int64_t>{1});
  std::string error;
  const Scene s = reduceScene(traces[0], {0, 0, 0}, 0, &error);
  EXPECT_TRUE(has(s, "framed: the element each result points at (ties: the first index)"));
  EXPECT_TRUE(has(s, "result  i32 scalar"));
  const auto framed = framedCells(s);
  ASSERT_EQ(framed.size(), 1u);
  // Frames sit on cell 1 of the input's single row: one cell width right of cell 0 (drawn first).
  double cell0 = -1;
  for (const SceneItem& i : s.items())
    if (const auto* r = std::get_if<SceneRect>(&i); r && cell0 < 0) cell0 = r->x;
  EXPECT_DOUBLE_EQ(framed[0].x, cell0 + framed[0].w);
}

TEST(Reduce, TwoDimensionalReductionsMarkTheirAxisAndWinners) {
  const auto traces = smallReductionTraces();
  ASSERT_EQ(traces.size(), 2u);
  const auto r = reductions(traces[1], {0, 0, 0});
  ASSERT_EQ(r.size(), 2u);
  // max over axis 0 (down each column): [6 8 9 7], from rows 1, 0, 1, 3 (first on ties).
  EXPECT_EQ(r[0]->axis, 0);
  EXPECT_EQ(values(r[0]->result), (std::vector<double>{6, 8, 9, 7}));
  EXPECT_EQ(reductionWinners(*r[0]), (std::vector<int64_t>{4, 1, 6, 15}));
  // min over axis 1 (along each row): [1 0 1 4], at columns 0, 1, 3, 0.
  EXPECT_EQ(r[1]->axis, 1);
  EXPECT_EQ(values(r[1]->result), (std::vector<double>{1, 0, 1, 4}));
  EXPECT_EQ(reductionWinners(*r[1]), (std::vector<int64_t>{0, 5, 11, 12}));

  std::string error;
  const Scene down = reduceScene(traces[1], {0, 0, 0}, 0, &error);
  EXPECT_TRUE(has(down, "tl.max over axis 0: each column gives one result, drawn under it"));
  EXPECT_TRUE(has(down, "axis 0 (reduced)"));
  EXPECT_EQ(framedCells(down).size(), 4u);
  const Scene across = reduceScene(traces[1], {0, 0, 0}, 1, &error);
  EXPECT_TRUE(has(across, "tl.min over axis 1: each row gives one result, drawn beside it"));
  // One arrow each, along the reduced axis: vertical for axis 0, horizontal for axis 1.
  auto arrow = [](const Scene& s) {
    for (const SceneItem& i : s.items())
      if (const auto* l = std::get_if<SceneLine>(&i); l && l->arrow) return *l;
    return SceneLine{};
  };
  EXPECT_EQ(arrow(down).x1, arrow(down).x2);
  EXPECT_GT(arrow(down).y2, arrow(down).y1);
  EXPECT_EQ(arrow(across).y1, arrow(across).y2);
  EXPECT_GT(arrow(across).x2, arrow(across).x1);
}

TEST(Reduce, TlReduceWithACombineFunctionIsRecordedAsTheOperationItComputes) {
  testing::TracedSession s;
  s.run(R"(import torch
import triton
import triton.language as tl

@triton.jit
def larger(a, b):
    return tl.maximum(a, b)

@triton.jit
def custom_max(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.store(out_ptr, tl.reduce(x, 0, larger))

x = torch.tensor([2.0, 11.0, 5.0, 11.0], device='cuda')
out = torch.empty(1, device='cuda')
custom_max[(1,)](x, out)
)");
  const auto traces = s.takeTraces();
  ASSERT_EQ(traces.size(), 1u);
  const auto r = reductions(traces[0], {0, 0, 0});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]->kind, sim::ReduceKind::Max);
  EXPECT_EQ(values(r[0]->result), std::vector<double>{11});
  EXPECT_EQ(reductionWinners(*r[0]), std::vector<int64_t>{1});  // the first 11
}

TEST(Reduce, ProgramsWithoutReductionsSaySo) {
  const auto traces = smallReductionTraces();
  std::string error;
  EXPECT_TRUE(reduceScene(traces[0], {7, 0, 0}, 0, &error).items().empty());
  EXPECT_EQ(error, "program (7, 0, 0) is not in the trace");
}

}  // namespace
}  // namespace tilescope::viz
