// The code paths of issue 26's memory-bound rows, checked in the generated CUDA without a GPU, and run
// on emulated warps (their results against the simulator on a GPU are GpuRun's layout script,
// tests/gpu/data/layout.py):
// row sums of a tile with many slots per thread regrouped through shared memory, fp16/bf16
// transposes staged as swizzled 16-bit chunks, tl.exp lowered as Triton lowers it, loads proven
// whole and aligned without the element-wise path, a tile divided by a scalar through ts_div_by.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/gpu/codegen/CudaCodegen.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "tests/gpu/GpuSeedCases.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;
using gpu::CudaCodegen;

namespace {

using gpu::test::kernelFrom;

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t); }
lang::ArgSpec S(bool divisibleBy16) { return lang::ArgSpec::scalar(ir::DType::I32, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

gpu::CudaCodegenOptions hopper() { return gpu::test::hopperOptions(); }

}  // namespace

// The atomics suite's [8, 2048] fp32 tile over 4 warps: 128 slots per thread (unrolled on sm_90a),
// 32 live after the two in-register levels. Before: the shared-memory tree, a barrier per level.
TEST(CudaMemoryBoundRows, ManySlotRowSumsAreRegroupedThroughSharedMemoryOnce) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(y_ptr + r, tl.sum(x, axis=1))
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), P(ir::DType::FP32), C(8), C(2048)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const std::string text = CudaCodegen::generate(*k, hopper()).source;
  EXPECT_EQ(text.find("ts_len"), std::string::npos) << text;  // no shared-memory tree
  // Element bits 10 and 9 in registers first (elements 1024 and 512 apart: slots 8 and 4).
  EXPECT_LT(text.find("ts_x[0] = (ts_x[0] + ts_x[8]);"), text.find("ts_x[0] = (ts_x[0] + ts_x[4]);")) << text;
  EXPECT_NE(text.find("ts_x[0] = (ts_x[0] + ts_x[4]);"), std::string::npos) << text;
  // 512 values per row regrouped into rows of 528 (16 lanes a row, 16 words of padding), 32 per lane.
  EXPECT_NE(text.find("const int ts_q = ts_tid & 15;"), std::string::npos) << text;
  EXPECT_NE(text.find("ts_y[31] = ts_sx[ts_o * 528 + 496 + ts_q];"), std::string::npos) << text;
  // Then the tree's low levels: the lane's values (bit 8 of the row first), then 4 shuffles.
  EXPECT_LT(text.find("ts_y[0] = (ts_y[0] + ts_y[16]);"), text.find("ts_shfl_xor(ts_y[0], 8)")) << text;
  EXPECT_NE(text.find("ts_shfl_xor(ts_y[0], 1)"), std::string::npos) << text;
  EXPECT_EQ(text.find("ts_shfl_xor(ts_y[0], 16)"), std::string::npos) << text;
  // Three barriers: after the regrouping, after the results, before the buffer's reuse.
  EXPECT_EQ(gpu::test::occurrences(text, "__syncthreads()"), 3u) << text;
}

TEST(CudaMemoryBoundRows, SixteenBitTransposesStageSwizzledChunks) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    t = tl.trans(tl.load(x_ptr + r[:, None] * C + c[None, :]))
    tl.store(o_ptr + c[:, None] * R + r[None, :], t)
)";
  for (ir::DType dt : {ir::DType::FP16, ir::DType::BF16}) {
    lang::Specialization spec;
    spec.args = {P(dt), P(dt), C(64), C(64)};
    ir::KernelPtr k = kernelFrom(src, "k", spec);
    ASSERT_TRUE(k);
    const std::string text = CudaCodegen::generate(*k, hopper()).source;
    // The loaded words go to shared memory as one 16-byte store per group, chunk q of row r at q ^ (r / 8).
    EXPECT_NE(text.find("const int ts_c = (((ts_i0 % 64) >> 3) ^ ((ts_r >> 3) & 7)) << 3;"), std::string::npos) << text;
    EXPECT_NE(text.find("*(uint4*)(ts_s + ts_r * 64 + ts_c) = make_uint4(v"), std::string::npos) << text;
    // Read back as 16-bit elements and stored as such: no float conversion on the way.
    EXPECT_NE(text.find("ts_s[ts_r * 64 + ((((ts_c >> 3) ^ ((ts_r >> 3) & 7)) << 3) | (ts_c & 7))];"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("ts_f2h(t"), std::string::npos) << text;
    EXPECT_EQ(text.find("ts_f2b(t"), std::string::npos) << text;
    EXPECT_NE(text.find("__builtin_assume(ts_tid >= 0 && ts_tid < 128);"), std::string::npos) << text;
  }
  // fp32 keeps the float staging with its per-element swizzle.
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), P(ir::DType::FP32), C(64), C(64)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const std::string text = CudaCodegen::generate(*k, hopper()).source;
  EXPECT_EQ(text.find("make_uint4"), std::string::npos) << text;
}

