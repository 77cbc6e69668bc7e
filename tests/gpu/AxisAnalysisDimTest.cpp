// AxisAnalysis::ofDim, table-driven: runs along a 2-D tile's first dim (a pointer tile contiguous
// along axis 0, as `x @ W^T` with W stored N x K loads its K x N tile), which parameters it assumes
// to be 1 (only the stride multiplying the dim's run, never the other one), and that loop-carried
// pointer tiles keep the facts of their initial value along axis 0.
#include <gtest/gtest.h>

#include "core/gpu/passes/AxisAnalysis.h"
#include "core/gpu/passes/InductionTiles.h"
#include "core/ir/IRVisitor.h"
#include "core/kernel/Checker.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def k(w_ptr, N, K, stride_wn, stride_wk, BK: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    offs_n = (pid * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    w_t = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    w_t1 = w_ptr + offs_k[:, None] + offs_n[None, :] * stride_wn
    w_k = w_ptr + offs_k[:, None] * 1 + offs_n[None, :] * K
    w_rows = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :]
    k2 = offs_k[:, None] * 2 + offs_n[None, :] * 0
    k8 = 8 + offs_k[:, None] + offs_n[None, :] * 0
    kmask = (offs_k[:, None] < K) & (offs_n[None, :] < N)
    t = tl.trans(w_ptr + offs_n[:, None] * stride_wn + offs_k[None, :])
    acc = tl.zeros((BK, BN), tl.float32)
    w_loop = w_ptr + offs_k[:, None] + offs_n[None, :] * stride_wn
    for kk in range(0, K, BK):
        acc += tl.load(w_loop).to(tl.float32)
        w_loop += BK
    tl.store(w_ptr + offs_k[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
)";

class LetsByName : public ir::IRVisitor {
public:
  std::map<std::string, ir::Expr> values;
  void visitStmt(const ir::Stmt& s) override {
    if (const auto* let = s.as<ir::Let>(); let && !values.count(let->var->name)) values[let->var->name] = let->value;
    ir::IRVisitor::visitStmt(s);
  }
};

struct Case {
  const char* var;
  int dim;
  int64_t contiguity, constancy, divisibility;
  std::set<int> unitParams;  // by index: 3 stride_wn, 4 stride_wk
};

ir::Kernel analysed() {
  auto program = lang::test::programFrom(kSource, "k.py");
  lang::Specialization spec;
  const lang::ArgSpec i32Div16 = lang::ArgSpec::scalar(ir::DType::I32, true);
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), i32Div16, i32Div16, i32Div16, lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(32)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(128))};
  lang::CheckResult checked = lang::checkKernel(*program, "k", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return gpu::passes::analyseAxes(gpu::passes::recordInductionTiles(*checked.kernel));
}

}  // namespace

TEST(AxisAnalysisDim, RunsAlongTheFirstDimension) {
  const ir::Kernel k = analysed();
  LetsByName lets;
  lets.visitKernel(k);
  const gpu::passes::AxisAnalysis axes(k);
  for (const Case& c : {
           // W^T's K x N tile: along axis 0 contiguous when stride_wk is 1, stride_wn not assumed.
           Case{"w_t", 0, 32, 1, 8, {4}},
           // ... and along its last dim only if stride_wn were 1 (what `of` says).
           Case{"w_t", 1, 16, 1, 1, {3}},
           Case{"w_t1", 0, 32, 1, 8, {}},   // unit K stride written as nothing: nothing assumed
           Case{"w_k", 0, 32, 1, 8, {}},    // * 1, N rows of K (a multiple of 16 elements apart)
           Case{"w_rows", 0, 32, 1, 1, {4}},  // row-major K x N: along axis 0 only if stride_wk were 1
           Case{"k2", 0, 1, 1, 1, {}},      // every other row
           Case{"k8", 0, 32, 1, 8, {}},     // 8 + arange along axis 0, constant along axis 1
           Case{"k8", 1, 1, 128, 1, {}},
           Case{"kmask", 0, 1, 16, 1, {}},  // arange < K (a multiple of 16) over runs of 16 along axis 0
           Case{"kmask", 1, 1, 16, 1, {}},  // ... and offs_n < N along axis 1
           Case{"t", 0, 32, 1, 8, {}},      // tl.trans of an N x K tile: its axis 0 is the source's last dim
           Case{"t", 1, 1, 1, 1, {}},       // its last dim: what `of` says (nothing through a Permute of the last dim)
       }) {
    SCOPED_TRACE(std::string(c.var) + " along " + std::to_string(c.dim));
    ASSERT_TRUE(lets.values.count(c.var));
    std::set<int> unit;
    const ir::AxisInfo info = axes.ofDim(lets.values.at(c.var), c.dim, unit);
    EXPECT_EQ(info.contiguity, c.contiguity);
    EXPECT_EQ(info.constancy, c.constancy);
    if (c.contiguity > 1) {
      EXPECT_EQ(info.divisibility, c.divisibility);
    }
    EXPECT_EQ(unit, c.unitParams);
  }
}

// A loop-carried pointer tile (`w_ptrs += BK`): its initial value's facts along axis 0, with the
// divisibility its steps share; a tile var defined nowhere the analysis can see has none.
TEST(AxisAnalysisDim, InductionTilesKeepTheirFirstDimRuns) {
  const ir::Kernel k = analysed();
  ASSERT_FALSE(k.inductionTiles.empty());
  const gpu::passes::AxisAnalysis axes(k);
  for (const auto& [id, tile] : k.inductionTiles) {
    std::set<int> unit;
    const ir::AxisInfo info = axes.ofDim(ir::VarRef::make(tile.var), 0, unit);
    EXPECT_EQ(info.contiguity, 32);
    EXPECT_EQ(info.divisibility, 8);  // the base's 16 bytes; steps of 32 elements
    EXPECT_TRUE(unit.empty());
    std::set<int> none;
    const ir::VarPtr stranger = ir::Var::make("stranger", k.varCount + 7, tile.var->type, {}, false);
    EXPECT_EQ(axes.ofDim(ir::VarRef::make(stranger), 0, none).contiguity, 1);
  }
}
