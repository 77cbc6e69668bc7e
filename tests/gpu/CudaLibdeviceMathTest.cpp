// libdevice's own math on the GPU backend without a GPU (ctest label nvrtc): each function becomes
// CUDA's <math.h> function of the element type (acosf for fp32, acos for fp64) and NVRTC compiles
// them all. GpuRun.LibdeviceMathMatchesTheSimulator (GpuRunLibdeviceMathTest.cpp) runs them.
#include <gtest/gtest.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

const char* const kUnary[] = {"acos", "acosh", "asin",  "asinh", "atan",  "atanh", "cbrt",  "cosh",      "sinh",   "tan", "erfc",
                              "exp10", "expm1", "log10", "log1p", "trunc", "round", "rint", "nearbyint", "lgamma", "tgamma",
                              "logb",  "rcbrt", "sinpi", "cospi", "j0",    "j1",    "y0",    "y1",        "normcdf"};
const char* const kBinary[] = {"atan2", "pow", "hypot", "fmod", "copysign", "fdim", "remainder", "nextafter", "rhypot"};

ir::KernelPtr allFunctions(ir::DType t, std::shared_ptr<lang::Program>& program) {
  std::string src = "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n@triton.jit\n"
                    "def k(x_ptr, y_ptr, out_ptr):\n    offs = tl.arange(0, 32)\n    x = tl.load(x_ptr + offs)\n"
                    "    y = tl.load(y_ptr + offs)\n    acc = x\n";
  for (const char* f : kUnary) src += std::string("    acc += libdevice.") + f + "(x)\n";
  for (const char* f : kBinary) src += std::string("    acc += libdevice.") + f + "(x, y)\n";
  src += "    tl.store(out_ptr + offs, acc)\n";
  program = lang::test::programFrom(src, "math.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(t), lang::ArgSpec::pointer(t), lang::ArgSpec::pointer(t)};
  const lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(CudaLibdeviceMath, EachFunctionIsCudasOfTheElementType) {
  for (const ir::DType t : {ir::DType::FP32, ir::DType::FP64}) {
    std::shared_ptr<lang::Program> program;
    ir::KernelPtr k = allFunctions(t, program);
    ASSERT_TRUE(k);
    const std::string cuda = gpu::CudaCodegen::generate(*k).source;
    const std::string suffix = t == ir::DType::FP32 ? "f(" : "(";
    for (const char* f : kUnary) EXPECT_NE(cuda.find(std::string(f) + suffix), std::string::npos) << f << "\n" << cuda;
    for (const char* f : kBinary) EXPECT_NE(cuda.find(std::string(f) + suffix), std::string::npos) << f << "\n" << cuda;
  }
}

TEST(CudaLibdeviceMath, NvrtcCompilesThemAll) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  for (const ir::DType t : {ir::DType::FP32, ir::DType::FP64}) {
    std::shared_ptr<lang::Program> program;
    ir::KernelPtr k = allFunctions(t, program);
    ASSERT_TRUE(k);
    auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_80");
    ASSERT_FALSE(compiled->ptx.empty());
    EXPECT_NE(compiled->ptx.find(".entry " + compiled->cuda.entryName), std::string::npos);
  }
}

// libdevice's integer bit functions, conversions and helpers are composed of shifts, masks and wider arithmetic
// in the checker (no fp8 or special intrinsics): NVRTC compiles them for int32 and int64.
TEST(CudaLibdeviceMath, NvrtcCompilesTheComposedBitFunctions) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr, w_ptr, f_ptr, out_ptr, wide_ptr, g_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    w = tl.load(w_ptr + offs)
    f = tl.load(f_ptr + offs)
    acc = libdevice.popc(x) + libdevice.clz(x) + libdevice.ffs(x) + libdevice.brev(x) + libdevice.hadd(x, x)
    acc += libdevice.rhadd(x, acc) + libdevice.mul24(x, acc) + libdevice.mulhi(x, acc)
    acc += libdevice.popc(w) + libdevice.clz(w) + libdevice.ffs(w) + libdevice.isnan(f) + libdevice.signbit(f)
    tl.store(out_ptr + offs, acc + libdevice.float2int_rn(f) + libdevice.float_as_int(f) + libdevice.ilogb(f))
    tl.store(wide_ptr + offs, libdevice.brev(w) + libdevice.llrint(f) + libdevice.double_as_longlong(libdevice.hiloint2double(x, x)))
    tl.store(g_ptr + offs, libdevice.saturatef(f) + libdevice.ldexp(f, x % 20) + libdevice.rcp_rn(f) + libdevice.norm3d(f, f, f)
             + libdevice.int2float_rn(x))
)",
                                         "bits.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::I32), lang::ArgSpec::pointer(ir::DType::I64), lang::ArgSpec::pointer(ir::DType::FP32),
               lang::ArgSpec::pointer(ir::DType::I32), lang::ArgSpec::pointer(ir::DType::I64), lang::ArgSpec::pointer(ir::DType::FP32)};
  const lang::CheckResult r = lang::checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  auto compiled = gpu::GpuCompiler::instance().compile(*r.kernel, "sm_80");
  ASSERT_FALSE(compiled->ptx.empty());
}
