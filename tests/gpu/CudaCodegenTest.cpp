// CUDA C++ generation without a GPU: golden files for a few seed kernels (tests/golden/cuda/, the
// prelude left out; TILESCOPE_UPDATE_GOLDEN=1 rewrites those that differ, reported skipped), the layout facts the launcher relies on, and clear
// diagnostics for what the GPU backend does not support yet.
#include <gtest/gtest.h>

#include <tuple>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/codegen/CudaPrelude.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/gpu/GpuSeedCases.h"

using namespace tilescope;
using gpu::CudaCodegen;
using gpu::CudaKernelSource;

namespace {

using gpu::test::kernelFrom;

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec S(ir::DType t = ir::DType::I32, bool divisibleBy16 = false) { return lang::ArgSpec::scalar(t, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

class CudaGolden : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(CudaGolden, SeedKernelMatchesGolden) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  for (const gpu::test::GpuSeedCase& c : gpu::test::gpuSeedCases()) {
    if (std::string(c.name) != GetParam()) continue;
    ir::KernelPtr k = gpu::test::checkSeedCase(c);
    ASSERT_TRUE(k);
    const CudaKernelSource src = CudaCodegen::generate(*k);
    // The fixed prelude (core/gpu/codegen/CudaPrelude.cpp) is the same in every kernel: the goldens hold
    // what is generated for the kernel itself.
    std::string text = src.source;
    const std::string_view prelude = gpu::cudaPrelude();
    const size_t at = text.find(prelude);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, prelude.size(), "// <prelude>\n");
    lang::test::expectGolden(std::string("cuda/") + c.name + ".cu", text);
    return;
  }
  FAIL() << "no seed case " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Seeds, CudaGolden,
                         ::testing::Values("add_kernel", "softmax_kernel", "layernorm_kernel_fp16", "grouped_matmul_k_fp32_16",
                                           "swizzle_k"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

// The seed's grouped matmul as the benchmark runs it on an H100: fp16, 128x128x64 blocks, 8 warps,
// 3 stages, sm_90a (wgmma), unit strides specialized as Triton does. The zero accumulator starts in
// registers and the result leaves them through 8- and 16-byte shared accesses: this is the code
// whose size sets the first call's compile time.
TEST(CudaCodegen, SeedGroupedMatmulOnWarpgroupMmaMatchesGolden) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  auto program = lang::test::seedProgram("triton-practitioners-guide.md");
  const lang::JitFunctionInfo* fn = nullptr;
  for (const lang::JitFunctionInfo& j : program->jitFunctions())
    if (j.name == "grouped_matmul_k" && !fn) fn = &j;
  ASSERT_NE(fn, nullptr);
  lang::Specialization spec;
  const lang::ArgSpec i32x16 = S(ir::DType::I32, true);
  spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP16), i32x16, i32x16, i32x16, i32x16, C(1), i32x16, C(1), i32x16, C(1)};
  spec.kwargs = {{"bm", C(128)}, {"bn", C(128)}, {"bk", C(64)}, {"group_sz", C(8)}};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  lang::CheckResult r = lang::checkKernel(*program, *fn, spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  gpu::CudaCodegenOptions options = gpu::test::hopperOptions();
  std::string text = CudaCodegen::generate(*r.kernel, options).source;
  const std::string_view prelude = gpu::cudaPrelude();
  const size_t at = text.find(prelude);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, prelude.size(), "// <prelude>\n");
  EXPECT_NE(text.find("wgmma"), std::string::npos);
  // No trip through shared memory for the zero start: a barrier before the loop would show it.
  const std::string beforeLoop = text.substr(0, text.find("ts_start"));
  EXPECT_EQ(beforeLoop.find("__syncthreads"), std::string::npos) << beforeLoop;
  lang::test::expectGolden("cuda/grouped_matmul_k_wgmma.cu", text);
}

