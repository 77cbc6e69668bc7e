// A dot operand contiguous along axis 0: `x @ W^T` with W stored N x K as nn.Linear stores it,
// loaded as a K x N tile `w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn`.
// pipeline-dot-loops stages it K-major (N rows of K, 16-byte chunks along K) when the launch says
// stride_wn is a multiple of 16 (so never 1, the row-major chunks' assumption); the emitter copies
// chunks along K and the tensor cores read the stage as such (wmma col-major fragments on sm_80,
// wgmma's K-major descriptors on sm_90a). A W of unknown strides keeps the row-major stage.
#include <gtest/gtest.h>

#include <string>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "tests/gpu/CodegenTestUtil.h"

using namespace tilescope;

namespace {

const char* kLinear = R"(import triton
import triton.language as tl

@triton.jit
def linear(x_ptr, w_ptr, out_ptr, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.dot(tl.load(x_ptrs), tl.load(w_ptrs))
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

constexpr int kStrideWn = 8, kStrideWk = 9;  // parameter indices

// The launch's specialization (core/python/KernelLauncher.cpp): every size a multiple of 16,
// stride_wn (= K) too unless `wnDivisible` is off; stride_xk and stride_wk of 1 become the constant 1
// as Triton compiles them, or with `unitStrides` off stay run-time values (do_not_specialize).
ir::KernelPtr linear(bool wnDivisible, int64_t bk, bool unitStrides = true) {
  lang::Specialization spec;
  const lang::ArgSpec d16 = lang::ArgSpec::scalar(ir::DType::I32, true), i32 = lang::ArgSpec::scalar(ir::DType::I32);
  const lang::ArgSpec one = unitStrides ? lang::ArgSpec::unitInt() : i32;
  const lang::ArgSpec f16 = lang::ArgSpec::pointer(ir::DType::FP16);
  spec.args = {f16,
               f16,
               f16,
               d16,
               d16,
               d16,
               d16,
               one,
               wnDivisible ? d16 : i32,
               one,
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(64)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(128)),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(bk))};
  spec.options.numWarps = 4;
  spec.options.numStages = 4;
  return gpu::test::kernelFrom(kLinear, "linear", spec);
}

gpu::CudaCodegenOptions sm80() {
  gpu::CudaCodegenOptions o;
  o.smArch = 80;
  return o;
}

ir::Kernel lower(const ir::Kernel& k, const gpu::CudaCodegenOptions& options) {
  return gpu::passes::lowerForGpu(k, gpu::gpuTargetOf(options), nullptr, ir::passes::Verify::Always);
}

const ir::PipelinePlan& onlyPipeline(const ir::Kernel& k) {
  EXPECT_EQ(k.dotPlan.pipelines.size(), 1u) << k.dump();
  return k.dotPlan.pipelines.begin()->second;
}

}  // namespace

