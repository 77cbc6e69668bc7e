// AxisAnalysis, table-driven: what it proves about runs along a tile's last dimension, for the index
// expressions Triton users write (aranges, row/column offsets, modulo wrap-around, K-loop masks),
// and what it must not claim.
#include <gtest/gtest.h>

#include "core/gpu/passes/AxisInfo.h"
#include "core/ir/IRVisitor.h"
#include "core/kernel/Checker.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, M, K, stride, s2, BM: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rk = tl.arange(0, BK)
    rk8 = 8 + tl.arange(0, BK)
    rk4 = 4 + tl.arange(0, BK)
    wrapped = (pid * BM + tl.arange(0, BM)) % M
    row = rm[:, None] * stride
    col = rk[None, :] * stride
    col2 = rk[None, :] * 2
    ptrs = x_ptr + row + rk[None, :]
    strided = x_ptr + row + col
    doubled = x_ptr + row + col2
    rows_only = x_ptr + rm[:, None] + rk[None, :] * 0
    kmask = rk[None, :] < K - pid * BK
    kmask4 = rk4[None, :] < K
    kmask8 = rk8[None, :] < K
    both = (rm[:, None] < M) & (rk[None, :] < K)
    le = K > rk[None, :]
    eq = rk[None, :] == K
    hinted = tl.max_contiguous(tl.multiple_of(rk * (s2 + 1), 16), 16)
    wide = (rk - 32).to(tl.int64)
    unsigned = (rk - 32).to(tl.uint32)
    tl.store(x_ptr + rm[:, None] * BK + rk[None, :], tl.zeros((BM, BK), tl.float16))
)";

struct Case {
  const char* var;
  int64_t contiguity, constancy, divisibility;
  bool strideAssumedOne;
};

class LetsByName : public ir::IRVisitor {
public:
  std::map<std::string, ir::Expr> values;
  void visitStmt(const ir::Stmt& s) override {
    if (const auto* let = s.as<ir::Let>()) values[let->var->name] = let->value;
    ir::IRVisitor::visitStmt(s);
  }
};

}  // namespace

TEST(AxisInfo, RunsAlongTheLastDimension) {
  auto program = lang::test::programFrom(kSource, "k.py");
  lang::Specialization spec;
  const lang::ArgSpec i32Div16 = lang::ArgSpec::scalar(ir::DType::I32, true);
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), i32Div16, i32Div16, lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(32)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  LetsByName lets;
  lets.visitKernel(*checked.kernel);
  const gpu::AxisAnalysis axes(*checked.kernel, {});
  const int strideParam = 3;
  constexpr int64_t U = gpu::AxisInfo::kUnbounded;
  for (const Case& c : {
           Case{"rm", 32, 1, 32, false},         // pid * 32 + arange: one run starting at a multiple of 32
           Case{"rk", 64, 1, U, false},          // arange(0, 64): starts at 0
           Case{"rk8", 64, 1, 8, false},         // 8 + arange
           Case{"wrapped", 16, 1, 16, false},    // % M with M a multiple of 16: runs of 16 never wrap
           Case{"row", 1, 1, 1, false},          // a column of row offsets: its last dim is 1
           Case{"col", 64, 1, U, true},          // arange * stride: contiguous only if stride == 1
           Case{"col2", 1, 1, 1, false},         // arange * 2: every other element
           Case{"ptrs", 64, 1, 1, false},        // base + row * stride + column
           Case{"strided", 64, 1, 1, true},      // ... + column * stride
           Case{"doubled", 1, 1, 1, false},      // ... + column * 2: not contiguous
           Case{"rows_only", 1, 64, 1, false},   // column * 0: constant along rows
           Case{"kmask", 1, 16, 1, false},       // arange < K - pid * BK: K and BK multiples of 16
           Case{"kmask4", 1, 4, 1, false},       // 4 + arange < K: runs of 4 only
           Case{"kmask8", 1, 8, 1, false},       // 8 + arange < K: runs of 8
           Case{"both", 1, 16, 1, false},        // row mask & column mask
           Case{"le", 1, 16, 1, false},          // K > arange is arange < K
           Case{"eq", 1, 1, 1, false},           // == splits runs
           Case{"hinted", 16, 1, 16, false},     // the user's promise
           Case{"wide", 64, 1, 32, false},       // i32 -> i64 keeps values
           Case{"unsigned", 1, 1, 1, false},     // i32 -> u32 breaks the run at 0
       }) {
    SCOPED_TRACE(c.var);
    ASSERT_TRUE(lets.values.count(c.var));
    std::set<int> unit;
    const gpu::AxisInfo info = axes.of(lets.values.at(c.var), unit);
    EXPECT_EQ(info.contiguity, c.contiguity);
    EXPECT_EQ(info.constancy, c.constancy);
    if (c.contiguity > 1) {
      EXPECT_EQ(info.divisibility, c.divisibility);
    }
    EXPECT_EQ(unit.count(strideParam) == 1, c.strideAssumedOne);
  }
}