// What the axis analysis proves drops run-time checks: with strides and sizes divisible by 16 (as
// Triton specializes them) every staged 16-byte chunk is whole and aligned and the result's vector
// stores are aligned with one mask value each; with arbitrary strides both keep their checks and
// element-wise paths.
TEST(CudaCodegen, ProvenAlignmentDropsRunTimeChecks) {
  if (!lang::test::seedsAvailable()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  auto program = lang::test::seedProgram("triton-practitioners-guide.md");
  const lang::JitFunctionInfo* fn = nullptr;
  for (const lang::JitFunctionInfo& j : program->jitFunctions())
    if (j.name == "grouped_matmul_k" && !fn) fn = &j;
  ASSERT_NE(fn, nullptr);
  const auto count = gpu::test::occurrences;
  for (const bool divisible : {true, false}) {
    SCOPED_TRACE(divisible ? "i32:16" : "i32");
    lang::Specialization spec;
    const lang::ArgSpec i = S(ir::DType::I32, divisible);
    spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP16), i, i, i, i, C(1), i, C(1), i, C(1)};
    spec.kwargs = {{"bm", C(128)}, {"bn", C(128)}, {"bk", C(64)}, {"group_sz", C(8)}};
    spec.options.numWarps = 8;
    spec.options.numStages = 3;
    lang::CheckResult r = lang::checkKernel(*program, *fn, spec);
    ASSERT_TRUE(r.ok()) << r.diagnostics.render();
    gpu::CudaCodegenOptions options = gpu::test::hopperOptions();
    const std::string text = CudaCodegen::generate(*r.kernel, options).source;
    // Prologue and loop, A and B.
    EXPECT_EQ(count(text, "every chunk proven whole and 16-byte aligned"), divisible ? 4u : 0u);
    EXPECT_EQ(count(text, "unsigned ts_missed"), divisible ? 0u : 4u);
    EXPECT_EQ(count(text, "proven consecutive and aligned"), divisible ? 1u : 0u);
    EXPECT_EQ(count(text, "if (ts_vec_ok(ts_vp, ts_vm))"), divisible ? 0u : 1u);
  }
}

TEST(CudaCodegen, OneCtaOfNumWarpsThreadsWithSourceLines) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-1.5)
    s = tl.sum(x, axis=0)
    tl.store(y_ptr + offs, x * s, mask=offs < n)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), P(ir::DType::FP32), S(), C(1000 > 0 ? 512 : 0)};
  spec.options.numWarps = 8;
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const CudaKernelSource out = CudaCodegen::generate(*k);
  EXPECT_EQ(out.numThreads, 256);
  EXPECT_EQ(out.entryName, "ts_k");
  // 512 fp32 partial sums exchanged between the warps of the reduction, with one padding word per
  // 32 (and one more), rounded up to 16 bytes. The two slots' sums over the warps and lanes (each
  // slot done by another warp) go to the reduction's own static array, which every thread reads.
  EXPECT_EQ(out.dynamicSharedBytes, ((512u + 16u + 1u) * 4u + 15u) / 16u * 16u);
  EXPECT_NE(out.source.find("__shared__ __align__(16) float ts_sr1[2];"), std::string::npos) << out.source;
  // offs and the masks are recomputed where used: no per-thread array holds them.
  EXPECT_EQ(out.source.find("_offs["), std::string::npos) << out.source;
  EXPECT_NE(out.source.find("__launch_bounds__(256) ts_k("), std::string::npos);
  // Element loops of 512 / 256 = 2 slots; the load line maps back to line 7 of k.py.
  EXPECT_NE(out.source.find("ts_j < 2;"), std::string::npos);
  EXPECT_NE(out.source.find("#line 7 \"k.py\"\n"), std::string::npos) << out.source;
  EXPECT_NE(out.source.find("#line 9 \"k.py\"\n"), std::string::npos);
  // `other` is -1.5 exactly (as fp32 bits), used only where the mask is false.
  EXPECT_NE(out.source.find("__int_as_float(0xbfc00000)"), std::string::npos);
}

