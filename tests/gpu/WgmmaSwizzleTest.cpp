// fp16/bf16 K loops whose K tiles are not whole 128-byte rows (BLOCK_K = 32 or 16) on Hopper's wgmma
// (sm_90a) with the 64- or 32-byte swizzle: what pipeline-dot-loops records per operand stream (the
// swizzle, printed in the dump), the staging and descriptors the emitter prints from it, the PTX
// NVRTC makes of it, and the generated kernels run on emulated warps (tests/gpu/emulation/
// matmul_main.cpp, WarpEmulation.h's wgmma reading the PTX ISA's canonical swizzled layouts).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec S(bool divisibleBy16) { return lang::ArgSpec::scalar(ir::DType::I32, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

// The suite's linear_gelu loop (masked K steps), and its `a @ b.T` form with B stored N x K.
const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

@triton.jit
def mm_nt(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rn[:, None] * stride_bn + rk[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        acc = tl.dot(a, b.T, acc)
        a_ptrs += BK
        b_ptrs += BK
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

@triton.jit
def mm_wt(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

struct Case {
  const char* kernel;
  ir::DType elem;
  int64_t bm, bn, bk;
  int warps, stages;
};

ir::KernelPtr kernelOf(const Case& c) {
  lang::Specialization spec;
  spec.args = {P(c.elem), P(c.elem), P(ir::DType::FP32), S(true), S(true), S(false), S(true), S(true), S(true),
               C(c.bm), C(c.bn), C(c.bk)};
  spec.options.numWarps = c.warps;
  spec.options.numStages = c.stages;
  return gpu::test::kernelFrom(kSource, c.kernel, spec);
}

ir::Kernel lowered(const Case& c) {
  ir::KernelPtr k = kernelOf(c);
  return gpu::passes::lowerForGpu(*k, gpu::gpuTargetOf(gpu::test::hopperOptions()), nullptr, ir::passes::Verify::Always);
}

const Case kGelu{"mm", ir::DType::BF16, 128, 128, 32, 4, 4};      // linear_gelu's configuration: 64B A
const Case kK16{"mm", ir::DType::FP16, 128, 64, 16, 8, 3};        // BLOCK_K = 16 on two warpgroups: 32B A
const Case kNt{"mm_nt", ir::DType::FP16, 64, 128, 32, 4, 3};      // a @ b.T: A and B K-major, 64B
const Case kK64{"mm", ir::DType::BF16, 128, 128, 64, 4, 3};       // whole 128-byte panels, as before
const Case kWt{"mm_wt", ir::DType::FP16, 64, 128, 32, 4, 4};      // x @ W^T, W stored N x K: B staged K-major, 64B

}  // namespace

// pipeline-dot-loops gives each operand stream the widest swizzle whose panels tile its rows: A's
// rows of K = 32 (16) 16-bit elements the 64 (32) byte one, B's rows of N = 128 the 128-byte one,
// a transposed B's rows of K like A's; the dot runs on wgmma instead of wmma. The dump says so.
TEST(WgmmaSwizzle, ShortKRowsTakeThe64Or32ByteSwizzle) {
  struct Want {
    Case c;
    int64_t a, b;
  };
  for (const Want& w : {Want{kGelu, 64, 128}, Want{kK16, 32, 128}, Want{kNt, 64, 64}, Want{kK64, 128, 128}}) {
    const ir::Kernel k = lowered(w.c);
    ASSERT_EQ(k.dotPlan.pipelines.size(), 1u) << k.dotPlan.notPipelined.size();
    const ir::PipelinePlan& p = k.dotPlan.pipelines.begin()->second;
    EXPECT_EQ(k.dotPlan.dots.at(0).engine, ir::DotEngine::Wgmma) << w.c.bk;
    EXPECT_TRUE(p.a.swizzled && p.b.swizzled);
    EXPECT_EQ(p.a.swizzleBytes, w.a) << w.c.kernel << " BK " << w.c.bk;
    EXPECT_EQ(p.b.swizzleBytes, w.b) << w.c.kernel << " BK " << w.c.bk;
    EXPECT_EQ(p.bTransposed, std::string(w.c.kernel) == "mm_nt");
    EXPECT_FALSE(p.tma);
    std::map<int, std::string> names;
    const std::string dump = k.dotPlan.str(names);
    EXPECT_NE(dump.find("swizzled " + std::to_string(w.a) + "B"), std::string::npos) << dump;
  }
  // Stages: A 128 x 32 bf16 (8 KiB) and B 32 x 128 (8 KiB), each on a 1024-byte boundary.
  EXPECT_EQ(lowered(kGelu).dotPlan.pipelines.begin()->second.stageBytes, 16384u);
  // On plain sm_90 (no wgmma) BLOCK_K = 32 stays on wmma with padded rows.
  gpu::CudaCodegenOptions sm90;
  sm90.smArch = 90;
  const ir::Kernel portable = gpu::passes::lowerForGpu(*kernelOf(kGelu), gpu::gpuTargetOf(sm90), nullptr, ir::passes::Verify::Always);
  EXPECT_EQ(portable.dotPlan.dots.at(0).engine, ir::DotEngine::Wmma);
  EXPECT_FALSE(portable.dotPlan.pipelines.begin()->second.a.swizzled);
}

// The emitter prints the plan: A's chunks at c ^ ((r / 2) % 4) in rows of 64 bytes (32B: c ^ ((r / 4)
// % 2), rows of 32 bytes), its descriptors in the 64-byte (32-byte) mode with 8-row groups 512 (256)
// bytes apart, two k-steps (one) per panel; B's stays the 128-byte one (N rows of 128 bytes,
// panels K * 128 bytes apart). NVRTC turns it into wgmma m64nNk16, which ptxas assembles without
// serialising it.
// A B whose K x N tile is contiguous along K (x @ W^T) is staged K-major on wgmma, with its rows of
// K = 32 in the 64-byte swizzle, like a transposed B's.
TEST(WgmmaSwizzle, AKMajorBTakesItsRowsSwizzle) {
  const ir::Kernel k = lowered(kWt);
  ASSERT_EQ(k.dotPlan.pipelines.size(), 1u) << k.dump();
  const ir::PipelinePlan& p = k.dotPlan.pipelines.begin()->second;
  EXPECT_TRUE(p.b.kMajor);
  EXPECT_TRUE(p.bTransposed);
  EXPECT_EQ(p.b.swizzleBytes, 64);
  EXPECT_EQ(p.a.swizzleBytes, 64);
}

TEST(WgmmaSwizzle, StagingAndDescriptorsFollowTheSwizzle) {
  const std::string gelu = gpu::CudaCodegen::generate(*kernelOf(kGelu), gpu::test::hopperOptions()).source;
  EXPECT_NE(gelu.find("ts_row * 64 + ((((ts_col % 32) / 8) ^ ((ts_row / 2) % 4)) * 16)"), std::string::npos) << gelu;
  EXPECT_NE(gelu.find("ts_row * 128 + ((((ts_col % 64) / 8) ^ (ts_row % 8)) * 16)"), std::string::npos) << gelu;  // B
  EXPECT_NE(gelu.find("const unsigned ts_a = ts_sa + (ts_k / 2) * 8192 + (ts_wg * 128 + ts_t * 64) * 64 + (ts_k % 2) * 32;"),
            std::string::npos)
      << gelu;
  EXPECT_NE(gelu.find("ts_wgmma_desc_64b(ts_a, 16, 512), ts_wgmma_desc(ts_b, 4096, 1024)"), std::string::npos) << gelu;
  EXPECT_NE(gelu.find("| (2ull << 62);"), std::string::npos) << gelu;  // the helper's swizzle mode: 64B
  const std::string k16 = gpu::CudaCodegen::generate(*kernelOf(kK16), gpu::test::hopperOptions()).source;
  EXPECT_NE(k16.find("ts_row * 32 + ((((ts_col % 16) / 8) ^ ((ts_row / 4) % 2)) * 16)"), std::string::npos) << k16;
  EXPECT_NE(k16.find("ts_wgmma_desc_32b(ts_a, 16, 256), ts_wgmma_desc(ts_b, 2048, 1024)"), std::string::npos) << k16;
  EXPECT_NE(k16.find("| (3ull << 62);"), std::string::npos) << k16;
  const std::string nt = gpu::CudaCodegen::generate(*kernelOf(kNt), gpu::test::hopperOptions()).source;
  EXPECT_NE(nt.find("ts_wgmma_m64n128_f16_kb(ts_acc"), std::string::npos) << nt;
  EXPECT_NE(nt.find("ts_wgmma_desc_64b(ts_a, 16, 512), ts_wgmma_desc_64b(ts_b, 16, 512)"), std::string::npos) << nt;
  const std::string geluBody = gelu.substr(gelu.find("extern \"C\" __global__"));
  EXPECT_EQ(geluBody.find("ts_wmma_"), std::string::npos) << geluBody;  // no wmma fragments

  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto compiled = gpu::GpuCompiler::instance().compile(*kernelOf(kGelu), "sm_90a");
  const std::string& ptx = compiled->ptx;
  EXPECT_EQ(gpu::test::occurrences(ptx, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"), 4u)
      << "2 k-steps of 2 m64 tiles";
  const std::optional<gpu::test::PtxasRun> assembled = gpu::test::runPtxas(ptx, "sm_90a");
  if (!assembled) GTEST_SKIP() << "ptxas not found: NVRTC's PTX checked, not assembled";
  const std::string& log = assembled->log;
  EXPECT_EQ(assembled->exitCode, 0) << log;
  EXPECT_EQ(log.find("serialized"), std::string::npos) << log;
  EXPECT_NE(log.find(" 0 bytes spill stores"), std::string::npos) << log;
}

// The generated kernels compiled for the CPU against WarpEmulation.h and run: bf16 128x128x32 on 4
// warps (4 stages), fp16 128x64x16 on 8 warps (two warpgroups), fp16 a @ b.T 64x128x32, the
// 128-byte BLOCK_K = 64 loop, each within fp32 summation error of a float64 product over K = 76 (a
// partial last step whose masked elements are NaN in memory); and x @ W^T 64x128x32 with B staged
// K-major in the 64-byte swizzle (B loaded unmasked, so K = 64).
TEST(WgmmaSwizzle, GeneratedMatmulsAreRightOnEmulatedWarps) {
  const fs::path dir = fs::temp_directory_path() / ("tilescope-emulated-mm-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path emulation = fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "emulation";
  for (const Case& c : {kGelu, kK16, kNt, kK64, kWt}) {
    const std::string cuda = gpu::CudaCodegen::generate(*kernelOf(c), gpu::test::hopperOptions()).source;
    ASSERT_NE(cuda.find("ts_wgmma_m64n"), std::string::npos) << cuda;
    std::string body = gpu::test::emulatedKernelBody(cuda);
    ASSERT_NE(body.find("g_smem"), std::string::npos) << body;
    std::ofstream(dir / "kernel_body.inc") << body;
    const bool bf16 = c.elem == ir::DType::BF16;
    const std::string command = std::string(TILESCOPE_HOST_CXX) + " -std=c++20 -O1 -w -pthread -I" + emulation.string() + " -I" +
                                dir.string() + (bf16 ? " -DCONV=ts_f2b -DBACK=ts_b2f" : " -DCONV=ts_f2h -DBACK=ts_h2f") +
                                " -DBM=" + std::to_string(c.bm) + " -DBN=" + std::to_string(c.bn) + " -DWARPS=" +
                                std::to_string(c.warps) + " -DTRANS=" + (std::string(c.kernel) == "mm" ? "0" : "1") + " -DNT_FN=ts_" + c.kernel + (std::string(c.kernel) == "mm_wt" ? " -DKDIM=64" : "") + " " +
                                (emulation / "matmul_main.cpp").string() + " -o " + (dir / "emulated").string() + " && " +
                                (dir / "emulated").string() + " > " + (dir / "out.txt").string();
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const std::string out = lang::test::readFile(dir / "out.txt");
    const size_t at = out.find("max abs error ");
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_NE(out.find("status 0,"), std::string::npos) << out;
    EXPECT_LT(std::stod(out.substr(at + 14)), 1e-3) << out << " (" << c.kernel << " " << c.bm << "x" << c.bn << "x" << c.bk << ")";
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
