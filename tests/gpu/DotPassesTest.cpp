// The dot passes of the GPU pipeline (core/gpu/passes: select-dot-lowering,
// keep-accumulators-resident, pipeline-dot-loops) record their plan on the kernel (core/ir/DotPlan.h):
// what each records for representative K loops (a pipelined fp16 matmul, a tf32 matmul on sm_90a,
// TMA descriptor boxes, loops that must not be pipelined and why), that the plan is printed and
// verified, and that the CUDA emitter prints what the plan says (a hand-edited plan changes the code).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/IRVerifier.h"
#include "core/ir/IRVisitor.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/gpu/DescriptorKernels.h"

using namespace tilescope;

namespace {

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec S(ir::DType t = ir::DType::I32, bool divisibleBy16 = false) { return lang::ArgSpec::scalar(t, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

// A K loop as Triton users write it; A_MASK is replaced by a load's mask (or nothing).
const char* kMatmul = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, stride_am, stride_ak, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs A_MASK)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";

ir::KernelPtr matmul(ir::DType elem, int stages, const std::string& mask = "", int64_t bm = 64, int64_t bn = 64, int64_t bk = 32) {
  std::string src = kMatmul;
  src.replace(src.find("A_MASK"), 6, mask);
  lang::Specialization spec;
  spec.args = {P(elem), P(elem), P(ir::DType::FP32), S(ir::DType::I32, true), S(), S(), S(), C(bm), C(bn), C(bk)};
  spec.options.numWarps = 4;
  spec.options.numStages = stages;
  return gpu::test::kernelFrom(src, "mm", spec);
}

// Var ids by name: Lets and loop vars (the first of a name), and the mutable ones (`var x = ...`).
class Names : public ir::IRVisitor {
public:
  std::map<std::string, int> ids, mutableIds;

protected:
  void visitLet(const ir::Let& n) override {
    ids.emplace(n.var->name, n.var->id);
    if (n.var->isMutable) mutableIds.emplace(n.var->name, n.var->id);
    ir::IRVisitor::visitLet(n);
  }
  void visitFor(const ir::For& n) override {
    ids.emplace(n.iv->name, n.iv->id);
    ir::IRVisitor::visitFor(n);
  }
};

std::map<std::string, int> idsOf(const ir::Kernel& k) {
  Names names;
  names.visitStmt(k.body);
  return names.ids;
}

std::map<std::string, int> mutableIdsOf(const ir::Kernel& k) {
  Names names;
  names.visitStmt(k.body);
  return names.mutableIds;
}

ir::Kernel lower(const ir::Kernel& k, const gpu::CudaCodegenOptions& options) {
  return gpu::passes::lowerForGpu(k, gpu::gpuTargetOf(options), nullptr, ir::passes::Verify::Always);
}

gpu::CudaCodegenOptions sm(int arch) {
  gpu::CudaCodegenOptions o;
  o.smArch = arch;
  return o;
}

}  // namespace

TEST(DotPasses, APipelinedFp16MatmulRecordsWmmaAResidentAccumulatorAndItsRing) {
  ir::KernelPtr k = matmul(ir::DType::FP16, 3);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, sm(80));
  const std::map<std::string, int> ids = idsOf(lowered);
  const ir::DotPlan& plan = lowered.dotPlan;
  ASSERT_EQ(plan.dots.size(), 1u);
  const ir::DotLowering& dot = plan.dots.at(0);
  EXPECT_EQ(dot.engine, ir::DotEngine::Wmma);
  EXPECT_EQ(dot.tensorCores.elem, "f16");
  EXPECT_EQ(dot.tensorCores.m, 64);
  EXPECT_EQ(dot.tensorCores.n, 64);
  EXPECT_EQ(dot.tensorCores.k, 32);
  EXPECT_EQ(dot.tensorCores.lda, 40);  // 16 bytes of padding per row
  EXPECT_EQ(dot.tensorCores.fm * dot.tensorCores.fn * dot.tensorCores.blocks, 16);  // 4 x 4 tiles of 16 x 16
  EXPECT_FALSE(dot.warpgroup);                                                       // sm_80: no wgmma
  const int loop = ids.at("k");
  ASSERT_EQ(plan.resident.count(loop), 1u);
  const ir::ResidentAccumulatorPlan& r = plan.resident.at(loop);
  EXPECT_EQ(r.dot, 0);
  EXPECT_EQ(r.deferredLoads, (std::set<int>{ids.at("a"), ids.at("b")}));
  ASSERT_EQ(plan.pipelines.count(loop), 1u);
  const ir::PipelinePlan& p = plan.pipelines.at(loop);
  EXPECT_EQ(p.stages, 3);
  EXPECT_FALSE(p.tma);
  EXPECT_EQ(p.a.load, ids.at("a"));
  EXPECT_EQ(p.b.load, ids.at("b"));
  EXPECT_EQ(p.a.rows, 64);
  EXPECT_EQ(p.a.cols, 32);
  EXPECT_EQ(p.b.offset, dot.tensorCores.offB);
  EXPECT_FALSE(p.a.swizzled);
  // The mutable pointer tiles (`var a_ptrs.1 = a_ptrs` in the dump), advanced after the dot.
  const std::map<std::string, int> vars = mutableIdsOf(lowered);
  EXPECT_EQ(p.inductionTiles, (std::set<int>{vars.at("a_ptrs"), vars.at("b_ptrs")})) << lowered.dump();
  EXPECT_EQ(r.acc, vars.at("acc"));
  EXPECT_TRUE(plan.notPipelined.empty());
  // The dump shows it after the body.
  const std::string dump = lowered.dump();
  EXPECT_NE(dump.find("dots {\n  dot 0 in "), std::string::npos) << dump;
  EXPECT_NE(dump.find(": wmma f16 64x32 @ 32x64"), std::string::npos) << dump;
  EXPECT_NE(dump.find("3 stages of " + std::to_string(p.stageBytes) + " bytes by cp.async"), std::string::npos) << dump;
}