TEST(CudaCodegen, BlockedLayoutMapsSlotsToElements) {
  struct Row {
    int threads, vec, tid, slot;
    int64_t element;
  };
  const Row rows[] = {
      {128, 1, 0, 0, 0},      {128, 1, 5, 0, 5},      {128, 1, 5, 3, 3 * 128 + 5}, {128, 4, 0, 0, 0},
      {128, 4, 0, 3, 3},      {128, 4, 1, 0, 4},      {128, 4, 1, 2, 6},           {128, 4, 127, 3, 511},
      {128, 4, 0, 4, 512},    {128, 4, 2, 5, 521},    {128, 4, 3, 63, 15 * 512 + 15}, {256, 2, 7, 1, 15},
      {256, 2, 7, 2, 512 + 14}, {64, 4, 63, 7, 256 + 255},
  };
  for (const Row& r : rows) {
    const gpu::BlockedLayout l{r.threads, r.vec};
    EXPECT_EQ(l.element(r.tid, r.slot), r.element) << r.threads << " threads, vec " << r.vec << ", tid " << r.tid << ", slot " << r.slot;
  }
  // Every element of a tile is owned exactly once.
  for (const auto& [threads, vec, numel] : {std::tuple{128, 4, int64_t{8192}}, std::tuple{128, 2, int64_t{768}}, std::tuple{96, 4, int64_t{1000}},
                                             std::tuple{128, 1, int64_t{77}}}) {
    const gpu::BlockedLayout l{threads, vec};
    EXPECT_EQ(l.slots(numel) % vec, 0);
    std::vector<int> seen(static_cast<size_t>(numel), 0);
    for (int tid = 0; tid < threads; ++tid)
      for (int j = 0; j < l.slots(numel); ++j)
        if (const int64_t e = l.element(tid, j); e < numel) ++seen[static_cast<size_t>(e)];
    for (int64_t e = 0; e < numel; ++e) ASSERT_EQ(seen[static_cast<size_t>(e)], 1) << "element " << e << " of " << numel;
  }
}

TEST(CudaCodegen, AxisReductionsUseShufflesAndOneSharedExchange) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(y_ptr + r, tl.sum(x, axis=1))
    tl.store(y_ptr + R + c, tl.max(x, axis=0))
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), P(ir::DType::FP32), C(32), C(64)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const CudaKernelSource out = CudaCodegen::generate(*k);
  // [32, 64] over 128 threads, 4 per group: element = row * 64 + col, thread = (element / 4) % 128.
  EXPECT_NE(out.source.find("const int ts_i = ts_j / 4 * 512 + ts_tid * 4 + ts_j % 4;"), std::string::npos) << out.source;
  // axis=1 (columns: vec bits and lanes 0..3): shuffles over lane masks 8, 4, 2, 1, no warp exchange.
  EXPECT_NE(out.source.find("ts_shfl_xor(ts_x[0], 8)"), std::string::npos) << out.source;
  // axis=0 (rows: lane bit 16, the warps, the groups): the partner rows of other warps come through
  // shared memory; the warp that did a slot's warp levels also does its lane level.
  EXPECT_NE(out.source.find("if ((ts_tid & 96) == 0)"), std::string::npos) << out.source;
  EXPECT_LT(out.source.find("ts_y[0] = fmaxf(ts_y[0], ts_y[1]);"), out.source.find("ts_shfl_xor(ts_r, 16)")) << out.source;
  EXPECT_NE(out.source.find("ts_shfl_xor(ts_r, 16)"), std::string::npos) << out.source;
  // Its group bits first, in registers: rows 16 apart (slot + 8), then 8 apart (slot + 4).
  EXPECT_LT(out.source.find("fmaxf(ts_x[0], ts_x[8])"), out.source.find("fmaxf(ts_x[0], ts_x[4])")) << out.source;
  EXPECT_NE(out.source.find("fmaxf(ts_x[0], ts_x[4])"), std::string::npos) << out.source;
}

