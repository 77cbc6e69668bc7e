// fp8 on the GPU backend without a GPU (ctest label nvrtc): loads, stores, conversions and fp8
// arithmetic become CUDA over float registers with the fp8 prelude, which only kernels using fp8
// get, and NVRTC compiles them for sm_80 and sm_90; a tl.dot of fp8 operands goes to the tensor cores
// as fp16. GpuRunFp8Test.cpp runs the same kernels on a device against the simulator.
#include <gtest/gtest.h>

#include <sstream>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/gpu/Fp8Kernels.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

lang::ArgSpec cint(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

ir::KernelPtr convertKernel(const lang::Program& program) {
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32)};
  for (ir::DType t : {ir::DType::FP8E4NV, ir::DType::FP8E5, ir::DType::FP8E4NV, ir::DType::FP8E5, ir::DType::FP8E4NV})
    spec.args.push_back(lang::ArgSpec::pointer(t));
  spec.args.push_back(lang::ArgSpec::pointer(ir::DType::FP32));
  spec.args.push_back(lang::ArgSpec::pointer(ir::DType::FP32));
  spec.args.push_back(lang::ArgSpec::pointer(ir::DType::FP8E5));
  spec.args.push_back(lang::ArgSpec::pointer(ir::DType::FP8E5));
  spec.args.push_back(cint(256));
  const lang::CheckResult r = lang::checkKernel(program, "fp8_convert", spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

ir::KernelPtr matmulKernel(const lang::Program& program, ir::DType a, ir::DType b) {
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(a), lang::ArgSpec::pointer(b), lang::ArgSpec::pointer(ir::DType::FP32)};
  for (int i = 0; i < 7; ++i) spec.args.push_back(lang::ArgSpec::scalar(ir::DType::I32));
  spec.args.push_back(cint(64));
  spec.args.push_back(cint(64));
  spec.args.push_back(cint(32));
  const lang::CheckResult r = lang::checkKernel(program, "fp8_matmul", spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(CudaFp8, ConversionsUseTheFp8PreludeAndCompile) {
  auto program = lang::test::programFrom(test::kFp8ConvertSource, "fp8.py");
  ir::KernelPtr k = convertKernel(*program);
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k).source;
  EXPECT_NE(cuda.find("---- fp8"), std::string::npos) << cuda;
  // One byte per element in memory; decoded into float registers, encoded on the way out.
  EXPECT_NE(cuda.find("ts_u8* __restrict__"), std::string::npos);
  EXPECT_NE(cuda.find("ts_f8e4_to_f("), std::string::npos);
  EXPECT_NE(cuda.find("ts_f8e5_from("), std::string::npos);
  EXPECT_NE(cuda.find("_round_rz("), std::string::npos);
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  for (const char* arch : {"sm_80", "sm_90"}) {
    auto compiled = gpu::GpuCompiler::instance().compile(*k, arch);
    EXPECT_FALSE(compiled->ptx.empty()) << arch;
  }
}

TEST(CudaFp8, KernelsWithoutFp8LeaveThePreludeOut) {
  auto program = lang::test::programFrom(test::kFp8MatmulSource, "fp8.py");
  ir::KernelPtr k = matmulKernel(*program, ir::DType::FP16, ir::DType::FP16);
  ASSERT_TRUE(k);
  EXPECT_EQ(gpu::CudaCodegen::generate(*k).source.find("ts_f8"), std::string::npos);
}

TEST(CudaFp8, DotOfFp8OperandsRunsOnTensorCoresAsFp16) {
  auto program = lang::test::programFrom(test::kFp8MatmulSource, "fp8.py");
  for (const auto& [a, b] : std::vector<std::pair<ir::DType, ir::DType>>{{ir::DType::FP8E5, ir::DType::FP8E5},
                                                                          {ir::DType::FP8E4NV, ir::DType::FP8E5}}) {
    SCOPED_TRACE(std::string(ir::dtypeName(a)) + " x " + std::string(ir::dtypeName(b)));
    ir::KernelPtr k = matmulKernel(*program, a, b);
    ASSERT_TRUE(k);
    const gpu::CudaKernelSource cuda = gpu::CudaCodegen::generate(*k);
    EXPECT_TRUE(cuda.usesTensorCores);
    EXPECT_NE(cuda.source.find("ts_wmma_mma_f16("), std::string::npos);
    // Staged as fp16 from the decoded fp8 values.
    bool stagedFromFp8 = false;
    std::istringstream lines(cuda.source);
    for (std::string l; std::getline(lines, l);)
      stagedFromFp8 = stagedFromFp8 || (l.find("= ts_f2h(") != std::string::npos && l.find("ts_f8e5_to_f(") != std::string::npos);
    EXPECT_TRUE(stagedFromFp8) << cuda.source;
    if (!gpu::Nvrtc::instance().available()) continue;
    auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90");
    EXPECT_FALSE(compiled->ptx.empty());
  }
}
