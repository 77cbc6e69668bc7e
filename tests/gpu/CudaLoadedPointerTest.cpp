// Pointers loaded from memory on the GPU backend, without a GPU (ctest label nvrtc): an int64 read
// from a table of addresses and cast with `.to(tl.pointer_type(t))` is a plain address in the CUDA
// C++, and NVRTC compiles it to PTX that loads through it. GpuRun.PointerTableKernelsMatchTorch
// (tests/gpu/GpuRunTest.cpp) runs such kernels on a device.
#include <gtest/gtest.h>

#include <regex>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

constexpr const char* kPointerTable = R"(import triton
import triton.language as tl

@triton.jit
def gather_rows(table_ptr, out_ptr, N: tl.constexpr):
    g = tl.program_id(0)
    src = tl.load(table_ptr + g).to(tl.pointer_type(tl.float16))
    offs = tl.arange(0, N)
    tl.store(out_ptr + g * N + offs, tl.load(src + offs))
)";

ir::KernelPtr pointerTableKernel() {
  auto program = lang::test::programFrom(kPointerTable, "table.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::I64), lang::ArgSpec::pointer(ir::DType::FP16),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  const lang::CheckResult checked = lang::checkKernel(*program, "gather_rows", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return checked.kernel;
}

}  // namespace

TEST(CudaLoadedPointer, TheLoadedIntegerBecomesAPlainAddress) {
  ir::KernelPtr k = pointerTableKernel();
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k).source;
  // The int64 read from the table, reinterpreted as a pointer to fp16 bits, and loaded through.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(cuda, m, std::regex(R"(ts_u16\* (v\d+_src) = \(\(ts_u16\*\)\(ts_u64\)\((v\d+_tmp)\)\);)"))) << cuda;
  EXPECT_NE(cuda.find("ts_i64 " + m[2].str() + ";"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("*(((" + m[1].str() + ") + "), std::string::npos) << cuda;
}

TEST(CudaLoadedPointer, CompilesToPtxThatLoadsThroughTheAddress) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  ir::KernelPtr k = pointerTableKernel();
  ASSERT_TRUE(k);
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_80");
  ASSERT_FALSE(compiled->ptx.empty());
  // The table entry is one 64-bit global load; the row is read through the address it holds.
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(ld\.global(\.nc)?\.u64)"))) << compiled->ptx;
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(ld(\.global)?(\.nc)?\.(u16|b16|v\d\.u16|v\d\.b32|v\d\.u32))"))) << compiled->ptx;
}