// A scalar assigned only `v = v + step` (a block pointer's offset, a hand-written `off += BK`) keeps
// the divisibility its initial value and its step share, so a K mask built on it is constant over
// runs; one started at 1 is not.
TEST(AxisInfo, ScalarInductionsKeepTheirDivisibility) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, K, BK: tl.constexpr):
    off = 0
    odd = 1
    twice = 0
    for i in range(0, K, BK):
        kmask_ind = (off + tl.arange(0, BK)) < K
        kmask_odd = (odd + tl.arange(0, BK)) < K
        kmask_twice = (twice + tl.arange(0, BK)) < K
        x = tl.load(x_ptr + off + tl.arange(0, BK), mask=kmask_ind & kmask_odd & kmask_twice)
        tl.store(x_ptr + tl.arange(0, BK), x)
        off += BK
        odd += BK
        twice += BK
        twice += 1
)",
                                               "k.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::scalar(ir::DType::I32, true),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  LetsByName lets;
  lets.visitKernel(*checked.kernel);
  const gpu::AxisAnalysis axes(*checked.kernel, {});
  for (const auto& [var, constancy] : {std::pair{"kmask_ind", 16}, std::pair{"kmask_odd", 1}, std::pair{"kmask_twice", 1}}) {
    SCOPED_TRACE(var);
    ASSERT_TRUE(lets.values.count(var));
    std::set<int> unit;
    EXPECT_EQ(axes.of(lets.values.at(var), unit).constancy, constancy);
  }
}

// A pointer tile advanced by `p += step` (the K loop's `offs_a += BK * stride_ak`) is its initial
// value plus the sum of its steps: it keeps the divisibility the initial value and every step
// share, which lets the pipeline prove its 16-byte chunks aligned.
TEST(AxisInfo, InductionTilesKeepTheDivisibilityTheirStepsShare) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, stride, n, K, BK: tl.constexpr):
    p = x_ptr + tl.arange(0, BK)
    s_even = BK * stride
    s_odd = n * 3 + 1
    for i in range(0, K, BK):
        x = tl.load(p)
        tl.store(x_ptr + s_odd + tl.arange(0, BK), x)
        p += s_even
)",
                                         "k.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::scalar(ir::DType::I32, true),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  LetsByName lets;
  lets.visitKernel(*checked.kernel);
  for (const char* name : {"x", "s_even", "s_odd"}) ASSERT_TRUE(lets.values.count(name)) << name;
  const auto* load = lets.values.at("x").as<ir::Load>();
  ASSERT_NE(load, nullptr);
  const auto* ref = load->ptr.as<ir::VarRef>();
  ASSERT_NE(ref, nullptr);
  // The loop carries `p` in a mutable var of its own (three vars are named p): its Let's value is
  // the initial value.
  class InitOf : public ir::IRVisitor {
  public:
    int id = -1;
    ir::Expr init;
    void visitStmt(const ir::Stmt& s) override {
      if (const auto* let = s.as<ir::Let>(); let && let->var->id == id) init = let->value;
      ir::IRVisitor::visitStmt(s);
    }
  } initOf;
  initOf.id = ref->var->id;
  initOf.visitKernel(*checked.kernel);
  ASSERT_TRUE(initOf.init.defined());
  struct StepCase {
    const char* what;
    std::vector<const char*> steps;
    int64_t divisibility;
  };
  for (const StepCase& c : {StepCase{"a step of 64 * (a multiple of 16)", {"s_even"}, 8},  // the fp16 base: 16 bytes
                            StepCase{"and a step of unknown divisibility", {"s_even", "s_odd"}, 1},
                            StepCase{"no step known", {}, 1}}) {
    SCOPED_TRACE(c.what);
    gpu::InductionFacts facts{initOf.init, {}};
    for (const char* s : c.steps) facts.steps.push_back(lets.values.at(s));
    const gpu::AxisAnalysis axes(*checked.kernel, {{ref->var->id, facts}});
    std::set<int> unit;
    const gpu::AxisInfo info = axes.of(load->ptr, unit);
    EXPECT_EQ(info.contiguity, 64);
    EXPECT_EQ(info.divisibility, c.divisibility);
    EXPECT_EQ(info.divisibilityAt(8), std::min<int64_t>(c.divisibility, 8));
  }
}
