// Must-fail combine functions and mapped functions: what cannot be inlined on scalars (loops,
// memory accesses) is reported at its own line with what is allowed instead, and mapped arguments
// must be values.
#include <gtest/gtest.h>

#include "CheckerTestUtil.h"

namespace tilescope::lang {
namespace {

const char* const kSource = R"(import triton
import triton.language as tl

@triton.jit
def looping(a, b):
    for i in range(3):
        a = a + b
    return a

@triton.jit
def plus(a, b):
    return a + b

@triton.jit
def k(x_ptr, out_ptr, WHICH: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if WHICH == 0:
        s = tl.reduce(x, 0, looping)
    else:
        s = tl.sum(tl.map_elementwise(plus, x, x_ptr))
    tl.store(out_ptr, s)
)";

std::string firstError(int which) {
  auto program = test::programFrom(kSource, "k.py");
  Specialization spec;
  spec.args = {ArgSpec::pointer(ir::DType::FP32), ArgSpec::pointer(ir::DType::FP32), ArgSpec::constexprValue(ConstValue::integer(which))};
  const CheckResult r = checkKernel(*program, "k", spec);
  EXPECT_FALSE(r.ok());
  return r.diagnostics.empty() ? "" : r.diagnostics.items()[0].headline();
}

TEST(CheckerCombine, ALoopInACombineFunctionIsReportedWhereItIs) {
  EXPECT_EQ(firstError(0), "k.py:6:5: error: 'looping', the combine function of tl.reduce, may only compute values from its "
                           "parameters (arithmetic, comparisons, tl.where, `if`s); memory accesses, prints and loops cannot run inside it");
}

TEST(CheckerCombine, MapElementwiseTakesValues) {
  EXPECT_EQ(firstError(1), "k.py:20:48: error: tl.map_elementwise maps values, not pointers; load them first");
}

}  // namespace
}  // namespace tilescope::lang
