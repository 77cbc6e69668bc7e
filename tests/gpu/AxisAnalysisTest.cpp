// The pass analyse-axes and AxisAnalysis, table-driven: what the pass records in the kernel's `axes`
// table about runs along a tile's last dimension, for the index expressions Triton users write
// (aranges, row/column offsets, modulo wrap-around, K-loop masks), what it must not claim, and that
// the queries read that table.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/AxisAnalysis.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/gpu/passes/InductionTiles.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/IRVisitor.h"
#include "core/kernel/Checker.h"
#include "tests/gpu/CodegenTestUtil.h"
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
  std::map<std::string, int> ids;  // the last var of each name
  std::map<std::string, ir::VarPtr> vars;
  std::map<int, ir::VarPtr> byId;
  std::map<std::string, int> mutableIds;  // the mutable var of each name (`x += 1` makes a Let named x too)
  void visitStmt(const ir::Stmt& s) override {
    if (const auto* let = s.as<ir::Let>()) {
      values[let->var->name] = let->value;
      ids[let->var->name] = let->var->id;
      vars[let->var->name] = let->var;
      byId[let->var->id] = let->var;
      if (let->var->isMutable) mutableIds[let->var->name] = let->var->id;
    }
    ir::IRVisitor::visitStmt(s);
  }
};

// The facts the pass recorded for the var `name`.
const ir::VarAxisInfo& factsOf(const ir::Kernel& k, const LetsByName& lets, const std::string& name) {
  static const ir::VarAxisInfo none;
  auto id = lets.ids.find(name);
  if (id == lets.ids.end()) return none;
  auto it = k.axes.find(id->second);
  return it == k.axes.end() ? none : it->second;
}

}  // namespace

TEST(AnalyseAxes, RunsAlongTheLastDimension) {
  auto program = lang::test::programFrom(kSource, "k.py");
  lang::Specialization spec;
  const lang::ArgSpec i32Div16 = lang::ArgSpec::scalar(ir::DType::I32, true);
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), i32Div16, i32Div16, lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(32)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  const ir::Kernel k = gpu::passes::analyseAxes(gpu::passes::recordInductionTiles(*checked.kernel));
  EXPECT_TRUE(ir::IRVerifier::verify(k).empty());
  LetsByName lets;
  lets.visitKernel(k);
  const gpu::passes::AxisAnalysis axes(k);
  const int strideParam = 3;
  constexpr int64_t U = ir::AxisInfo::kUnbounded;
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
    ASSERT_TRUE(lets.ids.count(c.var));
    ASSERT_TRUE(k.axes.count(lets.ids.at(c.var)));
    // The table's entry for the var ...
    const ir::VarAxisInfo& entry = factsOf(k, lets, c.var);
    EXPECT_EQ(entry.info.contiguity, c.contiguity);
    EXPECT_EQ(entry.info.constancy, c.constancy);
    if (c.contiguity > 1) {
      EXPECT_EQ(entry.info.divisibility, c.divisibility);
    }
    EXPECT_EQ(entry.unitParams.count(strideParam) == 1, c.strideAssumedOne);
    // ... is what the query says about the var and about its value.
    for (const ir::Expr& e : {ir::VarRef::make(lets.vars.at(c.var)), lets.values.at(c.var)}) {
      std::set<int> unit;
      const ir::AxisInfo info = axes.of(e, unit);
      EXPECT_EQ(info.contiguity, c.contiguity);
      EXPECT_EQ(info.constancy, c.constancy);
      EXPECT_EQ(unit.count(strideParam) == 1, c.strideAssumedOne);
    }
  }
}

// A scalar assigned only `v = v + step` (a block pointer's offset, a hand-written `off += BK`) keeps
// the divisibility its initial value and its step share, so a K mask built on it is constant over
// runs; one started at 1 is not. The table records the step of such scalars.
TEST(AnalyseAxes, ScalarInductionsKeepTheirDivisibility) {
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
  const ir::Kernel k = gpu::passes::analyseAxes(gpu::passes::recordInductionTiles(*checked.kernel));
  LetsByName lets;
  lets.visitKernel(k);
  const gpu::passes::AxisAnalysis axes(k);
  for (const auto& [var, constancy] : {std::pair{"kmask_ind", 16}, std::pair{"kmask_odd", 1}, std::pair{"kmask_twice", 1}}) {
    SCOPED_TRACE(var);
    EXPECT_EQ(factsOf(k, lets, var).info.constancy, constancy);
    std::set<int> unit;
    EXPECT_EQ(axes.of(lets.values.at(var), unit).constancy, constancy);
  }
  // off and odd advance by BK (64) alone; twice by two assignments.
  std::map<std::string, std::string> steps;
  for (const auto& [id, entry] : k.axes) {
    if (!entry.inductionStep.defined()) continue;
    ASSERT_TRUE(lets.byId.count(id)) << "var #" << id;
    const std::string& name = lets.byId.at(id)->name;
    const auto* step = entry.inductionStep.as<ir::IntImm>();
    ASSERT_NE(step, nullptr) << name;
    steps[name] = std::to_string(step->value);
    ASSERT_TRUE(axes.scalarInductionStep(id).has_value());
    EXPECT_EQ(axes.scalarInductionStep(id)->get(), entry.inductionStep.get());
  }
  EXPECT_EQ(steps, (std::map<std::string, std::string>{{"off", "64"}, {"odd", "64"}}));
  ASSERT_TRUE(lets.mutableIds.count("twice"));
  EXPECT_FALSE(axes.scalarInductionStep(lets.mutableIds.at("twice")).has_value());
}

