// tl.dot of int8 tiles into an int32 accumulator on tensor cores (ctest label nvrtc): the plan the
// dot passes record (wmma s8 m16n16k16, int32 fragments, int8 operands staged and copied by cp.async
// in chunks of 16), the CUDA the emitter prints for it, where the exact path stays (before sm_72),
// that NVRTC accepts it, and that the generated kernel is exact on warps emulated on the CPU. GpuRun.Int8DotsMatchTheSimulator (GpuRunTest.cpp, tests/gpu/data/int8_dot.py)
// runs these kernels against the simulator.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/gpu/CodegenTestUtil.h"

using namespace tilescope;

namespace {

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec S(bool divisibleBy16 = false) { return lang::ArgSpec::scalar(ir::DType::I32, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

// The quantised matmul as users write it; MASK is replaced by the loads' K-tail masks (or nothing).
const char* kInt8Matmul = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs A_MASK)
        b = tl.load(b_ptrs B_MASK)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";

ir::KernelPtr int8Matmul(bool masked, int stages = 3, int warps = 8) {
  std::string src = kInt8Matmul;
  src.replace(src.find("A_MASK"), 6, masked ? ", mask=rk[None, :] < K - k, other=0" : "");
  src.replace(src.find("B_MASK"), 6, masked ? ", mask=rk[:, None] < K - k, other=0" : "");
  lang::Specialization spec;
  spec.args = {P(ir::DType::I8), P(ir::DType::I8), P(ir::DType::I32), S(), S(true), S(true), C(128), C(128), C(64)};
  spec.options.numWarps = warps;
  spec.options.numStages = stages;
  return gpu::test::kernelFrom(src, "mm", spec);
}

gpu::CudaCodegenOptions sm(int arch) {
  gpu::CudaCodegenOptions o;
  o.smArch = arch;
  return o;
}

ir::Kernel lower(const ir::Kernel& k, const gpu::CudaCodegenOptions& options) {
  return gpu::passes::lowerForGpu(k, gpu::gpuTargetOf(options), nullptr, ir::passes::Verify::Always);
}

}  // namespace

TEST(Int8Dot, TheLoopRecordsS8WmmaAResidentInt32AccumulatorAndItsRing) {
  ir::KernelPtr k = int8Matmul(false);
  ASSERT_TRUE(k);
  for (const gpu::CudaCodegenOptions& target : {sm(80), gpu::test::hopperOptions()}) {
    const ir::Kernel lowered = lower(*k, target);
    const ir::DotPlan& plan = lowered.dotPlan;
    ASSERT_EQ(plan.dots.size(), 1u);
    const ir::DotLowering& dot = plan.dots.at(0);
    EXPECT_EQ(dot.engine, ir::DotEngine::Wmma) << lowered.dump();
    const ir::TensorCoreShape& l = dot.tensorCores;
    EXPECT_EQ(l.elem, "s8");
    EXPECT_EQ(l.kStep, 16);
    EXPECT_EQ(l.fragRegs, 2);
    EXPECT_EQ(l.elemBytes, 1);
    EXPECT_EQ(l.lda, 64 + 16);  // 16 bytes of padding per row: 16 int8 elements
    EXPECT_EQ(l.ldb, 128 + 16);
    EXPECT_EQ(l.fm * l.fn * l.blocks, 64);  // 8 x 8 tiles of 16 x 16
    // Blocks taller than wide: B fragments (gathered byte by byte) reused by 4 A fragments.
    EXPECT_EQ(l.fm, 4);
    EXPECT_EQ(l.fn, 2);
    EXPECT_FALSE(dot.warpgroup);            // no s8 wgmma: wmma on Hopper too
    ASSERT_EQ(plan.resident.size(), 1u);
    ASSERT_EQ(plan.pipelines.size(), 1u) << lowered.dump();
    const ir::PipelinePlan& p = plan.pipelines.begin()->second;
    EXPECT_EQ(p.stages, 3);
    EXPECT_EQ(p.a.cols, 64);
    EXPECT_EQ(p.a.ld, 80);
    EXPECT_TRUE(p.a.provenWhole);  // 16-divisible strides, no mask: 16 int8 elements per cp.async
    EXPECT_FALSE(p.a.swizzled);
    EXPECT_EQ(lowered.dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);  // pipelining keeps it wmma
    EXPECT_NE(lowered.dump().find(": wmma s8 128x64 @ 64x128"), std::string::npos) << lowered.dump();
  }
}

TEST(Int8Dot, AMaskedKTailIsPipelinedWithChecksAtChunkEnds) {
  ir::KernelPtr k = int8Matmul(true);
  ASSERT_TRUE(k);
  const ir::Kernel lowered = lower(*k, gpu::test::hopperOptions());
  ASSERT_EQ(lowered.dotPlan.pipelines.size(), 1u) << lowered.dump();
  const ir::PipelinePlan& p = lowered.dotPlan.pipelines.begin()->second;
  EXPECT_TRUE(p.a.maskAtEnds);
  EXPECT_FALSE(p.a.provenWhole);
  // B's mask is constant along its rows of 128 contiguous elements: whole chunks, checked as a whole.
  EXPECT_FALSE(p.b.provenWhole);
  const std::string cuda = gpu::CudaCodegen::generate(*k, gpu::test::hopperOptions()).source;
  // The element-wise copy of a cut chunk moves bytes; `other` is the int8 0.
  EXPECT_NE(cuda.find("ts_u8* ts_dst = (ts_u8*)"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_cp_async16_if(ts_dst, ts_src, ts_whole);"), std::string::npos) << cuda;
}

TEST(Int8Dot, BeforeSm72TheDotStaysExactAndBeforeSm80ItIsNotPipelined) {
  ir::KernelPtr k = int8Matmul(false);
  ASSERT_TRUE(k);
  const ir::Kernel volta = lower(*k, sm(70));
  EXPECT_EQ(volta.dotPlan.dots.at(0).engine, ir::DotEngine::Exact);
  EXPECT_TRUE(volta.dotPlan.resident.empty());
  const std::string exact = gpu::CudaCodegen::generate(*k, sm(70)).source;
  EXPECT_EQ(exact.find("ts_wmma_mma_s8("), std::string::npos);
  const ir::Kernel turing = lower(*k, sm(75));
  EXPECT_EQ(turing.dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);
  EXPECT_EQ(turing.dotPlan.resident.size(), 1u);
  ASSERT_EQ(turing.dotPlan.notPipelined.size(), 1u);
  EXPECT_EQ(turing.dotPlan.notPipelined.begin()->second, "cp.async needs sm_80");
}

TEST(Int8Dot, TheEmitterKeepsTheAccumulatorInInt32FragmentsAndNvrtcAcceptsIt) {
  ir::KernelPtr k = int8Matmul(false);
  ASSERT_TRUE(k);
  const gpu::CudaKernelSource out = gpu::CudaCodegen::generate(*k, gpu::test::hopperOptions());
  const std::string& cuda = out.source;
  EXPECT_TRUE(out.usesTensorCores);
  EXPECT_NE(cuda.find("acc stays in tensor-core fragments for the whole loop"), std::string::npos) << cuda;
  // int fragments, filled with the constant start (tl.zeros) and not through shared memory.
  EXPECT_NE(cuda.find("int ts_acc"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("float ts_acc"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_wmma_load_a_s8(ts_fa[ts_u], (const ts_i8*)("), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_wmma_mma_s8("), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("ts_cp_async16(ts_dst"), std::string::npos) << cuda;
  // Read back exactly: the s32 fragments stored as int, copied into the int32 tile.
  EXPECT_NE(cuda.find("ts_wmma_store((int*)(ts_smem"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("= ((int*)(ts_smem + 0))[(ts_i / 128) * 132 + ts_i % 128];"), std::string::npos) << cuda;
  EXPECT_EQ(cuda.find("fmaf("), std::string::npos);
  // The s8 helpers come only with an s8 dot: fp16 kernels' CUDA is unchanged.
  EXPECT_NE(cuda.find("---- int8 tensor cores"), std::string::npos);
  EXPECT_EQ(gpu::CudaCodegen::generate(*k, sm(70)).source.find("---- int8 tensor cores"), std::string::npos);
  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
  EXPECT_NE(compiled->ptx.find("wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32"), std::string::npos);
  EXPECT_NE(compiled->ptx.find("wmma.load.b.sync.aligned.row.m16n16k16.shared.s8"), std::string::npos);
  EXPECT_NE(gpu::GpuCompiler::instance().compile(*k, "sm_80")->ptx.find("cp.async.cg.shared.global"), std::string::npos);
}

TEST(Int8Dot, ADotOutsideALoopAddsItsAccumulatorWrapping) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def one(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    c = tl.load(c_ptr + r[:, None] * 32 + r[None, :])
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], tl.dot(a, b, c))
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::I8), P(ir::DType::I8), P(ir::DType::I32)};
  spec.options.numWarps = 4;
  ir::KernelPtr k = gpu::test::kernelFrom(src, "one", spec);
  ASSERT_TRUE(k);
  EXPECT_EQ(lower(*k, sm(80)).dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);
  const std::string cuda = gpu::CudaCodegen::generate(*k, sm(80)).source;
  EXPECT_NE(cuda.find("ts_wmma_mma_s8("), std::string::npos) << cuda;
  // int32 sums wrap as the simulator's do: in unsigned arithmetic, no signed overflow.
  EXPECT_NE(cuda.find("= (ts_i32)((ts_u32)"), std::string::npos) << cuda;
}

// The generated kernel (sm_80: cp.async ring, wmma s8), compiled for the CPU against
// tests/gpu/emulation/WmmaS8Emulation.h and run on one 128 x 128 program: a masked K tail cut inside
// a 16-byte chunk (K = 200) on 8 warps, whole chunks (K = 256) on 4 warps; every int32 result must
// be the exact product.
TEST(Int8Dot, GeneratedMatmulIsExactOnEmulatedWarps) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tilescope-int8-emulated-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path emulation = fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "emulation";
  struct Case {
    bool masked;
    int k, warps;
  };
  for (const Case& c : {Case{true, 200, 8}, Case{false, 256, 4}}) {
    ir::KernelPtr k = int8Matmul(c.masked, 3, c.warps);
    ASSERT_TRUE(k);
    const std::string cuda = gpu::CudaCodegen::generate(*k, sm(80)).source;
    ASSERT_NE(cuda.find("ts_wmma_mma_s8("), std::string::npos);
    std::string body = gpu::test::emulatedKernelBody(cuda);
    std::ofstream(dir / "kernel_body.inc") << body;
    const std::string command = std::string(TILESCOPE_HOST_CXX) + " -std=c++20 -O1 -w -pthread -I" + emulation.string() + " -I" +
                                dir.string() + " -DK=" + std::to_string(c.k) + " -DWARPS=" + std::to_string(c.warps) + " " +
                                (emulation / "int8_matmul_main.cpp").string() + " -o " + (dir / "emulated").string() + " && " +
                                (dir / "emulated").string() + " > " + (dir / "out.txt").string();
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream in(dir / "out.txt");
    const std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(out.find("status 0, wrong 0"), std::string::npos) << out << " (K " << c.k << ", " << c.warps << " warps)";
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