// fp16 rows: 16-byte groups of 8 elements, kept packed (two per register) until read; a mask
// `cols < n` is one compare per group when n is divisible by 16, one per element otherwise.
TEST(CudaCodegen, Fp16RowsLoadSixteenBytesPerGroupAndMaskOncePerGroupWhereTheyCan) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + cols, x * 2.0, mask=mask)
)";
  for (bool divisible : {true, false}) {
    lang::Specialization spec;
    spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), S(ir::DType::I32, divisible), C(2048)};
    ir::KernelPtr k = kernelFrom(src, "k", spec);
    ASSERT_TRUE(k);
    const CudaKernelSource out = CudaCodegen::generate(*k);
    EXPECT_NE(out.source.find("const int ts_i0 = ts_g * 1024 + ts_tid * 8;"), std::string::npos) << out.source;
    // Groups proven whole under one mask value: the words start as `other` (fp16 0.0, whole words
    // written at generation time) and one predicated load fills them, with no branch per group;
    // otherwise the run-time-checked vector load.
    if (divisible) {
      EXPECT_NE(out.source.find("_words[ts_g * 4 + ts_w] = 0x00000000u;"), std::string::npos) << out.source;
      EXPECT_NE(out.source.find("ts_vld_words_if<8>(ts_vp[0], &v"), std::string::npos) << out.source;
      EXPECT_NE(out.source.find("ts_vst_if(ts_vp[0], ts_vv, ts_m0);"), std::string::npos) << out.source;
      EXPECT_EQ(out.source.find("if (ts_m0)"), std::string::npos) << out.source;
    } else {
      EXPECT_NE(out.source.find("ts_vld_words<8>(ts_vp[0], &v"), std::string::npos) << out.source;
    }
    // x is read as ts_h2f(ts_half(words...)): no fp32 copy of the tile.
    EXPECT_NE(out.source.find("ts_h2f(ts_half(v"), std::string::npos) << out.source;
    const bool once = out.source.find("ts_vm[ts_k] = ts_m0;") != std::string::npos;
    EXPECT_EQ(once, divisible) << out.source;
  }
}

// Constants of 16-bit floats are rounded at generation time (no cvt chain per element at run time):
// `other=1.0` fills a packed group as whole words 0x3c00 0x3c00, and the fp16 literal 0.1 is the
// fp32 bits of its fp16 value (0x2e66 = 0.0999755859375). A tl.where whose condition is constant
// over each group (cols < n, n divisible by 16) evaluates it at the group's first element and
// selects without a branch (ts_sel); where n is not known divisible it is compared per element.
TEST(CudaCodegen, Fp16ConstantsAreRoundedAtGenerationAndWhereConditionsEvaluatedPerGroup) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < n, other=1.0)
    tl.store(y_ptr + cols, tl.where(cols < n, x * 0.1, -x), mask=cols < n)
)";
  for (bool divisible : {true, false}) {
    SCOPED_TRACE(divisible ? "i32:16" : "i32");
    lang::Specialization spec;
    spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), S(ir::DType::I32, divisible), C(2048)};
    ir::KernelPtr k = kernelFrom(src, "k", spec);
    ASSERT_TRUE(k);
    const std::string text = CudaCodegen::generate(*k).source;
    const std::string body = text.substr(text.find("__global__ void"));
    EXPECT_NE(body.find("* (__int_as_float(0x3dccc000))"), std::string::npos) << body;
    EXPECT_EQ(body.find("ts_rh_d("), std::string::npos) << body;
    EXPECT_NE(body.find("ts_sel<float>("), std::string::npos) << body;
    EXPECT_EQ(body.find("(ts_i - ts_j % 8)))) < (p2)), ts_rh(") != std::string::npos, divisible) << body;
    if (divisible)
      EXPECT_NE(body.find("_words[ts_g * 4 + ts_w] = 0x3c003c00u;"), std::string::npos) << body;
    else
      EXPECT_NE(body.find("ts_u16 ts_v = ((ts_u16)0x3c00);"), std::string::npos) << body;
  }
}

