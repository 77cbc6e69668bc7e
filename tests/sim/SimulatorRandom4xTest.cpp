// tl.rand4x / tl.randn4x in the simulator: composed as Triton's random.py writes them, their first
// outputs are tl.rand's and tl.randn's bits (which are Triton's, SimulatorNumerics checks), and all
// four are in range.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

TEST(SimulatorRandom4x, FirstOutputsAreRandAndRandnBitForBit) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(out_ptr, seed):
    offs = tl.arange(0, 64)
    u1, u2, u3, u4 = tl.rand4x(seed, offs)
    n1, n2, n3, n4 = tl.randn4x(seed, offs)
    tl.store(out_ptr + offs, u1)
    tl.store(out_ptr + 64 + offs, tl.rand(seed, offs))
    tl.store(out_ptr + 128 + offs, n1)
    tl.store(out_ptr + 192 + offs, tl.randn(seed, offs))
    tl.store(out_ptr + 256 + offs, tl.minimum(tl.minimum(u2, u3), u4))
    tl.store(out_ptr + 320 + offs, tl.maximum(tl.maximum(u2, u3), u4))
    tl.store(out_ptr + 384 + offs, n2 + n3 + n4)
)",
                                         "rand.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::FP32), lang::ArgSpec::scalar(DType::I32)};
  lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  Memory mem;
  const int out = mem.create("out", DType::FP32, {448});
  Simulator sim(mem);
  auto ran = sim.launch(*r.kernel, Grid{1}, {LaunchArg::tensor(out), LaunchArg::integer(1234)});
  ASSERT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
  const std::vector<double> o = mem.readDoubles(out);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(o[i], o[64 + i]) << i;
    EXPECT_EQ(o[128 + i], o[192 + i]) << i;
    EXPECT_GE(o[256 + i], 0.0);
    EXPECT_LT(o[320 + i], 1.0);
    EXPECT_TRUE(std::isfinite(o[384 + i]));
  }
  EXPECT_NE(o[0], o[1]);
}

}  // namespace
}  // namespace tilescope::sim
