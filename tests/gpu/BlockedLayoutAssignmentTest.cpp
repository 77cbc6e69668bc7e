// The pass assign-blocked-layouts: every tile var that assign-layouts left alone gets the blocked
// layout, with the kernel-wide vector width of its numel (which the kernel's blockedVectorWidths
// table gives temporaries too), printed after the IR; and the CUDA emitter takes the vector width
// from that table.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/BlockedLayoutAssignment.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/IRVisitor.h"
#include "tests/gpu/CodegenTestUtil.h"

using namespace tilescope;

namespace {

const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, h_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    grid = tl.reshape(x, (32, 32))
    tl.store(x_ptr + offs, tl.reshape(grid * 2, (BLOCK,)), mask=offs < n)
    hoffs = tl.arange(0, 2 * BLOCK)
    h = tl.load(h_ptr + hoffs)
    tl.store(h_ptr + hoffs, h)
    small = tl.arange(0, 128)
    tl.store(x_ptr + small, small.to(tl.float32))
    rows = tl.arange(0, 256)
    col = rows[:, None]
    tl.store(x_ptr + col, col.to(tl.float32))
)";

lang::Specialization specialization() {
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32, true), lang::ArgSpec::pointer(ir::DType::FP16, true),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(1024))};
  return spec;
}

std::map<std::string, int> varIds(const ir::Kernel& k) {
  class Lets : public ir::IRVisitor {
  public:
    std::map<std::string, int> ids;
    void visitStmt(const ir::Stmt& s) override {
      if (const auto* let = s.as<ir::Let>()) ids[let->var->name] = let->var->id;
      ir::IRVisitor::visitStmt(s);
    }
  } lets;
  lets.visitKernel(k);
  return lets.ids;
}

}  // namespace

TEST(AssignBlockedLayouts, EveryTileVarGetsTheBlockedLayoutOfItsNumel) {
  ir::KernelPtr checked = gpu::test::kernelFrom(kSource, "k", specialization());
  ASSERT_TRUE(checked);
  const ir::Kernel k = gpu::passes::assignBlockedLayouts(*checked);
  EXPECT_TRUE(ir::IRVerifier::verify(k).empty());
  // 4 warps: 128 threads. fp32 accesses take groups of 4, fp16 ones of 8; 128 elements leave no
  // thread a second element; a [256, 1] tile's last dim forbids groups for every tile of 256.
  EXPECT_EQ(k.blockedVectorWidths, (std::map<int64_t, int>{{128, 1}, {256, 1}, {1024, 4}, {2048, 8}}));
  struct Case {
    const char* var;
    int vec, slots;
    std::vector<int> order;
  };
  const std::map<std::string, int> ids = varIds(k);
  for (const Case& c : {Case{"offs", 4, 8, {0}}, Case{"x", 4, 8, {0}}, Case{"grid", 4, 8, {1, 0}}, Case{"hoffs", 8, 16, {0}},
                        Case{"h", 8, 16, {0}}, Case{"small", 1, 1, {0}}, Case{"rows", 1, 2, {0}}, Case{"col", 1, 2, {1, 0}}}) {
    SCOPED_TRACE(c.var);
    ASSERT_TRUE(ids.count(c.var));
    ASSERT_TRUE(k.layouts.count(ids.at(c.var)));
    const ir::TileLayout& l = k.layouts.at(ids.at(c.var));
    EXPECT_EQ(l.kind, ir::LayoutKind::Blocked);
    EXPECT_EQ(l.vec, c.vec);
    EXPECT_EQ(l.threads, 128);
    EXPECT_EQ(l.slotsPerThread, c.slots);
    EXPECT_EQ(l.order, c.order);
  }
  // Every tile var has one, no scalar has one.
  class Vars : public ir::IRVisitor {
  public:
    std::set<int> tiles, scalars;
    void visitStmt(const ir::Stmt& s) override {
      if (const auto* let = s.as<ir::Let>()) (let->var->type.isTile() ? tiles : scalars).insert(let->var->id);
      ir::IRVisitor::visitStmt(s);
    }
  } vars;
  vars.visitKernel(k);
  std::set<int> laidOut;
  for (const auto& [id, l] : k.layouts) laidOut.insert(id);
  EXPECT_EQ(laidOut, vars.tiles);
  EXPECT_FALSE(vars.scalars.empty());
  // Printed after the IR.
  const std::string text = k.dump();
  EXPECT_NE(text.find("layouts {\n  tiles of 128 elements: blocked, vec=1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  tiles of 2048 elements: blocked, vec=8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  grid (#" + std::to_string(ids.at("grid")) + "): #blocked<vec=4, threads=128, slots=8, order=[1, 0]>\n"),
            std::string::npos)
      << text;
}

