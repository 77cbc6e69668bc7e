// The representation passes: find-induction-tiles (which mutable tiles are their initial value plus
// scalar steps) and mark-recomputed-values (which immutable tiles are recomputed where used), the
// tables they record (printed after the IR, verified), and the CUDA emitter following exactly those
// tables.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/gpu/passes/InductionTiles.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/IRVisitor.h"
#include "tests/gpu/CodegenTestUtil.h"

using namespace tilescope;

namespace {

const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, stride, n, K, BK: tl.constexpr):
    p_even = x_ptr + tl.arange(0, BK)
    p_twice = x_ptr + tl.arange(0, BK)
    p_tile = x_ptr + tl.arange(0, BK)
    s_even = BK * stride
    s_odd = n * 3 + 1
    for i in range(0, K, BK):
        a = tl.load(p_even)
        b = tl.load(p_twice)
        c = tl.load(p_tile)
        tl.store(y_ptr + tl.arange(0, BK), a + b + c)
        p_even += s_even
        p_twice += s_even
        p_twice += s_odd
        p_tile += tl.arange(0, BK)
)";

lang::Specialization specialization() {
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32, true), lang::ArgSpec::pointer(ir::DType::FP32, true),
               lang::ArgSpec::scalar(ir::DType::I32, true), lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(256))};
  return spec;
}

}  // namespace

// p_even is advanced by one scalar; p_twice's second step adds to a Let, not to the tile; p_tile
// by a tile. Only p_even is an induction tile.
TEST(FindInductionTiles, RecordsTilesAdvancedOnlyByScalars) {
  ir::KernelPtr checked = gpu::test::kernelFrom(kSource, "k", specialization());
  ASSERT_TRUE(checked);
  ir::Kernel k = gpu::passes::recordInductionTiles(*checked);
  EXPECT_TRUE(ir::IRVerifier::verify(k).empty());
  ASSERT_EQ(k.inductionTiles.size(), 1u) << k.dump();
  const ir::InductionTile& tile = k.inductionTiles.begin()->second;
  EXPECT_EQ(tile.var->name, "p_even");
  EXPECT_TRUE(tile.var->isMutable);
  ASSERT_EQ(tile.steps.size(), 1u);
  const auto* step = tile.steps.begin()->second.as<ir::VarRef>();
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->var->name, "s_even");
  const std::string text = k.dump();
  EXPECT_NE(text.find("induction tiles {\n  p_even (#" + std::to_string(tile.var->id) +
                      "): its initial value + a scalar offset, advanced by p_even (#" + std::to_string(tile.steps.begin()->first) +
                      "): s_even (#" + std::to_string(step->var->id) + ")\n}\n"),
            std::string::npos)
      << text;
  // An entry for a var that is not a mutable tile is an invariant the verifier names.
  k.inductionTiles[step->var->id] = ir::InductionTile{step->var, tile.init, {}};
  const std::vector<std::string> problems = ir::IRVerifier::verify(k);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("not a mutable tile var"), std::string::npos) << problems[0];
}

// The emitter keeps the table's tiles, and only those, as an initial value plus an offset register.
TEST(FindInductionTiles, TheEmitterKeepsTheTablesTilesAsAnOffset) {
  ir::KernelPtr checked = gpu::test::kernelFrom(kSource, "k", specialization());
  ASSERT_TRUE(checked);
  ir::Kernel lowered = gpu::passes::lowerForGpu(*checked, gpu::passes::GpuTarget{}, nullptr, ir::passes::Verify::Always);
  ASSERT_EQ(lowered.inductionTiles.size(), 1u);
  const std::string asFound = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(asFound, gpu::CudaCodegen::generate(*checked).source);
  EXPECT_EQ(gpu::test::occurrences(asFound, "_off = 0;"), 1u) << asFound;
  EXPECT_NE(asFound.find("p_even_off += (ts_i64)("), std::string::npos) << asFound;
  lowered.inductionTiles.clear();
  const std::string without = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(without.find("_off"), std::string::npos) << without;
}

// mark-recomputed-values: the immutable tiles whose value is index-pure (offsets, pointers, masks,
// splats of constants), not loaded values, results of math, or mutable tiles; the emitter stores
// exactly the others.
TEST(MarkRecomputedValues, MarksImmutableIndexPureTilesAndTheEmitterRecomputesThem) {
  const char* source = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    e = tl.exp(x)
    acc = tl.zeros((B,), tl.float32)
    for i in range(0, 2):
        acc += e
    tl.store(y_ptr + offs, acc, mask=mask)
)";
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32, true), lang::ArgSpec::pointer(ir::DType::FP32, true),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(256))};
  ir::KernelPtr checked = gpu::test::kernelFrom(source, "k", spec);
  ASSERT_TRUE(checked);
  ir::Kernel lowered = gpu::passes::lowerForGpu(*checked, gpu::passes::GpuTarget{}, nullptr, ir::passes::Verify::Always);
  std::set<std::string> names;
  for (int id : lowered.recomputedAtUse) {
    const std::string text = lowered.dump();
    const size_t at = text.find(" (#" + std::to_string(id) + ")\n", text.find("recomputed at use {"));
    ASSERT_NE(at, std::string::npos) << text;
    names.insert(text.substr(text.rfind('\n', at) + 3, at - text.rfind('\n', at) - 3));
  }
  // acc's initial value (the zeros the loop-carried var starts from) is index-pure too.
  EXPECT_EQ(names, (std::set<std::string>{"offs", "mask", "acc"}));
  const std::string asMarked = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_EQ(asMarked, gpu::CudaCodegen::generate(*checked).source);
  // Recomputed values have no per-thread array; the others do.
  EXPECT_EQ(asMarked.find("_offs["), std::string::npos) << asMarked;
  EXPECT_NE(asMarked.find("_e["), std::string::npos) << asMarked;
  // Unmarked, offs is stored like any other tile.
  lowered.recomputedAtUse.clear();
  const std::string stored = gpu::CudaCodegen::emitLowered(lowered).source;
  EXPECT_NE(stored.find("_offs["), std::string::npos) << stored;
  // A mark on a mutable var (acc) is an invariant the verifier names.
  class MutableTile : public ir::IRVisitor {
  public:
    int id = -1;
    void visitStmt(const ir::Stmt& s) override {
      if (const auto* let = s.as<ir::Let>(); let && let->var->isMutable && let->var->type.isTile()) id = let->var->id;
      ir::IRVisitor::visitStmt(s);
    }
  } acc;
  acc.visitKernel(lowered);
  ASSERT_GE(acc.id, 0);
  lowered.recomputedAtUse.insert(acc.id);
  const std::vector<std::string> problems = ir::IRVerifier::verify(lowered);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("is not an immutable tile var"), std::string::npos) << problems[0];
}