TEST(CudaCodegen, UnsupportedOpsGiveADiagnosticWithTheLocation) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    x = tl.load(x_ptr + offs)
    tl.atomic_add(y_ptr + offs, x)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), C(64)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  try {
    CudaCodegen::generate(*k);
    FAIL() << "atomics on fp16 elements must be rejected";
  } catch (const lang::CompileError& e) {
    const std::string text = e.diagnostic().render();
    EXPECT_NE(text.find("k.py:8:"), std::string::npos) << text;
    EXPECT_NE(text.find("atomics on fp16 elements"), std::string::npos) << text;
    EXPECT_NE(text.find("not supported on the GPU backend yet; use --backend sim"), std::string::npos) << text;
  }
}

TEST(CudaCodegen, HostCallsAreSkippedWithAWarning) {
  const char* src = R"(import triton
import triton.language as tl

def show(x):
    print(x)

@triton.jit
def k(x_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    show(offs)
    tl.store(x_ptr + offs, offs)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::I32), C(32)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const CudaKernelSource out = CudaCodegen::generate(*k);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_NE(out.warnings[0].render().find("k.py:10:"), std::string::npos) << out.warnings[0].render();
  EXPECT_NE(out.warnings[0].message.find("'show'"), std::string::npos);
}

TEST(CudaCodegen, AssertionsAndLoopStepsBecomeStatusCodes) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, step, B: tl.constexpr):
    offs = tl.arange(0, B)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x >= 0, "negative input")
    for i in range(0, n, step):
        tl.store(x_ptr + offs, x + i)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), S(), S(), C(64)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const CudaKernelSource out = CudaCodegen::generate(*k);
  ASSERT_EQ(out.failures.size(), 2u);
  EXPECT_NE(out.failures[0].message.find("negative input"), std::string::npos);
  EXPECT_EQ(out.failures[0].range.start().line, 8);
  EXPECT_EQ(out.failures[1].message, "range() step is zero");
  EXPECT_NE(out.source.find("ts_fail(ts_status, 1u)"), std::string::npos);
  EXPECT_NE(out.source.find("ts_fail(ts_status, 2u)"), std::string::npos);
}