// Values that assign-layouts kept in registers keep their layout; a Blocked entry that disagrees
// with the kernel's width is an invariant the verifier names.
TEST(AssignBlockedLayouts, KeepsRegisterLayoutsAndIsVerified) {
  ir::KernelPtr checked = gpu::test::kernelFrom(kSource, "k", specialization());
  ASSERT_TRUE(checked);
  ir::Kernel before = *checked;
  const int x = varIds(before).at("x");
  ir::TileLayout mma;
  mma.kind = ir::LayoutKind::Mma;
  mma.warpsM = 4;
  before.layouts[x] = mma;
  ir::Kernel k = gpu::passes::assignBlockedLayouts(before);
  EXPECT_EQ(k.layouts.at(x).kind, ir::LayoutKind::Mma);
  EXPECT_TRUE(ir::IRVerifier::verify(k).empty());
  const int h = varIds(k).at("h");
  k.layouts.at(h).vec = 4;
  const std::vector<std::string> problems = ir::IRVerifier::verify(k);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("var 'h'"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("not the kernel's blocked layout"), std::string::npos) << problems[0];
}

// The emitter prints what the table says: the lowered kernel as it is gives generate()'s CUDA, and
// a hand-edited vector width for 1024-element tiles changes the emitted groups from 4 to 2.
TEST(AssignBlockedLayouts, TheEmitterTakesTheVectorWidthFromTheTable) {
  ir::KernelPtr checked = gpu::test::kernelFrom(kSource, "k", specialization());
  ASSERT_TRUE(checked);
  ir::Kernel lowered = gpu::passes::lowerForGpu(*checked, gpu::passes::GpuTarget{}, nullptr, ir::passes::Verify::Always);
  const std::string asChosen = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(asChosen, gpu::CudaCodegen::generate(*checked).source);
  EXPECT_NE(asChosen.find("ts_tid * 4"), std::string::npos) << asChosen;
  EXPECT_EQ(asChosen.find("ts_tid * 2;"), std::string::npos) << asChosen;
  lowered.blockedVectorWidths.at(1024) = 2;
  const std::string edited = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(edited.find("ts_tid * 4"), std::string::npos) << edited;
  EXPECT_NE(edited.find("ts_i0 = ts_g * 256 + ts_tid * 2;"), std::string::npos) << edited;
  // The fp16 tiles of 2048 elements keep their groups of 8.
  EXPECT_NE(edited.find("ts_i0 = ts_g * 1024 + ts_tid * 8;"), std::string::npos) << edited;
}

TEST(AssignBlockedLayouts, VectorWidthFitsEveryShapeOfTheNumel) {
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{1024}}, 128), 4);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{1024}, {32, 32}}, 128), 4);
  // expand_dims to [1024, 1]: the last dimension 1 forbids groups.
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{1024}, {1024, 1}}, 128), 1);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{512, 2}}, 128), 2);
  // Every thread keeps at least one group: 256 elements over 128 threads give vec 2, 128 give 1.
  EXPECT_EQ(gpu::passes::chooseVectorWidth(256, {{256}}, 128), 2);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(128, {{128}}, 128), 1);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1000, {{1000}}, 128), 4);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1002, {{1002}}, 128), 2);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1001, {{1001}}, 128), 1);
  // 2-byte elements: 16-byte accesses take 8 of them, where numel and every shape allow it.
  EXPECT_EQ(gpu::passes::chooseVectorWidth(2048, {{2048}}, 128, 2), 8);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(2048, {{2048}}, 128, 1), 8);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{1024}}, 128, 2), 8);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(1024, {{256, 4}}, 128, 2), 4);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(512, {{512}}, 128, 2), 4);
  EXPECT_EQ(gpu::passes::chooseVectorWidth(2048, {{2048}}, 128, 8), 4);
}