TEST(DotPasses, ATf32MatmulOnSm90aRunsAsTheTransposedWarpgroupProduct) {
  ir::KernelPtr k = matmul(ir::DType::FP32, 3);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, gpu::test::hopperOptions());
  const ir::DotPlan& plan = lowered.dotPlan;
  ASSERT_EQ(plan.dots.size(), 1u);
  const ir::DotLowering& dot = plan.dots.at(0);
  EXPECT_EQ(dot.engine, ir::DotEngine::Tf32Wgmma);
  EXPECT_EQ(dot.tensorCores.elem, "tf32");
  ASSERT_TRUE(dot.warpgroup);
  EXPECT_TRUE(dot.warpgroup->transposed);
  EXPECT_EQ(dot.warpgroup->n, 64);  // wgmma's N is BM
  const int loop = idsOf(lowered).at("k");
  ASSERT_EQ(plan.pipelines.count(loop), 1u);
  const ir::PipelinePlan& p = plan.pipelines.at(loop);
  // A goes through descriptors (swizzled), B^T into registers from padded rows.
  EXPECT_TRUE(p.a.swizzled);
  EXPECT_FALSE(p.b.swizzled);
  EXPECT_EQ(p.b.ld, 64 + 8);
  // The same kernel on sm_80 stays wmma.
  EXPECT_EQ(lower(*k, sm(80)).dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);
}

TEST(DotPasses, DescriptorBoxesAreCopiedByTma) {
  auto program = lang::test::programFrom(test::kDescriptorMatmulBtSource, "mm_bt.py");
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP32), S(), S(), S(), C(128), C(128), C(64)};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  const lang::CheckResult checked = lang::checkKernel(*program, "mm_bt", spec);
  ASSERT_TRUE(checked.ok()) << checked.diagnostics.render();
  const ir::Kernel lowered = lower(*checked.kernel, gpu::test::hopperOptions());
  ASSERT_EQ(lowered.dotPlan.pipelines.size(), 1u);
  const auto& [loop, p] = *lowered.dotPlan.pipelines.begin();
  EXPECT_TRUE(p.tma);
  EXPECT_TRUE(p.bTransposed);  // `a @ b.T`: B staged as loaded, N x K
  EXPECT_EQ(p.b.rows, 128);
  EXPECT_EQ(p.b.cols, 64);
  EXPECT_TRUE(p.a.swizzled && p.b.swizzled);
  EXPECT_EQ(lowered.dotPlan.dots.at(0).engine, ir::DotEngine::Wgmma);
  // tl.trans(b)'s load goes into the ring too.
  EXPECT_TRUE(lowered.dotPlan.resident.at(loop).deferredLoads.count(p.b.load));
  EXPECT_NE(lowered.dump().find("by TMA, B transposed"), std::string::npos) << lowered.dump();
  // With TMA off, the same loop copies chunks with cp.async.
  gpu::CudaCodegenOptions noTma = gpu::test::hopperOptions();
  noTma.tma = false;
  EXPECT_FALSE(lower(*checked.kernel, noTma).dotPlan.pipelines.begin()->second.tma);
}

