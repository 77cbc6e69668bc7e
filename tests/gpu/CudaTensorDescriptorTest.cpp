// Tensor descriptors on the GPU backend, without a GPU (ctest label nvrtc): a descriptor's box is an
// ordinary masked load and store in the generated CUDA C++ (TMA copies only the boxes of a pipelined wgmma loop on sm_90a: CudaTmaTest), the descriptor's runtime
// checks are device assertions, and NVRTC compiles it to PTX; a K loop of `a @ b.T` over boxes runs
// on Hopper's wgmma with B read K-major from the cp.async ring. GpuRun.TensorDescriptor* runs such a
// kernel on a device against the simulator.
#include <gtest/gtest.h>

#include <regex>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/gpu/DescriptorKernels.h"
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

namespace {

ir::KernelPtr matmulBtKernel(int64_t bn = 128) {
  auto program = lang::test::programFrom(test::kDescriptorMatmulBtSource, "mm_bt.py");
  lang::Specialization spec;
  auto c = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::pointer(ir::DType::FP16), lang::ArgSpec::pointer(ir::DType::FP32),
               lang::ArgSpec::scalar(ir::DType::I32),   lang::ArgSpec::scalar(ir::DType::I32),   lang::ArgSpec::scalar(ir::DType::I32),
               c(128),                                  c(bn),                                   c(64)};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  const lang::CheckResult checked = lang::checkKernel(*program, "mm_bt", spec);
  EXPECT_TRUE(checked.ok()) << checked.diagnostics.render();
  return checked.kernel;
}

}  // namespace

TEST(CudaTensorDescriptor, ADotWithATransposedBoxRunsOnWgmmaReadingBKMajor) {
  ir::KernelPtr k = matmulBtKernel();
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions hopper = gpu::test::hopperOptions();
  hopper.tma = false;  // the cp.async ring (CudaTmaTest covers the TMA one)
  const std::string cuda = gpu::CudaCodegen::generate(*k, hopper).source;
  // B is staged as loaded (N rows of K) and read K-major: imm-trans-b 0.
  EXPECT_NE(cuda.find("ts_wgmma_m64n128_f16_kb(ts_acc"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("p, 1, 1, 0, 0;"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("ts_wgmma_m64n128_f16("), std::string::npos) << "no MN-major B here";
  // `k < K` with K unknown is not constant over a 16-byte chunk but an interval on it: a chunk is
  // copied whole when the mask holds at its last element too.
  EXPECT_NE(cuda.find("const int ts_i = ts_i0 + 7;"), std::string::npos) << cuda;
  // Without wgmma (sm_80) the transposed operand is not pipelined: no K-major wgmma, tl.trans staged.
  const std::string ampere = gpu::CudaCodegen::generate(*k).source;
  EXPECT_EQ(ampere.find("_kb("), std::string::npos);
  EXPECT_EQ(ampere.find("ts_i0 + 7"), std::string::npos) << ampere;
}

// The tensor cores never wait for the loop's barriers: an iteration issues its multiplies behind
// the previous iteration's (wgmma.wait_group 1), and only then, after a barrier, copies a later
// stage into the slot those read; the last group is waited for after the loop. The box chunks are
// copied by predicated cp.async, without a branch per chunk.
TEST(CudaTensorDescriptor, TheBoxLoopKeepsOneWgmmaGroupInFlightAndCopiesWithoutBranches) {
  ir::KernelPtr k = matmulBtKernel();
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions hopper = gpu::test::hopperOptions();
  hopper.tma = false;  // the cp.async ring (CudaTmaTest covers the TMA one)
  const std::string cuda = gpu::CudaCodegen::generate(*k, hopper).source;
  const size_t commit = cuda.find("ts_wgmma_commit();\n", cuda.find("__global__"));
  ASSERT_NE(commit, std::string::npos) << cuda;
  const size_t waitOne = cuda.find("ts_wgmma_wait<1>();", commit);
  const size_t nextCopies = cuda.find("const int ts_wr", commit);
  const size_t waitAll = cuda.find("ts_wgmma_wait<0>();", commit);
  ASSERT_NE(waitOne, std::string::npos) << cuda;
  ASSERT_NE(nextCopies, std::string::npos) << cuda;
  ASSERT_NE(waitAll, std::string::npos) << cuda;
  EXPECT_LT(waitOne, nextCopies);
  EXPECT_NE(cuda.substr(waitOne, nextCopies - waitOne).find("__syncthreads();"), std::string::npos)
      << "every warpgroup's previous multiplies must be done before their slot is overwritten";
  EXPECT_LT(nextCopies, waitAll) << "the last group is waited for after the loop";
  EXPECT_NE(cuda.find("ts_cp_async16_if(ts_dst, ts_src, ts_whole);"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("if (ts_whole) ts_cp_async16("), std::string::npos) << cuda;
  // The thread index's range is told to the compiler at the top, where it reaches the hoisted chunk
  // arithmetic (8 warps: 256 threads).
  EXPECT_LT(cuda.find("__builtin_assume(ts_tid >= 0 && ts_tid < 256);"), cuda.find("ts_wgmma_commit();\n", cuda.find("__global__")));
}

// 128 x 256 tiles over 8 warps leave 128 result slots per thread: on sm_90a their loops are
// unrolled (registers), elsewhere rolled (local memory), as before.
TEST(CudaTensorDescriptor, A128By256ResultStaysInRegistersOnSm90a) {
  ir::KernelPtr k = matmulBtKernel(256);
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions hopper = gpu::test::hopperOptions();
  hopper.tma = false;  // the cp.async ring (CudaTmaTest covers the TMA one)
  const std::string rolled = "#pragma unroll 1\n";
  const std::string loop128 = "for (int ts_j = 0; ts_j < 128; ++ts_j)";
  auto rolledLoops = [&](const std::string& cuda) {
    int n = 0;
    for (size_t at = cuda.find(rolled + " "); at != std::string::npos; at = cuda.find(rolled, at + 1)) {
      const size_t next = cuda.find('\n', at + rolled.size());
      if (cuda.substr(at + rolled.size(), next - at - rolled.size()).find(loop128) != std::string::npos) ++n;
    }
    return n;
  };
  const std::string cuda = gpu::CudaCodegen::generate(*k, hopper).source;
  ASSERT_NE(cuda.find("ts_wgmma_m64n256_f16_kb(ts_acc"), std::string::npos) << cuda;
  ASSERT_NE(cuda.find(loop128), std::string::npos) << cuda;
  EXPECT_EQ(rolledLoops(cuda), 0) << cuda;
  gpu::CudaCodegenOptions portable;
  portable.smArch = 90;
  EXPECT_GT(rolledLoops(gpu::CudaCodegen::generate(*k, portable).source), 0);
}

TEST(CudaTensorDescriptor, TheTransposedBoxWgmmaLoopCompilesForSm90a) {
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  ir::KernelPtr k = matmulBtKernel();
  ASSERT_TRUE(k);
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
  ASSERT_FALSE(compiled->ptx.empty());
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.f16\.f16)")))
      << compiled->ptx;
  // On sm_90a the boxes are TMA copies (CudaTmaTest); the K loop still keeps a group in flight.
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(cp\.async\.bulk\.tensor\.2d)"))) << compiled->ptx;
  EXPECT_TRUE(std::regex_search(compiled->ptx, std::regex(R"(wgmma\.wait_group\.sync\.aligned\s+1;)"))) << compiled->ptx;
}
