// The GPU pass pipeline (core/gpu/passes/GpuPipeline) on the seed kernels: every seed's IR stays valid
// after every pass (verified always here), and golden dumps of the IR after each pass
// (tests/golden/ir-after/, TILESCOPE_UPDATE_GOLDEN=1 rewrites them) show what each pass did.
// That the CUDA of the lowered kernels still compiles is SeedPtx (PtxAssembleTest.cpp) and the CUDA
// goldens (CudaCodegenTest.cpp): CudaCodegen::generate runs this pipeline first.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/passes/IRDumpObserver.h"
#include "core/ir/passes/SemanticPipeline.h"
#include "tests/ir/IRTestKernels.h"
#include "tests/gpu/GpuSeedCases.h"

using namespace tilescope;

TEST(GpuPipeline, EverySeedKernelIsValidAfterEveryPass) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases()) {
    ir::KernelPtr k = gpu::test::checkSeedCase(c);
    ASSERT_TRUE(k) << c.name;
    ir::passes::IRDumpObserver dumps;
    EXPECT_NO_THROW(gpu::passes::lowerForGpu(*k, gpu::passes::GpuTarget{90, true}, &dumps, ir::passes::Verify::Always))
        << c.name;
    EXPECT_EQ(dumps.dumps().size(), gpu::passes::gpuPasses().size()) << c.name;
  }
}

class IrAfterPassGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(IrAfterPassGolden, SeedKernelMatchesGoldenAfterEachPass) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases()) {
    if (std::string(c.name) != GetParam()) continue;
    ir::KernelPtr k = gpu::test::checkSeedCase(c);
    ASSERT_TRUE(k);
    ir::passes::IRDumpObserver dumps;
    gpu::passes::lowerForGpu(*k, gpu::gpuTargetOf({}), &dumps, ir::passes::Verify::Always);
    for (const auto& [pass, text] : dumps.dumps())
      lang::test::expectGolden(std::string("ir-after/") + c.name + "." + pass + ".txt", text);
    return;
  }
  FAIL() << "no seed case " << GetParam();
}

// swizzle_k and the grouped matmul multiply by constexpr strides of 1; the attention kernel is the
// largest seed kernel.
INSTANTIATE_TEST_SUITE_P(Seeds, IrAfterPassGolden,
                         ::testing::Values("swizzle_k", "grouped_matmul_k_fp32_16", "fused_attention_kernel"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

// The emitter prints the lowered kernel: a reduction nobody reads costs no code, so the CUDA is the
// CUDA of the same kernel without it (before the pipeline it had its shared-memory exchange).
TEST(GpuPipeline, CudaCodegenEmitsTheLoweredKernel) {
  const std::string head = R"(import triton
import triton.language as tl

@triton.jit
def scale_k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
)";
  const std::string tail = "    tl.store(out_ptr + offs, x * 2, mask=mask)\n";
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32), lang::ArgSpec::pointer(ir::DType::FP32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(256))};
  auto cudaOf = [&](const std::string& source) {
    auto program = lang::test::programFrom(source, "k.py");
    lang::CheckResult r = lang::checkKernel(*program, "scale_k", spec);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    return r.ok() ? gpu::CudaCodegen::generate(*r.kernel).source : std::string();
  };
  const std::string withDeadSum = cudaOf(head + "    unused = tl.sum(x, axis=0)\n" + tail);
  const std::string without = cudaOf(head + tail);
  ASSERT_FALSE(without.empty());
  EXPECT_EQ(withDeadSum.find("__syncthreads"), std::string::npos) << withDeadSum;
  // Only the #line numbers of the store differ (the dead line is still in the source).
  auto dropLines = [](std::string text) {
    std::string out;
    size_t at = 0;
    while (at < text.size()) {
      const size_t end = text.find('\n', at);
      const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
      if (line.find("#line") == std::string::npos) out += line;
      if (end == std::string::npos) break;
      at = end + 1;
    }
    return out;
  };
  EXPECT_EQ(dropLines(withDeadSum), dropLines(without));
}

TEST(GpuPipeline, TheObserverSeesEveryPassInTheListedOrder) {
  ir::passes::IRDumpObserver dump;
  const ir::Kernel k = ir::test::makeAddKernel();
  gpu::passes::lowerForGpu(k, gpu::passes::GpuTarget{}, &dump, ir::passes::Verify::Always);
  std::vector<std::string> seen, listed;
  for (const auto& [name, text] : dump.dumps()) seen.push_back(name);
  for (const ir::passes::Pass& pass : gpu::passes::gpuPasses()) listed.push_back(std::string(pass.name));
  EXPECT_EQ(seen, listed);
  EXPECT_EQ(listed, (std::vector<std::string>{"fuse-dot-accumulator", "fold-constants", "eliminate-dead-lets", "assign-layouts",
                                              "remove-layout-conversions", "assign-blocked-layouts", "mark-recomputed-values",
                                              "find-induction-tiles", "analyse-axes", "select-dot-lowering",
                                              "keep-accumulators-resident", "pipeline-dot-loops"}));
  // The semantic passes, which the simulator's kernel goes through too, come first.
  ASSERT_EQ(ir::passes::semanticPasses().size(), 1u);
  EXPECT_EQ(ir::passes::semanticPasses()[0].name, gpu::passes::gpuPasses()[0].name);
  // Only the chosen pass is kept when the observer is asked for one.
  ir::passes::IRDumpObserver one("eliminate-dead-lets");
  gpu::passes::lowerForGpu(k, gpu::passes::GpuTarget{}, &one, ir::passes::Verify::Always);
  ASSERT_EQ(one.dumps().size(), 1u);
  EXPECT_FALSE(one.dumpAfter("fold-constants"));
}