TEST(KMajorOperand, TheLinearLayersWeightIsStagedKMajorOnWmma) {
  ir::KernelPtr k = linear(true, 32);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, sm80());
  ASSERT_EQ(lowered.dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);
  const ir::PipelinePlan& p = onlyPipeline(lowered);
  EXPECT_FALSE(p.a.kMajor);
  EXPECT_TRUE(p.b.kMajor);
  EXPECT_EQ(p.b.rows, 128);  // N rows ...
  EXPECT_EQ(p.b.cols, 32);   // ... of K
  EXPECT_EQ(p.b.ld, 40);     // padded as A's rows
  EXPECT_FALSE(p.bTransposed);
  // stride_wk is the constant 1 and stride_wn a multiple of 16: every chunk along K whole and aligned.
  EXPECT_TRUE(p.b.provenWhole);
  EXPECT_TRUE(p.unitParams.empty());
  EXPECT_GE(p.stageBytes, p.b.offset + 128 * 40 * 2);
  EXPECT_NE(lowered.dump().find("128x32 at +" + std::to_string(p.b.offset) + " rows of 40, proven whole, K-major"),
            std::string::npos)
      << lowered.dump();

  const std::string cuda = gpu::CudaCodegen::emitLowered(lowered, sm80()).source;
  // The chunks run along K: stage element j is the load's element (j % 32, j / 32).
  EXPECT_NE(cuda.find("const int ts_i = ((ts_i0) % 32) * 128 + (ts_i0) / 32;"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_cp_async16(ts_dst, "), std::string::npos);
  // Col-major B fragments and the row.col multiply that reads them.
  EXPECT_NE(cuda.find("wmma.load.b.sync.aligned.col.m16n16k16.shared.f16"), std::string::npos);
  EXPECT_NE(cuda.find("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), std::string::npos);
  EXPECT_NE(cuda.find("ts_wmma_load_bcol_f16(ts_fb[ts_v], "), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("ts_wmma_load_b_f16(ts_fb"), std::string::npos);
}

TEST(KMajorOperand, ARunTimeUnitStrideAlongKIsCheckedNotTheOther) {
  ir::KernelPtr k = linear(true, 32, false);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, sm80());
  const ir::PipelinePlan& p = onlyPipeline(lowered);
  ASSERT_TRUE(p.b.kMajor);
  EXPECT_FALSE(p.b.provenWhole);
  // Whole chunks need stride_wk == 1 (and A's stride_xk), never stride_wn (a multiple of 16) == 1.
  EXPECT_TRUE(p.unitParams.count(kStrideWk));
  EXPECT_FALSE(p.unitParams.count(kStrideWn));
  const std::string cuda = gpu::CudaCodegen::emitLowered(lowered, sm80()).source;
  EXPECT_NE(cuda.find("(ts_i64)p9 == 1"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("(ts_i64)p8 == 1"), std::string::npos);
  EXPECT_NE(cuda.find("ts_cp_async16_if(ts_dst, ts_src, ts_whole);"), std::string::npos);
  // The element-wise copy of a chunk that is not whole walks along K too.
  EXPECT_NE(cuda.find("const int ts_i = ((ts_i0 + ts_k) % 32) * 128 + (ts_i0 + ts_k) / 32;"), std::string::npos);
}

TEST(KMajorOperand, AWeightOfUnknownStridesKeepsTheRowMajorStage) {
  // Neither stride known: stride_wn might be the 1 (the rows' chunks as likely); nothing changes.
  ir::KernelPtr k = linear(false, 32, false);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, sm80());
  const ir::PipelinePlan& p = onlyPipeline(lowered);
  EXPECT_FALSE(p.b.kMajor);
  EXPECT_EQ(p.b.rows, 32);
  EXPECT_TRUE(p.unitParams.count(kStrideWn));
  const std::string cuda = gpu::CudaCodegen::emitLowered(lowered, sm80()).source;
  EXPECT_EQ(cuda.find("wmma.load.b.sync.aligned.col"), std::string::npos);
  EXPECT_EQ(cuda.find("ts_wmma_load_bcol_"), std::string::npos);
  // The constant unit stride along K decides it, whatever stride_wn is.
  const ir::Kernel unitK = lower(*linear(false, 32), sm80());
  EXPECT_TRUE(onlyPipeline(unitK).b.kMajor);
}

TEST(KMajorOperand, OnHopperWgmmaReadsTheKMajorStageThroughItsDescriptor) {
  ir::KernelPtr k = linear(true, 64);
  ASSERT_TRUE(k);
  const gpu::CudaCodegenOptions hopper = gpu::test::hopperOptions();
  const ir::Kernel lowered = lower(*k, hopper);
  ASSERT_EQ(lowered.dotPlan.dots.at(0).engine, ir::DotEngine::Wgmma) << lowered.dump();
  const ir::PipelinePlan& p = onlyPipeline(lowered);
  EXPECT_TRUE(p.b.kMajor);
  EXPECT_TRUE(p.bTransposed);  // the `a @ b.T` path: B as N rows of K, swizzled
  EXPECT_TRUE(p.b.swizzled);
  EXPECT_EQ(p.b.rows, 128);
  EXPECT_EQ(p.b.cols, 64);
  EXPECT_FALSE(p.tma);
  const std::string cuda = gpu::CudaCodegen::emitLowered(lowered, hopper).source;
  EXPECT_NE(cuda.find("const int ts_i = ((ts_i0) % 64) * 128 + (ts_i0) / 64;"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_wgmma_m64n128_f16_kb("), std::string::npos);
}
