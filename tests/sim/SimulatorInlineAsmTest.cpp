// tl.inline_asm_elementwise in the simulator: PTX cannot run on the CPU (Triton's interpreter lacks it
// too), so a launch stops with an error at the call's file:line:col that says to use the GPU backend.
#include <gtest/gtest.h>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/InlineAsmKernels.h"

namespace tilescope::sim {
namespace {

using ir::DType;

TEST(SimulatorInlineAsm, ALaunchSaysToRunItOnTheGpu) {
  auto program = lang::test::programFrom(test::kInlineAsmSource, "asm.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(8))};
  lang::CheckResult checked = lang::checkKernel(*program, "shift_left", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  Memory mem;
  const int x = mem.createFromInts("x", DType::I32, {8}, std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  const int y = mem.create("y", DType::I32, {8});
  Simulator sim(mem);
  auto r = sim.launch(*checked.kernel, Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(y)});
  EXPECT_EQ(r.status, LaunchStatus::Error);
  const std::string text = r.diagnostics.render();
  EXPECT_NE(text.find("asm.py:9:9: error: tl.inline_asm_elementwise runs PTX assembly, which the simulator cannot execute; "
                      "run this kernel on the GPU backend (--backend gpu)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tilescope::sim
