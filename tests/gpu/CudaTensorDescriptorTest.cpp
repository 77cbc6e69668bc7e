// Tensor descriptors on the GPU backend, without a GPU (ctest label nvrtc): a descriptor's box is an
// ordinary masked load and store in the generated CUDA C++ (no TMA yet), the descriptor's runtime
// checks are device assertions, and NVRTC compiles it to PTX. GpuRun.TensorDescriptor* runs such a
// kernel on a device against the simulator.
#include <gtest/gtest.h>

#include <regex>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

constexpr const char* kCopy = R"(import triton
import triton.language as tl

@triton.jit
def copy2d(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    dst.store([om, 0], src.load([om, 0]))
)";

ir::KernelPtr copyKernel() {
  auto program = lang::test::programFrom(kCopy, "copy.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::scalar(ir::DType::I32),
               lang::ArgSpec::scalar(ir::DType::I32), lang::ArgSpec::constexprValue(lang::ConstValue::integer(32)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64))};
  const lang::CheckResult checked = lang::checkKernel(*program, "copy2d", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return checked.kernel;
}

}  // namespace

TEST(CudaTensorDescriptor, TheBoxIsAMaskedLoadAndStoreWithItsChecksAsAssertions) {
  ir::KernelPtr k = copyKernel();
  ASSERT_TRUE(k);
  const std::string cuda = gpu::CudaCodegen::generate(*k).source;
  // No TMA: plain global accesses guarded by the box's bounds, and the alignment checks as asserts.
  EXPECT_EQ(cuda.find("cp.async.bulk.tensor"), std::string::npos) << cuda;
  // Per descriptor: its row stride (N * 2 bytes) and its base address, each checked mod 16.
  const std::regex check(R"(#line (\d) "copy.py"\n  if \(ts_tid == 0 && !\(.*ts_smod<ts_i64>\(.*0x10ull.*ts_fail\(ts_status, (\d)u\);)");
  std::vector<std::string> checks;
  for (auto it = std::sregex_iterator(cuda.begin(), cuda.end(), check); it != std::sregex_iterator(); ++it)
    checks.push_back((*it)[1].str() + ":" + (*it)[2].str());
  EXPECT_EQ(checks, (std::vector<std::string>{"6:1", "6:2", "7:3", "7:4"})) << cuda;
  EXPECT_NE(cuda.find("(ts_i64)(ts_i64)(p0)), ((ts_i64)0x10ull)"), std::string::npos) << "the base address of x_ptr";
  // Lanes outside the box are masked: they keep the padding (zero) and are not stored.
  EXPECT_NE(cuda.find("if (ts_vm[ts_k]) ts_v = *ts_vp[ts_k];"), std::string::npos) << cuda;
}

TEST(CudaTensorDescriptor, CompilesToPtxWithGuardedGlobalAccesses) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  ir::KernelPtr k = copyKernel();
  ASSERT_TRUE(k);
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90");
  ASSERT_FALSE(compiled->ptx.empty());
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(ld\.global)"))) << compiled->ptx;
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(st\.global)"))) << compiled->ptx;
  // Masked lanes: the accesses are predicated or branched around (setp feeds them).
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(setp\.)"))) << compiled->ptx;
  EXPECT_EQ(compiled->ptx.find("cp.async.bulk.tensor"), std::string::npos);
}