TEST(CudaCodegen, DotsUseTensorCoresWhereTheirPrecisionAllowsAndOtherDotsStayExact) {
  const char* srcTemplate = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b PRECISION))
)";
  struct Case {
    ir::DType in;
    const char* precision;
    int64_t m, n, k;
    int smArch;
    const char* tensorCores;  // the helpers' suffix, or nullptr for the exact path
  };
  for (const Case& c : {Case{ir::DType::FP16, "", 64, 32, 32, 80, "f16"}, Case{ir::DType::FP16, "", 128, 128, 64, 90, "f16"},
                        Case{ir::DType::FP16, "", 16, 16, 16, 75, "f16"},
                        Case{ir::DType::BF16, "", 32, 32, 32, 80, "bf16"},
                        Case{ir::DType::BF16, "", 32, 32, 32, 75, nullptr},  // bf16 wmma needs sm_80
                        Case{ir::DType::FP32, "", 64, 32, 32, 90, "tf32"},  // Triton's default: tf32
                        Case{ir::DType::FP32, ", input_precision=\"tf32\"", 32, 16, 16, 80, "tf32"},
                        Case{ir::DType::FP32, ", input_precision=\"ieee\"", 64, 32, 32, 90, nullptr},
                        Case{ir::DType::FP32, ", allow_tf32=False", 64, 32, 32, 90, nullptr},
                        Case{ir::DType::FP32, "", 32, 32, 32, 75, nullptr}}) {  // tf32 wmma needs sm_80
    std::string src = srcTemplate;
    src.replace(src.find(" PRECISION"), 10, c.precision);
    lang::Specialization spec;
    spec.args = {P(c.in), P(c.in), P(ir::DType::FP32), C(c.m), C(c.n), C(c.k)};
    spec.options.numWarps = 8;
    ir::KernelPtr k = kernelFrom(src, "mm", spec);
    ASSERT_TRUE(k);
    gpu::CudaCodegenOptions options;
    options.smArch = c.smArch;
    const CudaKernelSource out = CudaCodegen::generate(*k, options);
    const std::string what = std::string(ir::dtypeName(c.in)) + c.precision + " " + std::to_string(c.m) + "x" +
                             std::to_string(c.n) + "x" + std::to_string(c.k) + " sm_" + std::to_string(c.smArch);
    EXPECT_EQ(out.usesTensorCores, c.tensorCores != nullptr) << what;
    if (c.tensorCores) {
      EXPECT_NE(out.source.find(std::string("ts_wmma_mma_") + c.tensorCores + "(ts_c"), std::string::npos) << what;
    } else {
      EXPECT_EQ(out.source.find("ts_wmma_mma_"), std::string::npos) << what;
      EXPECT_NE(out.source.find("fmaf("), std::string::npos) << what << ": the exact path";
    }
  }
}

TEST(CudaCodegen, AMatmulLoopKeepsItsAccumulatorInFragmentsAndItsPointersAsOffsets) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, stride_ak, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_ak + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP32), S(), S(), S(), C(64), C(64), C(32)};
  spec.options.numWarps = 4;
  ir::KernelPtr k = kernelFrom(src, "mm", spec);
  ASSERT_TRUE(k);
  const CudaKernelSource out = CudaCodegen::generate(*k);
  EXPECT_TRUE(out.usesTensorCores);
  EXPECT_NE(out.source.find("acc stays in tensor-core fragments for the whole loop"), std::string::npos) << out.source;
  // The pointer tiles are their initial value plus one scalar offset each.
  EXPECT_NE(out.source.find("_a_ptrs_off += "), std::string::npos) << out.source;
  EXPECT_NE(out.source.find("_b_ptrs_off += "), std::string::npos) << out.source;
  EXPECT_EQ(out.source.find("_a_ptrs["), std::string::npos) << out.source;
  // The loads go straight into the staging buffer: no per-thread copy of a or b.
  EXPECT_EQ(out.source.find("_a["), std::string::npos) << out.source;
  EXPECT_EQ(out.source.find("_b["), std::string::npos) << out.source;
}

