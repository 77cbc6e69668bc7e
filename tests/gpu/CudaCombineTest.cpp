// General combine functions of tl.reduce / tl.associative_scan on the GPU backend without a GPU
// (ctest label nvrtc): the combine's operations become scalar code inside one fold loop per line of
// the axis, and NVRTC compiles every kernel of tests/lang/CombineKernels.h.
// GpuRun.CombineFunctionsMatchTheSimulator (GpuRunCombineTest.cpp) runs them.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/CombineKernels.h"

using namespace tilescope;

namespace {

lang::ArgSpec constInt(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }
lang::ArgSpec ptr(ir::DType t) { return lang::ArgSpec::pointer(t); }

struct Case {
  const char* name;
  std::vector<lang::ArgSpec> args;
};

std::vector<Case> cases() {
  using ir::DType;
  return {{"row_argmax", {ptr(DType::FP32), ptr(DType::FP32), ptr(DType::I32), constInt(4), constInt(16)}},
          {"linear_recurrence", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(16)}},
          {"digit_scans", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(8)}},
          {"first_nonzero_scan", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(8)}},
          {"map_selu", {ptr(DType::FP32), ptr(DType::FP32), ptr(DType::FP32), constInt(128)}}};
}

ir::KernelPtr check(const lang::Program& program, const Case& c) {
  lang::Specialization spec;
  spec.args = c.args;
  const lang::CheckResult r = lang::checkKernel(program, c.name, spec);
  EXPECT_TRUE(r.ok()) << c.name << ": " << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(CudaCombine, TheCombineIsScalarCodeInAFoldLoop) {
  auto program = lang::test::programFrom(test::kCombineSource, "combine.py");
  ir::KernelPtr k = check(*program, cases()[0]);
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k).source;
  // The fold over the axis, the combine's params as locals, its `where`s as selects on them.
  EXPECT_NE(cuda.find("for (int ts_q = 1; ts_q < 16; ++ts_q)"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("_v1 = ts_s0[ts_b];"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("_i2 = ts_s1[ts_at];"), std::string::npos) << cuda;
}

TEST(CudaCombine, NvrtcCompilesEveryCombineKernel) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto program = lang::test::programFrom(test::kCombineSource, "combine.py");
  for (const Case& c : cases()) {
    ir::KernelPtr k = check(*program, c);
    ASSERT_TRUE(k) << c.name;
    auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_80");
    ASSERT_FALSE(compiled->ptx.empty()) << c.name;
    EXPECT_NE(compiled->ptx.find(".entry " + compiled->cuda.entryName), std::string::npos) << c.name;
  }
}
