// tl.dot_scaled on the GPU backend without a GPU (ctest label nvrtc): the checker's lowering (integer
// decoding of fp8/fp4, scales, bf16 operands) becomes ordinary CUDA with a bf16 tl.dot, and NVRTC
// compiles each format. GpuRun.DotScaledMatchesTheSimulator (GpuRunDotScaledTest.cpp) runs them.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/DotScaledKernels.h"

using namespace tilescope;

namespace {

ir::KernelPtr scaledKernel(const lang::Program& program, const std::string& fa, const std::string& fb, bool scaleA) {
  auto cint = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  auto cstr = [](const std::string& v) { return lang::ArgSpec::constexprValue(lang::ConstValue::string(v)); };
  const ir::DType ta = fa == "bf16" ? ir::DType::BF16 : ir::DType::U8, tb = fb == "bf16" ? ir::DType::BF16 : ir::DType::U8;
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ta), lang::ArgSpec::pointer(ir::DType::U8), lang::ArgSpec::pointer(tb),
               lang::ArgSpec::pointer(ir::DType::U8), lang::ArgSpec::pointer(ir::DType::FP32), cint(32), cint(32), cint(64),
               cint(fa == "e2m1" ? 32 : 64), cint(fb == "e2m1" ? 32 : 64), cstr(fa), cstr(fb),
               lang::ArgSpec::constexprValue(lang::ConstValue::boolean(scaleA))};
  const lang::CheckResult r = lang::checkKernel(program, "scaled_mm", spec);
  EXPECT_TRUE(r.ok()) << fa << " x " << fb << ": " << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(CudaDotScaled, NvrtcCompilesEachFormat) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto program = lang::test::programFrom(test::kDotScaledSource, "scaled.py");
  for (const auto& [fa, fb, scaleA] : std::vector<std::tuple<std::string, std::string, bool>>{
           {"e4m3", "e5m2", true}, {"e2m1", "e2m1", true}, {"bf16", "e4m3", false}}) {
    ir::KernelPtr k = scaledKernel(*program, fa, fb, scaleA);
    ASSERT_TRUE(k);
    const std::string cuda = gpu::CudaCodegen::generate(*k).source;
    // No fp8 arithmetic reaches the GPU: the decoding is integer and fp32 code.
    EXPECT_EQ(cuda.find("fp8"), std::string::npos) << cuda;
    auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_80");
    ASSERT_FALSE(compiled->ptx.empty()) << fa << " x " << fb;
  }
}
