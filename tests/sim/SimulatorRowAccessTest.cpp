// Loads and stores of 2-D blocks (`ptr + rows[:, None] * stride + cols[None, :]`), which the
// simulator plans as rows of consecutive elements: edge blocks whose masked lanes lie past the
// tensor or in the next row, fp16 rows, racing rows, and stores spanning several lock stripes, on
// one thread and on several.
#include <gtest/gtest.h>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

const char* kBlockSource = R"(import triton
import triton.language as tl

@triton.jit
def block_scale(x_ptr, y_ptr, m, n, stride, BM: tl.constexpr, BN: tl.constexpr, SAME_ROWS: tl.constexpr):
    pm = tl.program_id(0)
    if SAME_ROWS:
        pm = 0
    rm = pm * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < m) & (rn[None, :] < n)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=-1.0)
    tl.store(y_ptr + rm[:, None] * stride + rn[None, :], x * 2.0 + tl.program_id(0), mask=mask)
)";

struct Outcome {
  LaunchResult result;
  std::vector<double> y;
};

Outcome run(DType dtype, int64_t m, int64_t n, int64_t bm, int64_t bn, bool sameRows, int threads) {
  auto program = lang::test::programFrom(kBlockSource, "block.py");
  auto cint = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(dtype), lang::ArgSpec::pointer(dtype), lang::ArgSpec::scalar(DType::I32),
               lang::ArgSpec::scalar(DType::I32), lang::ArgSpec::scalar(DType::I32), cint(bm), cint(bn),
               lang::ArgSpec::constexprValue(lang::ConstValue::boolean(sameRows))};
  lang::CheckResult checked = lang::checkKernel(*program, "block_scale", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  Memory mem;
  std::vector<double> x(static_cast<size_t>(m * n));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 251);
  const int xs = mem.createFromDoubles("x", dtype, {m, n}, x);
  const int ys = mem.create("y", dtype, {m, n}, TensorInit::Uninitialized);
  Simulator sim(mem);
  LaunchOptions o;
  o.numThreads = threads;
  const Grid grid{(m + bm - 1) / bm, (n + bn - 1) / bn};
  Outcome r;
  r.result = sim.launch(*checked.kernel, grid,
                        {LaunchArg::tensor(xs), LaunchArg::tensor(ys), LaunchArg::integer(m), LaunchArg::integer(n),
                         LaunchArg::integer(n)},
                        o);
  r.y = mem.readDoubles(ys);
  return r;
}

TEST(SimulatorRowAccess, EdgeBlocksWithMaskedLanesPastTheTensorOrInTheNextRow) {
  for (DType dtype : {DType::FP32, DType::FP16}) {
    for (int threads : {1, 4}) {
      // 10 x 13 in 8 x 8 blocks: the last block row's masked rows lie past the tensor, the last
      // block column's masked columns in the next row.
      const Outcome r = run(dtype, 10, 13, 8, 8, false, threads);
      ASSERT_EQ(r.result.status, LaunchStatus::Ok) << r.result.diagnostics.render();
      EXPECT_TRUE(r.result.diagnostics.items().empty()) << r.result.diagnostics.render();
      for (int64_t i = 0; i < 130; ++i) {
        const int64_t pm = (i / 13) / 8;
        ASSERT_EQ(r.y[static_cast<size_t>(i)], static_cast<double>(i % 251) * 2.0 + static_cast<double>(pm))
            << ir::dtypeName(dtype) << ", " << threads << " threads, element " << i;
      }
      ASSERT_EQ(r.result.coverage.tensors.size(), 1u);
      EXPECT_EQ(r.result.coverage.tensors[0].written, 130);
      EXPECT_EQ(r.result.coverage.tensors[0].writtenByMany, 0);
    }
  }
}

TEST(SimulatorRowAccess, RowsSpanningSeveralLockStripesAreWrittenWholeOnEveryThreadCount) {
  // 1024 x 96 fp32 (98,304 elements: 24 stripes of 4,096, and two chunks of the coverage count) in
  // 64 x 32 blocks: each block's rows span two or three stripes.
  for (int threads : {1, 2, 8}) {
    const Outcome r = run(DType::FP32, 1024, 96, 64, 32, false, threads);
    ASSERT_EQ(r.result.status, LaunchStatus::Ok) << r.result.diagnostics.render();
    for (int64_t i = 0; i < 1024 * 96; ++i)
      ASSERT_EQ(r.y[static_cast<size_t>(i)], static_cast<double>(i % 251) * 2.0 + static_cast<double>((i / 96) / 64))
          << threads << " threads, element " << i;
    ASSERT_EQ(r.result.coverage.tensors.size(), 1u);
    EXPECT_EQ(r.result.coverage.tensors[0].written, 1024 * 96);
    EXPECT_EQ(r.result.coverage.tensors[0].writtenByMany, 0);
    EXPECT_EQ(r.result.coverage.tensors[0].conflicting, 0);
  }
}

TEST(SimulatorRowAccess, ProgramsStoringDifferentValuesToTheSameRowsAreARace) {
  for (int threads : {1, 4}) {
    // Every program of a block column writes rows 0..7 with its own pid added: a race.
    const Outcome r = run(DType::FP32, 32, 16, 8, 16, true, threads);
    ASSERT_EQ(r.result.status, LaunchStatus::Ok) << r.result.diagnostics.render();
    ASSERT_EQ(r.result.coverage.tensors.size(), 1u);
    const TensorCoverage& c = r.result.coverage.tensors[0];
    EXPECT_EQ(c.written, 8 * 16);
    EXPECT_EQ(c.writtenByMany, 8 * 16);
    EXPECT_EQ(c.conflicting, 8 * 16);
    EXPECT_NE(r.result.diagnostics.render().find("were written by more than one program of kernel 'block_scale' with different values"),
              std::string::npos)
        << r.result.diagnostics.render();
  }
}

}  // namespace
}  // namespace tilescope::sim
