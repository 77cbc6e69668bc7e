// tl.softmax in the simulator: Triton's definition (exp(x - max) / sum along dim, keep_dims) on each
// row or column, against a reference in double.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

TEST(SimulatorSoftmax, AlongEitherDimension) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, rows_ptr, cols_ptr):
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(rows_ptr + offs, tl.softmax(x, dim=1, keep_dims=True))
    tl.store(cols_ptr + offs, tl.softmax(x))
)",
                                         "softmax.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  std::vector<double> x;
  for (int i = 0; i < 32; ++i) x.push_back(static_cast<float>(std::sin(i * 1.7) * 4.0));
  Memory mem;
  const int xs = mem.createFromDoubles("x", DType::FP32, {32}, x);
  const int rows = mem.create("rows", DType::FP32, {32});
  const int cols = mem.create("cols", DType::FP32, {32});
  Simulator sim(mem);
  auto ran = sim.launch(*r.kernel, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(rows), LaunchArg::tensor(cols)});
  ASSERT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
  const std::vector<double> byRow = mem.readDoubles(rows), byCol = mem.readDoubles(cols);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      double rowSum = 0, colSum = 0, rowMax = -1e9, colMax = -1e9;
      for (int q = 0; q < 8; ++q) rowMax = std::max(rowMax, x[i * 8 + q]);
      for (int q = 0; q < 4; ++q) colMax = std::max(colMax, x[q * 8 + j]);
      for (int q = 0; q < 8; ++q) rowSum += std::exp(x[i * 8 + q] - rowMax);
      for (int q = 0; q < 4; ++q) colSum += std::exp(x[q * 8 + j] - colMax);
      EXPECT_NEAR(byRow[i * 8 + j], std::exp(x[i * 8 + j] - rowMax) / rowSum, 1e-6) << i << ", " << j;
      EXPECT_NEAR(byCol[i * 8 + j], std::exp(x[i * 8 + j] - colMax) / colSum, 1e-6) << i << ", " << j;
    }
}

}  // namespace
}  // namespace tilescope::sim