TEST(CudaMemoryBoundRows, ExpIsTheHardwaresExp2OfTheScaledArgument) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, z_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(y_ptr + i, tl.exp(tl.load(x_ptr + i)))
    tl.store(z_ptr + i, tl.exp(tl.load(x_ptr + i).to(tl.float64)))
)";
  lang::Specialization spec;
  spec.args = {P(ir::DType::FP32), P(ir::DType::FP32), P(ir::DType::FP64), C(256)};
  ir::KernelPtr k = kernelFrom(src, "k", spec);
  ASSERT_TRUE(k);
  const std::string text = CudaCodegen::generate(*k).source;
  EXPECT_NE(text.find(") * __int_as_float(0x3fb8aa3b))"), std::string::npos) << text;
  EXPECT_NE(text.find("exp2f(("), std::string::npos) << text;
  EXPECT_EQ(text.find("expf("), std::string::npos) << text;
  EXPECT_NE(text.find(" exp(("), std::string::npos) << text;  // fp64 stays exact
}

// The fp16 softmax row: with 16-byte aligned pointers and a width divisible by 16 the loads, like the
// stores, are proven consecutive and aligned with one mask value per group: `other`, then the vector
// load where the group's mask holds; no ts_vec_ok and no element-wise reads. A misaligned or odd
// width keeps the checked path. The row is divided by its sum through ts_div_by. The proven loads
// and stores are predicated (ts_vld_words_if, ts_vst_if), without a branch per group.
TEST(CudaMemoryBoundRows, ProvenLoadsSkipTheElementWisePathAndRowsDivideByTheirSumOnce) {
  const char* src = R"(import triton
import triton.language as tl

@triton.jit
def k(src, dst, width, pitch, LANES: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, LANES)
    x = tl.load(src + row * pitch + c, mask=c < width, other=-float('inf')).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(dst + row * pitch + c, (e / tl.sum(e, axis=0)).to(tl.float16), mask=c < width)
)";
  for (const bool divisible : {true, false}) {
    SCOPED_TRACE(divisible ? "i32:16" : "i32");
    lang::Specialization spec;
    spec.args = {P(ir::DType::FP16), P(ir::DType::FP16), S(divisible), S(divisible), C(4096)};
    spec.options.numWarps = 8;
    ir::KernelPtr k = kernelFrom(src, "k", spec);
    ASSERT_TRUE(k);
    const std::string text = CudaCodegen::generate(*k, hopper()).source;
    const std::string body = text.substr(text.find("__global__ void"));
    EXPECT_EQ(body.find("if (ts_vec_ok(") == std::string::npos, divisible) << body;
    EXPECT_EQ(body.find("ts_vld_words_if<8>(ts_vp[0], &v") != std::string::npos &&
                  body.find("], ts_m0);  // proven consecutive and aligned") != std::string::npos,
              divisible)
        << body;
    EXPECT_NE(body.find("ts_div_by(v"), std::string::npos) << body;
    EXPECT_NE(body.find(", ts_rcp1(t"), std::string::npos) << body;
  }
}

