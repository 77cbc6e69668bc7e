// Tensor-descriptor boxes on Hopper's tensor memory accelerator, without a GPU (ctest label nvrtc):
// in a pipelined wgmma K loop over boxes the generated CUDA builds each descriptor's tensor map in
// the program's global scratch (tensormap.replace, then cp_fenceproxy), rebuilds it only when the
// descriptor changes, copies each box with one bulk tensor copy per 64-column panel completing on
// the stage's mbarrier, and every thread waits on that barrier before the multiplies. Elsewhere
// (sm_80, plain sm_90, or with TMA off) the boxes stay cp.async chunks. NVRTC compiles it for
// sm_90a and ptxas assembles it. GpuRun.TmaBoxesMatchTheSimulator runs such kernels on a device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <unistd.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/ir/IRPrinter.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/gpu/DescriptorKernels.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

// The tutorial's shape (tests/gpu/DescriptorKernels.h) for a tile width, K step and element type.
ir::KernelPtr matmulBt(int64_t bn, int64_t bk = 64, ir::DType elem = ir::DType::FP16) {
  auto program = lang::test::programFrom(test::kDescriptorMatmulBtSource, "mm_bt.py");
  lang::Specialization spec;
  auto c = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  spec.args = {lang::ArgSpec::pointer(elem), lang::ArgSpec::pointer(elem), lang::ArgSpec::pointer(ir::DType::FP32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::scalar(ir::DType::I32),
               c(128), c(bn), c(bk)};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  const lang::CheckResult checked = lang::checkKernel(*program, "mm_bt", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return checked.kernel;
}

gpu::CudaCodegenOptions hopper() { return gpu::test::hopperOptions(); }
size_t count(const std::string& text, const std::string& what) { return gpu::test::occurrences(text, what); }

}  // namespace

TEST(CudaTma, TheIrKeepsEachDescriptorLoadsBox) {
  ir::KernelPtr k = matmulBt(128);
  ASSERT_TRUE(k);
  const std::string ir = ir::IRPrinter().print(*k);
  // Both loads say which box they are; the store stays an ordinary masked store.
  EXPECT_EQ(count(ir, ", box=("), 2u) << ir;
  EXPECT_NE(ir.find(", box=(%a_ptr, shape=["), std::string::npos) << ir;
  EXPECT_NE(ir.find("block=[128x64])"), std::string::npos) << ir;
}

TEST(CudaTma, BoxesAreCopiedByTheTensorEngineOnSm90a) {
  ir::KernelPtr k = matmulBt(128);
  ASSERT_TRUE(k);
  const gpu::CudaKernelSource src = gpu::CudaCodegen::generate(*k, hopper());
  const std::string& cuda = src.source;
  // Two maps (A and B), 128 bytes each, in every program's slot of the scratch argument.
  EXPECT_EQ(src.scratchBytesPerProgram, 256u);
  EXPECT_NE(cuda.find("ts_u32* __restrict__ ts_status, unsigned char* __restrict__ ts_scratch)"), std::string::npos) << cuda;
  EXPECT_EQ(count(cuda, "if (ts_tid < 32) ts_tma_build2<6u, 0u>("), 2u) << cuda;
  // A map is rebuilt only when its address, dims or stride changed.
  EXPECT_NE(cuda.find("if (ts_kb != ts_mapkey0[0] || ts_kd0 != ts_mapkey0[1]"), std::string::npos) << cuda;
  // The box is 64 columns (128 bytes, the swizzle's span) by 128 rows: one copy per box here,
  // both announced on the stage's barrier (2 x 128 x 64 x 2 bytes).
  EXPECT_NE(cuda.find("ts_mbar_expect_tx(&ts_bar"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("], 32768u);"), std::string::npos) << cuda;
  const size_t kernel = cuda.find("__global__");
  EXPECT_EQ(count(cuda.substr(kernel), "ts_tma_load2("), 4u) << "prologue and steady state, A and B";
  // Every thread waits for its slot's copies; no cp.async chunk is left in the kernel.
  EXPECT_NE(cuda.find("ts_mbar_wait(&ts_bar"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("ts_cp_async16", kernel), std::string::npos) << cuda;
  // The barriers live at the kernel's top, initialised once by thread 0.
  EXPECT_LT(cuda.find("ts_mbar_init(&ts_bar", kernel), cuda.find("ts_tma_build2(", kernel)) << cuda;
}

TEST(CudaTma, WideBoxesAreCopiedPanelByPanel) {
  // BK = 128: each box is two 64-column panels, rows x 128 bytes apart in the stage.
  ir::KernelPtr k = matmulBt(128, 128);
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k, hopper()).source;
  EXPECT_NE(cuda.find(" + 64, (int)("), std::string::npos) << "the second panel's column" << cuda;
  EXPECT_EQ(count(cuda.substr(cuda.find("__global__")), "ts_tma_load2("), 8u) << cuda;
  // bf16 maps say so (element type 10).
  ir::KernelPtr b = matmulBt(128, 64, ir::DType::BF16);
  ASSERT_TRUE(b);
  EXPECT_NE(gpu::CudaCodegen::generate(*b, hopper()).source.find("ts_tma_build2<10u, 0u>("), std::string::npos);
}

TEST(CudaTma, WithoutSm90aOrWithTmaOffTheBoxesStayCpAsyncChunks) {
  ir::KernelPtr k = matmulBt(128);
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions off = hopper();
  off.tma = false;
  gpu::CudaCodegenOptions plain;
  plain.smArch = 90;
  for (const gpu::CudaCodegenOptions& o : {off, plain, gpu::CudaCodegenOptions{}}) {
    const gpu::CudaKernelSource src = gpu::CudaCodegen::generate(*k, o);
    EXPECT_EQ(src.scratchBytesPerProgram, 0u);
    EXPECT_EQ(src.source.find("ts_tma_load2("), std::string::npos) << src.source;
    EXPECT_EQ(src.source.find("ts_scratch"), std::string::npos);
  }
}

TEST(CudaTma, CompilesAndAssemblesForSm90a) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  ir::KernelPtr k = matmulBt(256);
  ASSERT_TRUE(k);
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
  const std::string& ptx = compiled->ptx;
  ASSERT_FALSE(ptx.empty());
  for (const char* instruction :
       {R"(cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes)",
        R"(tensormap\.replace\.tile\.global_address\.shared::cta\.b1024\.b64)", R"(tensormap\.replace\.tile\.swizzle_mode)",
        R"(tensormap\.cp_fenceproxy\.global\.shared::cta\.tensormap::generic\.release\.gpu\.sync\.aligned)",
        R"(fence\.proxy\.tensormap::generic\.acquire\.gpu)", R"(mbarrier\.try_wait\.parity\.shared::cta\.b64)",
        R"(mbarrier\.arrive\.expect_tx\.shared::cta\.b64)", R"(wgmma\.mma_async\.sync\.aligned\.m64n256k16\.f32\.f16\.f16)"})
    EXPECT_TRUE(std::regex_search(ptx, std::regex(instruction))) << instruction;
  EXPECT_FALSE(std::regex_search(ptx, std::regex(R"(cp\.async\.cg\.shared\.global)"))) << "no cp.async chunks left";
  fs::path ptxas = "/usr/local/cuda/bin/ptxas";
  if (const char* home = std::getenv("CUDA_HOME")) ptxas = fs::path(home) / "bin" / "ptxas";
  if (!fs::exists(ptxas)) GTEST_SKIP() << "ptxas not found at " << ptxas << ": NVRTC's PTX checked, not assembled";
  const fs::path dir = fs::temp_directory_path() / ("tilescope-tma-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.ptx") << ptx;
  const std::string cmd = "\"" + ptxas.string() + "\" -arch=sm_90a \"" + (dir / "k.ptx").string() + "\" -o /dev/null > \"" +
                          (dir / "log").string() + "\" 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream log(dir / "log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  EXPECT_EQ(rc, 0) << text;
}