TEST(DotPasses, LoopsThatCannotBePipelinedSayWhy) {
  struct Case {
    int stages;
    int arch;
    const char* mask;
    const char* why;
  };
  for (const Case& c : {Case{1, 90, "", "num_stages < 2"}, Case{3, 75, "", "cp.async needs sm_80"},
                        // The mask cuts a chunk in two places: neither constant nor an interval on it.
                        Case{3, 80, ", mask=rk[None, :] != K - k - 1, other=0.0",
                             "a's mask is neither constant nor an interval over 16-byte chunks"}}) {
    ir::KernelPtr k = matmul(ir::DType::FP16, c.stages, c.mask);
    ASSERT_TRUE(k);
    const ir::Kernel lowered = lower(*k, sm(c.arch));
    const int loop = idsOf(lowered).at("k");
    EXPECT_EQ(lowered.dotPlan.resident.count(loop), 1u) << c.why;  // still resident, only not pipelined
    EXPECT_TRUE(lowered.dotPlan.pipelines.empty()) << c.why;
    ASSERT_EQ(lowered.dotPlan.notPipelined.count(loop), 1u) << c.why;
    EXPECT_EQ(lowered.dotPlan.notPipelined.at(loop), c.why);
    EXPECT_NE(lowered.dump().find(std::string(": not pipelined: ") + c.why), std::string::npos) << lowered.dump();
  }
  // tf32 needs sm_80: before it an fp32 dot is exact, so nothing is resident or pipelined.
  ir::KernelPtr exact = matmul(ir::DType::FP32, 3);
  ASSERT_TRUE(exact);
  const ir::Kernel lowered = lower(*exact, sm(75));
  EXPECT_EQ(lowered.dotPlan.dots.at(0).engine, ir::DotEngine::Exact);
  EXPECT_TRUE(lowered.dotPlan.resident.empty());
}

TEST(DotPasses, TheEmitterPrintsAHandEditedPlan) {
  ir::KernelPtr k = matmul(ir::DType::FP16, 3);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, sm(80));
  const std::string asPlanned = gpu::CudaCodegen::emitLowered(lowered, sm(80)).source;
  EXPECT_EQ(asPlanned, gpu::CudaCodegen::generate(*k, sm(80)).source);
  EXPECT_NE(asPlanned.find("// 3 stages of operands in flight"), std::string::npos);
  EXPECT_NE(asPlanned.find("ts_cp_wait<1>();"), std::string::npos);
  const int loop = idsOf(lowered).at("k");

  // Two stages in the table: a ring of two, waited for with nothing pending.
  ir::Kernel twoStages = lowered;
  twoStages.dotPlan.pipelines.at(loop).stages = 2;
  const gpu::CudaKernelSource two = gpu::CudaCodegen::emitLowered(twoStages, sm(80));
  EXPECT_NE(two.source.find("// 2 stages of operands in flight"), std::string::npos) << two.source;
  EXPECT_NE(two.source.find("ts_cp_wait<0>();"), std::string::npos);
  EXPECT_EQ(two.source.find("ts_cp_wait<1>();"), std::string::npos);
  EXPECT_LT(two.dynamicSharedBytes, gpu::CudaCodegen::emitLowered(lowered, sm(80)).dynamicSharedBytes);

  // No pipeline in the table: the resident loop stages its operands each iteration, no cp.async.
  ir::Kernel unpipelined = lowered;
  unpipelined.dotPlan.pipelines.clear();
  const std::string plain = gpu::CudaCodegen::emitLowered(unpipelined, sm(80)).source;
  EXPECT_EQ(plain.find("ts_cp_async16(ts_dst"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("ts_cp_async16_if(ts_dst"), std::string::npos) << plain;
  EXPECT_NE(plain.find("acc stays in tensor-core fragments for the whole loop"), std::string::npos) << plain;

  // The dot on the exact path and nothing resident: no tensor cores at all.
  ir::Kernel exact = lowered;
  exact.dotPlan.pipelines.clear();
  exact.dotPlan.resident.clear();
  exact.dotPlan.dots.at(0).engine = ir::DotEngine::Exact;
  const gpu::CudaKernelSource fmas = gpu::CudaCodegen::emitLowered(exact, sm(80));
  EXPECT_FALSE(fmas.usesTensorCores);
  EXPECT_NE(fmas.source.find("fmaf("), std::string::npos) << fmas.source;
}

TEST(DotPasses, TheVerifierRejectsAPlanNamingNothingOfTheKernel) {
  ir::KernelPtr k = matmul(ir::DType::FP16, 3);
  ASSERT_TRUE(k);
  ir::Kernel lowered = lower(*k, sm(80));
  EXPECT_TRUE(ir::IRVerifier::verify(lowered).empty());
  ir::Kernel badLoop = lowered;
  badLoop.dotPlan.notPipelined[idsOf(lowered).at("a")] = "no reason";  // a is no loop
  EXPECT_FALSE(ir::IRVerifier::verify(badLoop).empty());
  ir::Kernel badDot = lowered;
  badDot.dotPlan.dots[7] = ir::DotLowering{};  // the kernel has one dot
  EXPECT_FALSE(ir::IRVerifier::verify(badDot).empty());
  ir::Kernel badLoad = lowered;
  badLoad.dotPlan.pipelines.begin()->second.a.load = lowered.varCount + 3;
  EXPECT_FALSE(ir::IRVerifier::verify(badLoad).empty());
}
