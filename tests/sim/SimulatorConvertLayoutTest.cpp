// ConvertLayout (core/ir/Expr.h) in the simulator: where a GPU keeps a tile's elements changes nothing
// they hold, so a kernel whose values all go through conversions (as the GPU pipeline's layout pass
// leaves them) computes exactly what it computed without them, loop-carried values included.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ir/IRMutator.h"
#include "core/ir/IRPrinter.h"
#include "core/ir/IRVerifier.h"
#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

// Every tile value without memory effects converted: 2-D fp32 tiles to #mma, 1-D ones to the row
// slice, the others to #blocked (and conversions of those conversions, for the nested case).
class ConvertEverything : public ir::IRMutator {
public:
  int converted = 0;

protected:
  ir::Stmt mutateLet(const ir::Let& n, const ir::Stmt& self) override {
    if (n.value.hasEffects() || !n.var->type.isTile()) return self;
    return ir::Let::make(n.var, convert(mutateExpr(n.value)), n.range);
  }
  ir::Stmt mutateAssign(const ir::Assign& n, const ir::Stmt& self) override {
    if (!n.var->type.isTile()) return self;
    return ir::Assign::make(n.var, convert(mutateExpr(n.value)), n.range);
  }

private:
  ir::Expr convert(const ir::Expr& e) {
    ++converted;
    const ir::Type& t = e.type();
    ir::TileLayout l;
    l.warpsM = 4;
    l.kind = ir::LayoutKind::Blocked;
    if (!t.isPointer() && t.dtype() == DType::FP32) l.kind = t.rank() == 2 ? ir::LayoutKind::Mma : ir::LayoutKind::RowSlice;
    ir::TileLayout back;
    back.kind = ir::LayoutKind::Blocked;
    return ir::ConvertLayout::make(ir::ConvertLayout::make(e, l), back);
  }
};

TEST(SimulatorConvertLayout, ConversionsAreTheIdentity) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, out_ptr, sums_ptr, n):
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    acc = tl.zeros([4, 8], dtype=tl.float32)
    rows = tl.zeros([4], dtype=tl.float32)
    for i in range(0, n):
        x = tl.load(x_ptr + i * 32 + offs)
        acc = acc * 0.5 + tl.exp(x)
        rows += tl.max(x, axis=1)
    tl.store(out_ptr + offs, acc)
    tl.store(sums_ptr + tl.arange(0, 4), rows)
)",
                                         "convert.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::pointer(DType::FP32),
               lang::ArgSpec::scalar(DType::I32)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  ConvertEverything converter;
  const ir::Kernel converted = converter.mutateKernel(*r.kernel);
  ASSERT_GE(converter.converted, 6);
  EXPECT_EQ(ir::IRVerifier::verify(converted), std::vector<std::string>{});
  ASSERT_NE(converted.dump().find("convert_layout"), std::string::npos);

  std::vector<double> x;
  for (int i = 0; i < 96; ++i) x.push_back(static_cast<float>(std::sin(i * 0.37) * 3.0));
  const auto run = [&](const ir::Kernel& kernel) {
    Memory mem;
    const int xs = mem.createFromDoubles("x", DType::FP32, {96}, x);
    const int out = mem.create("out", DType::FP32, {32});
    const int sums = mem.create("sums", DType::FP32, {4});
    Simulator sim(mem);
    auto ran = sim.launch(kernel, Grid{1}, {LaunchArg::tensor(xs), LaunchArg::tensor(out), LaunchArg::tensor(sums), LaunchArg::integer(3)});
    EXPECT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
    std::vector<double> all = mem.readDoubles(out);
    for (double s : mem.readDoubles(sums)) all.push_back(s);
    return all;
  };
  const std::vector<double> plain = run(*r.kernel), withConversions = run(converted);
  ASSERT_EQ(plain.size(), 36u);
  EXPECT_EQ(plain, withConversions);
  // Not all zeros: the comparison compares something.
  EXPECT_NE(plain[32], 0.0);
  EXPECT_NEAR(plain[0], std::exp(x[64]) + 0.5 * std::exp(x[32]) + 0.25 * std::exp(x[0]), 1e-5);
}

}  // namespace
}  // namespace tilescope::sim