TEST(CudaCodegen, AMatmulLoopCopiesItsOperandsStagesAheadWithCpAsync) {
  // {a's column offsets, b's row offsets, a's mask}: Triton users' variants of the K loop.
  const char* srcTemplate = R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, stride_am, stride_ak, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + A_COLUMNS
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs A_MASK)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";
  struct Case {
    const char* columns;
    const char* mask;
    int stages;
    int smArch;
    bool pipelined;
    const char* needs;  // the run-time condition for whole chunks
  };
  for (const Case& c : {
           Case{"rk[None, :]", "", 3, 90, true, "only alignment"},
           Case{"rk[None, :]", ", mask=rk[None, :] < K - k, other=0.0", 3, 80, true, "only alignment"},  // K tail, K % 16 == 0
           Case{"rk[None, :] * stride_ak", "", 4, 90, true, "(ts_i64)p5 == 1"},    // a stride Triton would specialize
           Case{"rk[None, :]", "", 1, 90, false, ""},                               // num_stages=1: no ring
           Case{"rk[None, :]", "", 3, 75, false, ""},                               // no cp.async before sm_80
           Case{"rk[None, :] * 2", "", 3, 90, false, ""},                           // every other element
           // The mask cuts chunks anywhere, but on each chunk it is an interval: checked at both ends.
           Case{"rk[None, :]", ", mask=rk[None, :] < K - k - 1, other=0.0", 3, 90, true, "only alignment"},
           Case{"rk[None, :]", ", mask=rk[None, :] != K - k - 1, other=0.0", 3, 90, false, ""},  // not an interval
       }) {
    std::string src = srcTemplate;
    src.replace(src.find("A_COLUMNS"), 9, c.columns);
    src.replace(src.find("A_MASK"), 6, c.mask);
    lang::Specialization spec;
    spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP32), S(ir::DType::I32, true), S(), S(), S(),
                 C(64), C(64), C(32)};
    spec.options.numWarps = 4;
    spec.options.numStages = c.stages;
    ir::KernelPtr k = kernelFrom(src, "mm", spec);
    ASSERT_TRUE(k);
    gpu::CudaCodegenOptions options;
    options.smArch = c.smArch;
    const CudaKernelSource out = CudaCodegen::generate(*k, options);
    const std::string what = std::string(c.columns) + c.mask + " stages=" + std::to_string(c.stages);
    EXPECT_TRUE(out.usesTensorCores) << what;
    const bool copies = out.source.find("ts_cp_async16(ts_dst") != std::string::npos ||
                        out.source.find("ts_cp_async16_if(ts_dst") != std::string::npos;
    EXPECT_EQ(copies, c.pipelined) << what << "\n" << out.source;
    if (!c.pipelined) continue;
    EXPECT_NE(out.source.find("// " + std::to_string(c.stages) + " stages of operands in flight"), std::string::npos) << what;
    EXPECT_NE(out.source.find(std::string("whole 16-byte chunks need ") + c.needs), std::string::npos) << what << "\n" << out.source;
    EXPECT_NE(out.source.find("ts_cp_wait<" + std::to_string(c.stages - 2) + ">();"), std::string::npos) << what;
    // Only a mask that is not constant over chunks is checked at a chunk's last element too.
    EXPECT_EQ(out.source.find("const int ts_i = ts_i0 + 7;") != std::string::npos, std::string(c.mask).find("- 1") != std::string::npos)
        << what;
    // The ring: one stage of A (64 x (32 + 8) halves) and B (32 x (64 + 8) halves), 128-byte aligned.
    EXPECT_GE(out.dynamicSharedBytes, static_cast<size_t>(c.stages) * (5120 + 4608)) << what;
  }
}

// A block pointer advanced by (0, BK) carries an offset assigned `off = off + 0`, which the
// fold-constants pass turns into `off = off`: still an induction (step 0), so the K loop is
// pipelined (it was not after that pass came in: the seed-style block-pointer matmul ran at 0.08 of
// Triton on the H200).
TEST(CudaCodegen, ABlockPointerKLoopIsPipelinedAfterItsZeroAdvanceIsFolded) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def bp_mm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, tl.program_id(1) * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a_bp, boundary_check=(0, 1)), tl.load(b_bp, boundary_check=(0, 1)))
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    tl.store(c_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), P(ir::DType::FP32), S(ir::DType::I32, true), S(ir::DType::I32, true),
               S(ir::DType::I32, true), S(ir::DType::I32, true), S(ir::DType::I32, true), C(128), C(128), C(64)};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  ir::KernelPtr k = kernelFrom(src, "bp_mm", spec);
  ASSERT_TRUE(k);
  const gpu::CudaCodegenOptions hopper = gpu::test::hopperOptions();
  const CudaKernelSource out = CudaCodegen::generate(*k, hopper);
  EXPECT_NE(out.source.find("// 3 stages of operands in flight"), std::string::npos) << out.source;
  EXPECT_NE(out.source.find("ts_wgmma_m64n128_f16(ts_acc"), std::string::npos) << out.source;
}
