#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {
const char* kKernels = R"(import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

std::string writeTemp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p.string();
}
}  // namespace

TEST(CheckCommand, CleanFileExitsZero) {
  const std::string path = writeTemp("clean.py", kKernels);
  const auto r = runCli("check " + path);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("1 kernel checked: 0 errors"), std::string::npos) << r.output;
}

TEST(CheckCommand, ReportsErrorsWithFileLineColumnAndCaret) {
  const std::string path =
      writeTemp("bad.py", std::string(kKernels) + "\n@triton.jit\ndef bad(x_ptr):\n    offs = tl.arange(0, 100)\n");
  const auto r = runCli("check " + path);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(path + ":14:12: error: tl.arange range must be a power of 2 (got 100)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("           ^~~~"), std::string::npos) << r.output;
}

TEST(CheckCommand, DefineOverridesConstexpr) {
  const std::string path = writeTemp("define.py", kKernels);
  const auto r = runCli("check " + path + " -D BLOCK=100");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("got 100"), std::string::npos) << r.output;
  EXPECT_EQ(runCli("check " + path + " -D BLOCK=128").exitCode, 0);
}

TEST(CheckCommand, SyntaxErrorIsReported) {
  const std::string path = writeTemp("syntax.py", "def f(:\n    pass\n");
  const auto r = runCli("check " + path);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find(path + ":1:"), std::string::npos) << r.output;
}

TEST(CheckCommand, ChecksTheBundledNotebook) {
  const auto r = runCli(std::string("check ") + TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb");
  EXPECT_EQ(r.exitCode, 0) << r.output;
}

TEST(CheckCommand, MissingFileAndBadUsage) {
  EXPECT_EQ(runCli("check /nonexistent/k.py").exitCode, 1);
  EXPECT_EQ(runCli("check").exitCode, 2);
  EXPECT_EQ(runCli("check a.py -D NOEQUALS").exitCode, 2);
}

TEST(CompileCommand, EmitsIrForATritonAotSignature) {
  const std::string path = writeTemp("compile.py", kKernels);
  const auto r = runCli("compile " + path + " --kernel add_kernel --signature \"*fp16,*fp16,*fp16,i32,256\" --emit ir");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("kernel add_kernel(%x_ptr: ptr<fp16>"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("BLOCK: constexpr = 256"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("arange 0, 256 : tensor<256xi32>"), std::string::npos) << r.output;
}

TEST(CompileCommand, UnknownKernelAndCheckErrorsFail) {
  const std::string path = writeTemp("compile2.py", kKernels);
  EXPECT_EQ(runCli("compile " + path + " --kernel nope --signature \"*fp32\"").exitCode, 1);
  const auto r = runCli("compile " + path + " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32,100\"");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("power of 2"), std::string::npos) << r.output;
}

TEST(CompileCommand, EmitsCudaWithoutAGpu) {
  const std::string path = writeTemp("compile3.py", kKernels);
  const auto r = runCli("compile " + path + " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32,64\" --emit cuda");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("extern \"C\" __global__ void __launch_bounds__(128) ts_add_kernel("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("#line "), std::string::npos) << r.output;
  const auto bad = runCli("compile " + path + " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32,64\" --emit ptx --arch 90");
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
}

TEST(CompileCommand, SpecializesMultiplesOf16AndTakesLaunchOptions) {
  const std::string path = writeTemp("compile4.py", kKernels);
  const std::string sig = " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32:16,64\" --emit cuda";
  const auto r = runCli("compile " + path + sig + " --num-warps 2 --num-stages 2");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("(add_kernel[*fp32:16,*fp32:16,*fp32:16,i32:16,BLOCK=64])"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("__launch_bounds__(64) ts_add_kernel("), std::string::npos) << r.output;
  for (const char* bad : {" --num-warps", " --num-warps x", " --num-stages -1", " --num-warps 100"})
    EXPECT_EQ(runCli("compile " + path + sig + bad).exitCode, 2) << bad;
}

// --emit cuda generates for --arch: the same K loop is plain wmma before sm_80, a cp.async ring on
// sm_90, and wgmma on Hopper's arch-specific sm_90a.
TEST(CompileCommand, EmitCudaGeneratesForTheGivenArch) {
  const std::string path = writeTemp("compile_mm.py", R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)");
  const std::string args = " --kernel mm --signature \"*fp16,*fp16,*fp32,i32:16,128,128,64\" --num-warps 8 --emit cuda --arch ";
  const auto old = runCli("compile " + path + args + "sm_75");
  const auto ampere = runCli("compile " + path + args + "sm_90");
  const auto hopper = runCli("compile " + path + args + "sm_90a");
  for (const auto* r : {&old, &ampere, &hopper}) ASSERT_EQ(r->exitCode, 0) << r->output;
  EXPECT_EQ(old.output.find("ts_cp_async16(ts_dst"), std::string::npos) << old.output;
  EXPECT_NE(ampere.output.find("ts_cp_async16(ts_dst"), std::string::npos) << ampere.output;
  EXPECT_EQ(ampere.output.find("ts_wgmma_m64n128_f16("), std::string::npos) << ampere.output;
  EXPECT_NE(hopper.output.find("ts_wgmma_m64n128_f16(ts_acc"), std::string::npos) << hopper.output;
}

// --emit resources with and without a device: one test each, the other skipped, so the result says
// which branch ran.
TEST(CompileCommand, EmitResourcesReportsRegistersOnAGpu) {
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const std::string path = writeTemp("compile4.py", kKernels);
  const auto r = runCli("compile " + path + " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32,64\" --emit resources");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("add_kernel (sm_"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" registers, "), std::string::npos) << r.output;
}

TEST(CompileCommand, EmitResourcesWithoutAGpuSaysWhyNot) {
  if (tilescope::gpu::GpuRuntime::instance().available()) GTEST_SKIP() << "a CUDA device is present: EmitResourcesReportsRegistersOnAGpu covers it";
  if (!tilescope::gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << tilescope::gpu::Nvrtc::instance().unavailableReason();
  const std::string path = writeTemp("compile4.py", kKernels);
  const auto r = runCli("compile " + path + " --kernel add_kernel --signature \"*fp32,*fp32,*fp32,i32,64\" --emit resources");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("loads the kernel on a GPU, and this machine has none"), std::string::npos) << r.output;
}