// A pointer tile advanced by `p += step` (the K loop's `offs_a += BK * stride_ak`) is its initial
// value plus the sum of its steps: it keeps the divisibility the initial value and every step
// share, which lets the pipeline prove its 16-byte chunks aligned. One advanced by a tile is not an
// induction tile: nothing is known about it (nor about one advanced twice per iteration, whose
// second step reads a Let rather than the tile).
TEST(AnalyseAxes, InductionTilesKeepTheDivisibilityTheirStepsShare) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, stride, n, K, BK: tl.constexpr):
    p_even = x_ptr + tl.arange(0, BK)
    p_odd = x_ptr + tl.arange(0, BK)
    p_tile = x_ptr + tl.arange(0, BK)
    s_even = BK * stride
    s_odd = n * 3 + 1
    for i in range(0, K, BK):
        a = tl.load(p_even)
        b = tl.load(p_odd)
        c = tl.load(p_tile)
        tl.store(x_ptr + s_odd + tl.arange(0, BK), a + b + c)
        p_even += s_even
        p_odd += s_odd
        p_tile += tl.arange(0, BK)
)",
                                         "k.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::scalar(ir::DType::I32, true),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  const ir::Kernel k = gpu::passes::analyseAxes(gpu::passes::recordInductionTiles(*checked.kernel));
  LetsByName lets;
  lets.visitKernel(k);
  const gpu::passes::AxisAnalysis axes(k);
  struct TileCase {
    const char* load;
    int64_t contiguity, divisibility;
  };
  for (const TileCase& c : {TileCase{"a", 64, 8},  // a step of 64 * (a multiple of 16); the fp16 base: 16 bytes
                            TileCase{"b", 64, 1},  // a step of unknown divisibility
                            TileCase{"c", 1, 1}}) {
    SCOPED_TRACE(c.load);
    ASSERT_TRUE(lets.values.count(c.load));
    const auto* load = lets.values.at(c.load).as<ir::Load>();
    ASSERT_NE(load, nullptr);
    // The loop carries the pointers in mutable vars of their own: the load reads one.
    const auto* ref = load->ptr.as<ir::VarRef>();
    ASSERT_NE(ref, nullptr);
    ASSERT_TRUE(ref->var->isMutable);
    ASSERT_TRUE(k.axes.count(ref->var->id));
    EXPECT_EQ(k.axes.at(ref->var->id).info.contiguity, c.contiguity);
    std::set<int> unit;
    const ir::AxisInfo info = axes.of(load->ptr, unit);
    EXPECT_EQ(info.contiguity, c.contiguity);
    EXPECT_EQ(info.divisibility, c.divisibility);
    EXPECT_EQ(info.divisibilityAt(8), std::min<int64_t>(c.divisibility, 8));
  }
}

// The table is printed after the IR (`tilescope-cli compile --emit ir-after=analyse-axes`), and the
// verifier rejects an entry for a var the kernel does not declare.
TEST(AnalyseAxes, TheTableIsPrintedAndVerified) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, stride, BK: tl.constexpr):
    offs = tl.program_id(0) * BK + tl.arange(0, BK)
    col = offs * stride
    tl.store(x_ptr + col, tl.load(x_ptr + offs))
)",
                                         "k.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32, true), lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(256))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  EXPECT_EQ(checked.kernel->dump().find("axes {"), std::string::npos);
  ir::Kernel k = gpu::passes::analyseAxes(gpu::passes::recordInductionTiles(*checked.kernel));
  const std::string text = k.dump();
  EXPECT_NE(text.find("axes {\n"), std::string::npos) << text;
  EXPECT_NE(text.find("offs (#"), std::string::npos) << text;
  EXPECT_NE(text.find("): contiguity 256, constancy 1, divisibility 256\n"), std::string::npos) << text;
  EXPECT_NE(text.find("): contiguity 256, constancy 1, divisibility 256, if %stride == 1\n"), std::string::npos) << text;
  EXPECT_TRUE(ir::IRVerifier::verify(k).empty());
  k.axes[k.varCount + 5] = ir::VarAxisInfo{};
  const std::vector<std::string> problems = ir::IRVerifier::verify(k);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("which the kernel does not declare"), std::string::npos) << problems[0];
  k.axes.erase(k.varCount + 5);
  k.axes.begin()->second.info.divisibility = 3;
  EXPECT_EQ(ir::IRVerifier::verify(k).size(), 1u);
}

// The emitter takes the facts from the table: with offs's entry as the pass wrote it, the loads
// and stores through x_ptr + offs are proven consecutive and aligned (no run-time check); with the
// entry edited to know nothing, each group is checked at run time instead.
TEST(AnalyseAxes, TheEmitterReadsTheTable) {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2)
)",
                                         "k.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32, true), lang::ArgSpec::pointer(ir::DType::FP32, true),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(1024))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  ir::Kernel lowered = gpu::passes::lowerForGpu(*checked.kernel, gpu::passes::GpuTarget{}, nullptr, ir::passes::Verify::Always);
  const std::string proven = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(proven, gpu::CudaCodegen::generate(*checked.kernel).source);
  EXPECT_EQ(gpu::test::occurrences(proven, "// proven consecutive and aligned"), 2u) << proven;
  EXPECT_EQ(proven.find("if (ts_vec_ok("), std::string::npos) << proven;  // (the prelude defines it)
  LetsByName lets;
  lets.visitKernel(lowered);
  ASSERT_TRUE(lets.ids.count("offs"));
  lowered.axes.at(lets.ids.at("offs")).info = ir::AxisInfo{};
  const std::string checkedAtRunTime = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(checkedAtRunTime.find("// proven consecutive and aligned"), std::string::npos) << checkedAtRunTime;
  EXPECT_EQ(gpu::test::occurrences(checkedAtRunTime, "if (ts_vec_ok("), 2u) << checkedAtRunTime;
}
