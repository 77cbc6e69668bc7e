// The GPU pass pipeline (core/ir/passes/GpuPipeline) on the seed kernels: every seed's IR stays valid
// after every pass (verified always here), and golden dumps of the IR after each pass
// (tests/golden/ir-after/, TILESCOPE_UPDATE_GOLDEN=1 rewrites them) show what each pass did.
// That the CUDA of the lowered kernels still compiles is SeedPtx (PtxAssembleTest.cpp) and the CUDA
// goldens (CudaCodegenTest.cpp): CudaCodegen::generate runs this pipeline first.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/ir/passes/GpuPipeline.h"
#include "core/ir/passes/IRDumpObserver.h"
#include "tests/gpu/GpuSeedCases.h"

using namespace tilescope;

TEST(GpuPipeline, EverySeedKernelIsValidAfterEveryPass) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases()) {
    ir::KernelPtr k = gpu::test::checkSeedCase(c);
    ASSERT_TRUE(k) << c.name;
    ir::passes::IRDumpObserver dumps;
    EXPECT_NO_THROW(ir::passes::lowerForGpu(*k, ir::passes::GpuTarget{90, true}, &dumps, ir::passes::Verify::Always))
        << c.name;
    EXPECT_EQ(dumps.dumps().size(), ir::passes::gpuPasses().size()) << c.name;
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
    ir::passes::lowerForGpu(*k, gpu::gpuTargetOf({}), &dumps, ir::passes::Verify::Always);
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
