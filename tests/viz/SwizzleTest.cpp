// Swizzle math (core/viz/Swizzle) and the same view derived from real traces of the practitioners'
// guide's swizzle_k and matmul kernels (core/viz/TraceTileOrder).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/viz/Swizzle.h"
#include "core/viz/TraceTileOrder.h"
#include "core/viz/VariablesScene.h"
#include "tests/viz/SeedTraces.h"

namespace tilescope::viz {
namespace {

using Order = std::vector<std::vector<int64_t>>;

TEST(Swizzle, Swizzle2dMatchesTritonOnSingleProgramsOfA5x4Grid) {
  struct Case {
    int64_t i, j, g;
    std::pair<int64_t, int64_t> tile;
  };
  // Group 3 walks rows 0-2 column by column, then the last two rows (a group of 2).
  const Case cases[] = {{0, 0, 3, {0, 0}}, {0, 1, 3, {1, 0}}, {0, 2, 3, {2, 0}}, {0, 3, 3, {0, 1}},
                        {2, 3, 3, {2, 3}}, {3, 0, 3, {3, 0}}, {3, 1, 3, {4, 0}}, {4, 3, 3, {4, 3}},
                        {1, 2, 1, {1, 2}}, {1, 2, 5, {1, 1}}};  // one group of 5 rows: position 6 is column 1, row 1
  for (const Case& c : cases)
    EXPECT_EQ(swizzle2d(c.i, c.j, 5, 4, c.g), c.tile) << "(" << c.i << ", " << c.j << ") group " << c.g;
}

TEST(Swizzle, ProcessingOrderTable) {
  struct Case {
    int64_t rows, cols, group;
    Order order;
  };
  const Case cases[] = {
      // The practitioners' guide's 5x4 matrix with group size 3.
      {5, 4, 3, {{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 11}, {12, 14, 16, 18}, {13, 15, 17, 19}}},
      {2, 3, 0, {{0, 1, 2}, {3, 4, 5}}},       // no remapping: row-major
      {2, 3, 1, {{0, 1, 2}, {3, 4, 5}}},       // groups of one row: row-major too
      {2, 2, 2, {{0, 2}, {1, 3}}},             // one group: column-major
  };
  for (const Case& c : cases) EXPECT_EQ(processingOrder(c.rows, c.cols, c.group), c.order) << c.rows << "x" << c.cols << " g" << c.group;
}

TEST(Swizzle, NineByNineBlockGridLoads90BlocksRowMajorAnd54Grouped) {
  const BlockLoads rowMajor = distinctBlocksLoaded(processingOrder(9, 9, 0), 9, 9);
  EXPECT_EQ(rowMajor.aBlocks, 9);
  EXPECT_EQ(rowMajor.bBlocks, 81);
  EXPECT_EQ(rowMajor.total(), 90);
  const BlockLoads grouped = distinctBlocksLoaded(processingOrder(9, 9, 3), 9, 9);
  EXPECT_EQ(grouped.aBlocks, 27);
  EXPECT_EQ(grouped.bBlocks, 27);
  EXPECT_EQ(grouped.total(), 54);
}

TEST(Swizzle, TilesInOrderInvertsTheOrder) {
  const auto tiles = tilesInOrder(processingOrder(5, 4, 3));
  ASSERT_EQ(tiles.size(), 20u);
  EXPECT_EQ(tiles[3], (std::pair<int64_t, int64_t>{0, 1}));
  EXPECT_EQ(tiles[12], (std::pair<int64_t, int64_t>{3, 0}));
  EXPECT_EQ(tiles[19], (std::pair<int64_t, int64_t>{4, 3}));
}

// The guide's Example 4 chapters, run as written, plus one 144x144 launch of each matmul (a 9x9
// grid of 16x16 blocks, K = 9 blocks).
struct MatmulTraces {
  std::vector<sim::LaunchTrace> swizzle, naive, grouped;
};

MatmulTraces matmulTraces(const std::vector<std::string>& lines) {
  MatmulTraces t;
  testing::TracedSession s;
  size_t pos = static_cast<size_t>(std::find(lines.begin(), lines.end(), "# Example 3: Matmul") - lines.begin());
  s.run(testing::seedSpan(lines, pos, "import os", "from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready"));
  s.run(testing::seedSpan(lines, pos, "@triton.jit", "    return (tl.expand_dims(offs_0, 1) < max_0) & (tl.expand_dims(offs_1, 0) < max_1)"));
  s.run(testing::seedSpan(lines, pos, "@triton.jit", "    tl.store(c, acc, mask=mask)"));
  s.run(testing::seedSpan(lines, pos, "from functools import partial", "naive_matmul = partial(matmul, matmul_k_fn=naive_matmul_k)"));
  s.run(testing::seedSpan(lines, pos, "@triton.jit", "    tl.store(z_ptr + offs_sw, x, mask=mask_sw)"));
  s.run(testing::seedSpan(lines, pos, "blocks_m, blocks_n = 5,4", "swizzle_k[(blocks_m,blocks_n)](x,z, group_sz=3);"));
  t.swizzle = s.takeTraces();
  s.run(testing::seedSpan(lines, pos, "@triton.jit", "    tl.store(c, acc, mask=mask)"));
  s.run(testing::seedSpan(lines, pos, "grouped_matmul = partial(matmul, matmul_k_fn=grouped_matmul_k)",
                          "grouped_matmul = partial(matmul, matmul_k_fn=grouped_matmul_k)"));
  s.run("torch.manual_seed(0)\na = torch.randn((144, 144), device='cuda', dtype=torch.float16)\n"
        "b = torch.randn((144, 144), device='cuda', dtype=torch.float16)\n_ = naive_matmul(a, b)\n");
  t.naive = s.takeTraces();
  s.run("_ = grouped_matmul(a, b, group_sz=3)\n");
  t.grouped = s.takeTraces();
  return t;
}

TEST(Swizzle, DerivedFromTheSeedKernelsTraces) {
  const auto lines = testing::seedLines(testing::kGuide);
  if (!lines) GTEST_SKIP() << "seed tutorial not found in " << TILESCOPE_SEEDS_DIR;
  const MatmulTraces t = matmulTraces(*lines);

  // swizzle_k stores each program's row-major number at its swizzled tile: the guide's z.
  ASSERT_EQ(t.swizzle.size(), 1u);
  EXPECT_EQ(t.swizzle[0].kernelName, "swizzle_k");
  const TraceTileOrder order = traceTileOrder(t.swizzle[0]);
  EXPECT_EQ(order.error, "");
  EXPECT_EQ(order.name, "z_ptr");
  EXPECT_EQ(order.order, (Order{{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 11}, {12, 14, 16, 18}, {13, 15, 17, 19}}));
  EXPECT_EQ(order.order, processingOrder(5, 4, 3));

  // The first 9 programs of the 9x9 block grid: 9 + 81 blocks naive, 27 + 27 grouped.
  ASSERT_EQ(t.naive.size(), 1u);
  ASSERT_EQ(t.grouped.size(), 1u);
  EXPECT_EQ(t.naive[0].grid, (std::array<int64_t, 3>{9, 9, 1}));
  const auto naive = traceBlockLoads(t.naive[0], 9);
  ASSERT_EQ(naive.size(), 2u);
  EXPECT_EQ(naive[0].name, "a_ptr");
  EXPECT_EQ(naive[0].blocks, 9);
  EXPECT_EQ(naive[1].name, "b_ptr");
  EXPECT_EQ(naive[1].blocks, 81);
  const auto grouped = traceBlockLoads(t.grouped[0], 9);
  ASSERT_EQ(grouped.size(), 2u);
  EXPECT_EQ(grouped[0].blocks, 27);
  EXPECT_EQ(grouped[1].blocks, 27);
  // The grouped kernel's output tiles in processing order are swizzle2d's order with group 3.
  const TraceTileOrder groupedOrder = traceTileOrder(t.grouped[0]);
  EXPECT_EQ(groupedOrder.tileRows, 16);
  EXPECT_EQ(groupedOrder.order, processingOrder(9, 9, 3));
  EXPECT_EQ(traceTileOrder(t.naive[0]).order, processingOrder(9, 9, 0));
  // The variables view walks the K loop (9 steps of the loop variable _): at the end of step 4, a
  // and b are their 4th loads.
  EXPECT_EQ(bindingSteps(t.grouped[0], {0, 0, 0}), 9);
  const auto texts = variablesScene(t.grouped[0], {0, 0, 0}, 3).texts();
  EXPECT_TRUE(std::find(texts.begin(), texts.end(), "end of loop step 4 of 9 (loop variable _)") != texts.end());
  EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [](const std::string& s) {
    return s.rfind("a  fp16 [16, 16]  line ", 0) == 0 && s.ends_with("binding 4 of 9");
  })) << ::testing::PrintToString(texts);
  // acc moves with the steps (bound before the loop, at each loop head and at each update: 20 times).
  auto accCaption = [&](int64_t step) {
    for (const std::string& s : variablesScene(t.grouped[0], {0, 0, 0}, step).texts())
      if (s.rfind("acc  fp32 [16, 16]  line ", 0) == 0) return s;
    return std::string();
  };
  EXPECT_TRUE(accCaption(0).ends_with(" of 20")) << accCaption(0);
  EXPECT_NE(accCaption(0), accCaption(3));
  EXPECT_TRUE(accCaption(8).ends_with("binding 20 of 20")) << accCaption(8);
}

}  // namespace
}  // namespace tilescope::viz