// The three kernels as generated for sm_90a, compiled for the CPU against WarpEmulation.h (a thread
// per CUDA thread, warp shuffles, barriers) and run against CPU references (tests/gpu/emulation/
// rows_main.cpp): the regrouped row sums bit for bit as the simulator's tree, the fp16 transpose
// exactly, the fp16 softmax rows within fp16 rounding, fp32 and fp16 layer-norm rows within their
// dtype's rounding of a float64 layer norm.
TEST(CudaMemoryBoundRows, GeneratedKernelsAreRightOnEmulatedWarps) {
  namespace fs = std::filesystem;
  const char* sums = R"(import triton
import triton.language as tl

@triton.jit
def row_sums(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    tl.store(y_ptr + r, tl.sum(x, axis=1))
)";
  const fs::path bench = fs::path(TILESCOPE_SOURCE_DIR) / "core" / "bench" / "gpu";
  auto generate = [](const std::string& source, const std::string& file, const std::string& name,
                     const lang::Specialization& spec) {
    auto program = lang::test::programFrom(source, file);
    lang::CheckResult r = lang::checkKernel(*program, name, spec);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    if (!r.ok()) return std::string();
    const std::string cuda = CudaCodegen::generate(*r.kernel, hopper()).source;
    std::string body = gpu::test::emulatedKernelBody(cuda);
    return body;
  };
  const lang::ArgSpec i16 = S(true);
  lang::Specialization s1, s2, s3;
  s1.args = {P(ir::DType::FP32), P(ir::DType::FP32), C(8), C(2048)};
  s2.args = {P(ir::DType::FP16), P(ir::DType::FP16), i16, i16, i16, i16, C(64)};
  s3.args = {P(ir::DType::FP16), P(ir::DType::FP16), i16, i16, C(4096)};
  s3.options.numWarps = 8;
  // Layer norm rows of 8192, fp32 and fp16: masked loads proven aligned, with `other` (0 and 1).
  lang::Specialization s4, s5;
  for (auto [spec, dt] : {std::pair{&s4, ir::DType::FP32}, std::pair{&s5, ir::DType::FP16}}) {
    spec->args = {P(dt), P(dt), P(dt), P(dt), P(ir::DType::FP32), P(ir::DType::FP32), i16, i16,
                  lang::ArgSpec::scalar(ir::DType::FP32), C(8192)};
    spec->options.numWarps = 8;
  }
  const std::string layerNorm = lang::test::readFile(bench / "layer_norm.py");
  std::string layerNorm16 = generate(layerNorm, "layer_norm.py", "normalise_rows", s5);
  layerNorm16.replace(layerNorm16.find("ts_normalise_rows("), 18, "ts_normalise_rows16(");
  const std::string bodies =
      generate(sums, "k.py", "row_sums", s1) +
      generate(lang::test::readFile(bench / "transpose.py"), "transpose.py", "transpose_tiles", s2) +
      generate(lang::test::readFile(bench / "norm_variants.py"), "norm_variants.py", "half_softmax", s3) +
      generate(layerNorm, "layer_norm.py", "normalise_rows", s4) + layerNorm16;
  ASSERT_NE(bodies.find("const int ts_q = ts_tid & 15;"), std::string::npos);  // the regrouped reduction
  ASSERT_NE(bodies.find("make_uint4"), std::string::npos);                      // the 16-bit transpose
  ASSERT_NE(bodies.find("ts_div_by("), std::string::npos);
  ASSERT_NE(bodies.find("ts_vld(ts_vp[0], ts_vv);  // proven consecutive and aligned"), std::string::npos);  // fp32 rows
  ASSERT_NE(bodies.find("], ts_m0);  // proven consecutive and aligned"), std::string::npos);                  // fp16 rows
  ASSERT_NE(bodies.find("ts_vst_if(ts_vp[0], ts_vv, ts_m0);"), std::string::npos);  // masked stores, predicated
  ASSERT_NE(bodies.find("ts_sel<float>(((((ts_i32)(0 + (ts_i - ts_j % 8)))) < (p7))"), std::string::npos);  // tl.where per group
  const fs::path dir = fs::temp_directory_path() / ("tilescope-emulated-rows-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "kernel_body.inc") << bodies;
  const fs::path emulation = fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "emulation";
  const std::string command = std::string(TILESCOPE_HOST_CXX) + " -std=c++20 -O1 -w -pthread -I" + emulation.string() + " -I" +
                              dir.string() + " " + (emulation / "rows_main.cpp").string() + " -o " + (dir / "emulated").string() +
                              " && " + (dir / "emulated").string() + " > " + (dir / "out.txt").string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string out = lang::test::readFile(dir / "out.txt");
  EXPECT_NE(out.find("status 0, sums 0, transpose 0, softmax "), std::string::npos) << out;
  for (const auto& [what, tolerance] : {std::pair{"softmax ", 1e-3}, std::pair{"layer norm fp32 ", 1e-4},
                                        std::pair{"layer norm fp16 ", 2e-2}}) {
    const size_t at = out.find(what);
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_LT(std::stod(out.substr(at + std::string(what).size())), tolerance) << what << out;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
