// tl.reduce / tl.associative_scan with general combine functions in the simulator: a tuple
// reduction (argmax as (value, index) pairs), a scan over two tensors (a linear recurrence), and
// a combine of two operations whose result depends on the order (decimal digits), forward, reverse
// and reduced, all as Triton's interpreter folds them.
#include <gtest/gtest.h>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/CombineKernels.h"

namespace tilescope::sim {
namespace {

using ir::DType;

lang::ArgSpec constInt(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

class SimulatorCombine : public ::testing::Test {
protected:
  std::shared_ptr<lang::Program> program = lang::test::programFrom(test::kCombineSource, "combine.py");

  std::shared_ptr<const ir::Kernel> kernel(const std::string& name, std::vector<lang::ArgSpec> args) {
    lang::Specialization spec;
    spec.args = std::move(args);
    lang::CheckResult r = lang::checkKernel(*program, name, spec);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    return r.kernel;
  }
};

TEST_F(SimulatorCombine, ATupleReductionGivesEachRowsMaximumAndItsFirstIndex) {
  const int R = 4, C = 16;
  auto k = kernel("row_argmax", {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32),
                                 lang::ArgSpec::pointer(DType::I32), constInt(R), constInt(C)});
  ASSERT_TRUE(k);
  const std::vector<double> x = test::argmaxInput(R, C);
  std::vector<double> values;
  std::vector<int64_t> indices;
  test::argmaxExpected(x, R, C, values, indices);
  Memory mem;
  const int xs = mem.createFromDoubles("x", DType::FP32, {R * C}, x);
  const int vs = mem.create("v", DType::FP32, {R});
  const int is = mem.create("i", DType::I32, {R});
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(vs), LaunchArg::tensor(is)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readDoubles(vs), values);
  EXPECT_EQ(mem.readInts(is), indices);
  // Rows with ties: the first maximum wins (the combine breaks ties towards the lower index).
  EXPECT_NE(indices, std::vector<int64_t>(R, indices[0]));
}

TEST_F(SimulatorCombine, AScanOverTwoTensorsRunsALinearRecurrence) {
  const int N = 16;
  auto k = kernel("linear_recurrence", {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32),
                                        lang::ArgSpec::pointer(DType::I32), constInt(N)});
  ASSERT_TRUE(k);
  std::vector<int64_t> a, b;
  for (int i = 0; i < N; ++i) {
    a.push_back(i % 3 - 1 + (i % 5 == 0 ? 3 : 0));
    b.push_back(i * 5 - 7);
  }
  Memory mem;
  const int as = mem.createFromInts("a", DType::I32, {N}, a);
  const int bs = mem.createFromInts("b", DType::I32, {N}, b);
  const int out = mem.create("h", DType::I32, {N});
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(as), LaunchArg::tensor(bs), LaunchArg::tensor(out)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readInts(out), test::recurrenceExpected(a, b));
}

TEST_F(SimulatorCombine, AnOrderDependentCombineFoldsFromTheFirstElementOrFromTheLast) {
  const int N = 8;
  auto k = kernel("digit_scans", {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32),
                                  lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32), constInt(N)});
  ASSERT_TRUE(k);
  const std::vector<int64_t> x{3, 1, 4, 1, 5, 9, 2, 6};
  Memory mem;
  const int xs = mem.createFromInts("x", DType::I32, {N}, x);
  const int fwd = mem.create("fwd", DType::I32, {N});
  const int rev = mem.create("rev", DType::I32, {N});
  const int all = mem.create("all", DType::I32, {1});
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(fwd), LaunchArg::tensor(rev), LaunchArg::tensor(all)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readInts(fwd), test::digitScanExpected(x, false));
  EXPECT_EQ(mem.readInts(rev), test::digitScanExpected(x, true));
  EXPECT_EQ(mem.readInts(fwd).back(), 31415926);
  EXPECT_EQ(mem.readInts(rev).front(), 62951413);
  EXPECT_EQ(mem.readInts(all), std::vector<int64_t>{31415926});
}

// A runtime `if` in a combine function is both branches and a select: here the first nonzero element,
// which depends on the order, as Triton's fold defines it.
TEST_F(SimulatorCombine, ARuntimeIfInTheCombineSelectsPerElement) {
  auto k = kernel("first_nonzero_scan", {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32),
                                         lang::ArgSpec::pointer(DType::I32), constInt(8)});
  ASSERT_TRUE(k);
  Memory mem;
  const int xs = mem.createFromInts("x", DType::I32, {8}, test::kSparse);
  const int out = mem.create("out", DType::I32, {8});
  const int first = mem.create("first", DType::I32, {1});
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(out), LaunchArg::tensor(first)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readInts(out), test::firstNonzeroExpected(test::kSparse));
  EXPECT_EQ(mem.readInts(first), std::vector<int64_t>{3});
}

// tl.map_elementwise: a scalar function with an `if` on the element, two results, a scalar argument
// broadcast to the tile.
TEST_F(SimulatorCombine, MapElementwiseAppliesAScalarFunctionToEveryElement) {
  auto k = kernel("map_selu", {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32),
                               lang::ArgSpec::pointer(DType::FP32), constInt(8)});
  ASSERT_TRUE(k);
  const std::vector<double> x{-2.0, -0.5, 0.0, 0.25, 1.0, -1.0, 3.5, -0.125};
  Memory mem;
  const int xs = mem.createFromDoubles("x", DType::FP32, {8}, x);
  const int ys = mem.create("y", DType::FP32, {8});
  const int zs = mem.create("z", DType::FP32, {8});
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(ys), LaunchArg::tensor(zs)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  const std::vector<double> y = mem.readDoubles(ys), z = mem.readDoubles(zs);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(y[i], test::seluExpected(static_cast<float>(x[i]))) << x[i];
    EXPECT_EQ(z[i], 2.0 * y[i]) << x[i];
  }
}

}  // namespace
}  // namespace tilescope::sim
