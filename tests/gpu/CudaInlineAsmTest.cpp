// tl.inline_asm_elementwise on the GPU backend without a GPU (ctest label nvrtc): the asm text
// becomes CUDA inline PTX with Triton's operands ($N -> %N, the constraints as written), packed
// operands for narrow elements, and NVRTC and ptxas accept it. GpuRun.InlineAsmRunsOnTheDevice
// (GpuRunInlineAsmTest.cpp) runs it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/InlineAsmKernels.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

lang::ArgSpec ptr(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec constInt(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

ir::KernelPtr check(const lang::Program& program, const char* name, std::vector<lang::ArgSpec> args) {
  lang::Specialization spec;
  spec.args = std::move(args);
  const lang::CheckResult r = lang::checkKernel(program, name, spec);
  EXPECT_TRUE(r.ok()) << name << ": " << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(CudaInlineAsm, TheAsmIsInlinePtxWithTritonsOperands) {
  auto program = lang::test::programFrom(test::kInlineAsmSource, "asm.py");
  ir::KernelPtr k = check(*program, "shift_left", {ptr(ir::DType::I32), ptr(ir::DType::I32), constInt(128)});
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k).source;
  EXPECT_NE(cuda.find("asm(\"shl.b32 %0, %1, 3;\""), std::string::npos) << cuda;
  EXPECT_NE(cuda.find(": \"=r\"(ts_r0_0)"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find(": \"r\"(ts_in0_0)"), std::string::npos) << cuda;

  // pack=4: four uint8 elements in one register, the first in the low byte; fp32 one per register.
  k = check(*program, "widen_and_max", {ptr(ir::DType::U8), ptr(ir::DType::FP32), ptr(ir::DType::I32), ptr(ir::DType::FP32), constInt(128)});
  ASSERT_TRUE(k);
  const std::string packed = gpu::CudaCodegen::generate(*k).source;
  EXPECT_NE(packed.find("(((ts_u64)(ts_u8)(ts_a0[ts_e + 1])) & 255ull) << 8)"), std::string::npos) << packed;
  EXPECT_NE(packed.find("\"r\"(ts_in1_3)"), std::string::npos) << packed;
  EXPECT_EQ(packed.find("ts_in0_1"), std::string::npos) << packed;
}

TEST(CudaInlineAsm, NvrtcAndPtxasAcceptIt) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto program = lang::test::programFrom(test::kInlineAsmSource, "asm.py");
  const fs::path ptxas = "/usr/local/cuda/bin/ptxas";
  const fs::path dir = fs::temp_directory_path() / ("tilescope-asm-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Case {
    const char* name;
    std::vector<lang::ArgSpec> args;
  };
  const std::vector<Case> cases = {
      {"shift_left", {ptr(ir::DType::I32), ptr(ir::DType::I32), constInt(128)}},
      {"widen_and_max", {ptr(ir::DType::U8), ptr(ir::DType::FP32), ptr(ir::DType::I32), ptr(ir::DType::FP32), constInt(128)}}};
  for (const Case& c : cases) {
    ir::KernelPtr k = check(*program, c.name, c.args);
    ASSERT_TRUE(k);
    auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_80");
    ASSERT_FALSE(compiled->ptx.empty()) << c.name;
    if (!fs::exists(ptxas)) continue;
    const fs::path file = dir / (std::string(c.name) + ".ptx");
    std::ofstream(file) << compiled->ptx;
    const std::string cmd = ptxas.string() + " -arch=sm_80 " + file.string() + " -o /dev/null > " + (dir / "log").string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << c.name << ": " << lang::test::readFile(dir / "log");
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
