// The assign-layouts pass (core/ir/passes/LayoutAssignment) and the emission of the loops it keeps in
// tensor-core registers (core/gpu/codegen/CudaRegisterLoop.cpp): which values get which layout, that
// other loops keep none, and what the CUDA of such a loop does (mma.sync with the accumulator and p
// in registers, quad-shuffle reductions, one barrier per iteration). GpuRun.RegisterLoops... runs
// them on a GPU against the simulator; RegisterLoop.GeneratedAttentionIsRightOnEmulatedWarps runs
// the generated CUDA on the CPU (tests/gpu/emulation) against a float64 attention.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/gpu/passes/GpuPipeline.h"
#include "core/ir/passes/IRDumpObserver.h"
#include "core/ir/passes/SemanticPipeline.h"
#include "tests/gpu/CodegenTestUtil.h"
#include "core/kernel/Checker.h"
#include "core/sim/Simulator.h"
#include "tests/cli/CliRunner.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

const char* kAttention = R"(import triton
import triton.language as tl

@triton.jit
def attn(q_base, k_base, v_base, o_base, seq_len, scale, s_row, BM: tl.constexpr, BN: tl.constexpr, DIM: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    feat = tl.arange(0, DIM)
    q = tl.load(q_base + rows[:, None] * s_row + feat[None, :])
    row_max = tl.full([BM], -float('inf'), tl.float32)
    row_sum = tl.zeros([BM], dtype=tl.float32)
    out = tl.zeros([BM, DIM], dtype=tl.float32)
    for start in range(0, seq_len, BN):
        keys = start + cols
        k = tl.load(k_base + keys[:, None] * s_row + feat[None, :])
        scores = tl.dot(q, tl.trans(k)) * scale
        new_max = tl.maximum(row_max, tl.max(scores, axis=1))
        p = tl.exp2(scores - new_max[:, None])
        correction = tl.exp2(row_max - new_max)
        row_sum = row_sum * correction + tl.sum(p, axis=1)
        v = tl.load(v_base + keys[:, None] * s_row + feat[None, :])
        out = out * correction[:, None] + tl.dot(p.to(v.dtype), v)
        row_max = new_max
    out = out / row_sum[:, None]
    tl.store(o_base + rows[:, None] * s_row + feat[None, :], out.to(tl.float16))

@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";

// aligned: the row stride is specialized as a multiple of 16 (so k and v rows are whole 16-byte chunks).
ir::KernelPtr checked(const std::string& kernel, int warps, bool aligned = true) {
  static auto program = lang::test::programFrom(kAttention, "attn.py");
  lang::Specialization spec;
  using lang::ArgSpec;
  const auto c = [](int64_t v) { return ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  if (kernel == "attn")
    spec.args = {ArgSpec::pointer(ir::DType::FP16), ArgSpec::pointer(ir::DType::FP16), ArgSpec::pointer(ir::DType::FP16),
                 ArgSpec::pointer(ir::DType::FP16), ArgSpec::scalar(ir::DType::I32), ArgSpec::scalar(ir::DType::FP32),
                 ArgSpec::scalar(ir::DType::I32, aligned), c(16 * warps), c(64), c(64)};
  else
    spec.args = {ArgSpec::pointer(ir::DType::FP16), ArgSpec::pointer(ir::DType::FP16), ArgSpec::pointer(ir::DType::FP32),
                 ArgSpec::scalar(ir::DType::I32), c(64), c(64), c(32)};
  spec.options.numWarps = warps;
  lang::CheckResult r = lang::checkKernel(*program, kernel, spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

ir::Kernel lowered(const ir::Kernel& k, int sm, bool archSpecific = false) {
  return gpu::passes::lowerForGpu(k, gpu::passes::GpuTarget{sm, archSpecific}, nullptr, ir::passes::Verify::Always);
}

// The register layout (not the blocked one every other tile var has) of the first var `name`
// that has one, as printed, or "".
std::string layoutOf(const ir::Kernel& k, const std::string& name) {
  const std::string dump = k.dump();
  const size_t table = dump.find("layouts {");
  if (table == std::string::npos) return "";
  const size_t end = dump.find("\n}", table);
  for (size_t at = dump.find("\n  " + name + " (#", table); at < end; at = dump.find("\n  " + name + " (#", at + 1)) {
    const size_t colon = dump.find("): ", at);
    const std::string layout = dump.substr(colon + 3, dump.find('\n', colon) - colon - 3);
    if (layout.rfind("#blocked", 0) != 0) return layout;
  }
  return "";
}

// How many vars have a layout other than the blocked one.
size_t registerLayouts(const ir::Kernel& k) {
  size_t n = 0;
  for (const auto& [id, l] : k.layouts) n += l.kind != ir::LayoutKind::Blocked;
  return n;
}

// The generated register loop from its `for` up to `endMarker` (the ring slot's advance), or "" when
// either is missing.
std::string loopBody(const std::string& cuda, const std::string& endMarker) {
  const size_t loop = cuda.find("for (ts_i64 ts_iv");
  const size_t end = loop == std::string::npos ? loop : cuda.find(endMarker, loop);
  return end == std::string::npos ? "" : cuda.substr(loop, end - loop);
}

}  // namespace

TEST(RegisterLoop, AttentionValuesGetTheLayoutsOfTheirUse) {
  ir::KernelPtr k = checked("attn", 8);
  ASSERT_TRUE(k);
  const ir::Kernel low = lowered(*k, 80);
  ASSERT_EQ(low.registerLoops.size(), 1u) << low.dump();
  const std::string mma = "#mma<m16n8k16, warps=8x1>";
  EXPECT_EQ(layoutOf(low, "scores"), mma) << low.dump();
  EXPECT_EQ(layoutOf(low, "p"), mma);
  EXPECT_EQ(layoutOf(low, "out"), mma);
  EXPECT_EQ(layoutOf(low, "new_max"), "#slice<dim=1, " + mma + ">");
  EXPECT_EQ(layoutOf(low, "correction"), "#slice<dim=1, " + mma + ">");
  EXPECT_EQ(layoutOf(low, "q"), "#dot_op<a, " + mma + "> (converted on loop entry)");
  EXPECT_EQ(layoutOf(low, "k"), "#shared<b, transposed, cp.async 1 ahead>");
  EXPECT_EQ(layoutOf(low, "v"), "#shared<b, cp.async 1 ahead>");
  // Index-pure values need no register layout.
  EXPECT_EQ(layoutOf(low, "keys"), "");
}

// The conversions the layouts need are IR (ConvertLayout): after assign-layouts, q once before the
// loop into a var the loop reads, each carried value into its layout before the loop and back to
// blocked after it, p.to(fp16) where the second dot reads it; remove-layout-conversions then assigns
// the carried values that start as constants (tl.zeros, tl.full) in their layouts instead.
TEST(RegisterLoop, ConversionsAreExplicitWhereLayoutsDiffer) {
  ir::KernelPtr k = checked("attn", 8);
  ASSERT_TRUE(k);
  ir::passes::IRDumpObserver dumps;
  const ir::Kernel low = gpu::passes::lowerForGpu(*k, gpu::passes::GpuTarget{80, false}, &dumps, ir::passes::Verify::Always);
  const std::string assigned = dumps.dumpAfter("assign-layouts").value_or("");
  const std::string removed = dumps.dumpAfter("remove-layout-conversions").value_or("");
  const auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  const std::string mma = "#mma<m16n8k16, warps=8x1>";
  EXPECT_EQ(count(dumps.dumpAfter("eliminate-dead-lets").value_or(""), "convert_layout"), 0u);
  EXPECT_NE(assigned.find("let q.1: tensor<128x64xfp16> = convert_layout q, #dot_op<a, " + mma + "> (converted on loop entry)"),
            std::string::npos)
      << assigned;
  EXPECT_NE(assigned.find("convert_layout row_max.1, #slice<dim=1, " + mma + ">\n"), std::string::npos) << assigned;
  EXPECT_NE(assigned.find(", #dot_op<a, " + mma + "> : tensor<128x64xfp16>"), std::string::npos) << assigned;  // p
  EXPECT_EQ(count(assigned, "convert_layout"), 8u) << assigned;  // q, 3 carried in, p, 3 carried out
  EXPECT_EQ(count(assigned, ", #blocked\n"), 3u) << assigned;
  // q itself stays blocked: the table lists the converted var.
  EXPECT_EQ(count(low.dump(), " (converted on loop entry)"), 2u);  // the conversion and its var's row

  // The three carried values start as constants: no conversion on entry is left.
  EXPECT_EQ(count(removed, "convert_layout"), 5u) << removed;
  EXPECT_NE(removed.find("assign out.1 = splat 0.0:fp32\n"), std::string::npos) << removed;
  EXPECT_NE(removed.find("assign row_max.1 = splat -inf:fp32\n"), std::string::npos) << removed;
  EXPECT_NE(removed.find("assign row_sum.1 = splat 0.0:fp32\n"), std::string::npos) << removed;
  EXPECT_EQ(count(removed, ", #blocked\n"), 3u) << removed;
  // The tables survive the pass.
  EXPECT_EQ(low.registerLoops.size(), 1u);
  EXPECT_EQ(layoutOf(low, "scores"), mma) << low.dump();
}

// The lowered kernel, conversions and all, means what the simulator's kernel means (the checker's
// after lowerSemantics): the simulator gives bit-identical outputs for both (ConvertLayout is the identity, and the new var q.1, the
// loop's spliced-in conversions and the rematerialised constants change no value).
TEST(RegisterLoop, TheLoweredKernelComputesWhatTheCheckedOneDoes) {
  ir::KernelPtr k = checked("attn", 4);
  ASSERT_TRUE(k);
  const ir::Kernel low = lowered(*k, 80);
  ASSERT_EQ(low.registerLoops.size(), 1u);
  ASSERT_NE(low.dump().find("convert_layout"), std::string::npos);
  const int64_t seq = 128, dim = 64;
  const auto run = [&](const ir::Kernel& kernel) {
    sim::Memory mem;
    std::vector<int> tensors;
    for (int t = 0; t < 3; ++t) {
      std::vector<double> values;
      for (int64_t i = 0; i < seq * dim; ++i) values.push_back(std::sin(0.013 * static_cast<double>(i * (t + 2))) * 2.0);
      tensors.push_back(mem.createFromDoubles("in" + std::to_string(t), ir::DType::FP16, {seq * dim}, values));
    }
    const int out = mem.create("out", ir::DType::FP16, {seq * dim});
    sim::Simulator simulator(mem);
    const sim::LaunchResult r = simulator.launch(
        kernel, sim::Grid{seq / 64},
        {sim::LaunchArg::tensor(tensors[0]), sim::LaunchArg::tensor(tensors[1]), sim::LaunchArg::tensor(tensors[2]),
         sim::LaunchArg::tensor(out), sim::LaunchArg::integer(seq), sim::LaunchArg::real(0.125), sim::LaunchArg::integer(dim)});
    EXPECT_EQ(r.status, sim::LaunchStatus::Ok) << r.diagnostics.render();
    return mem.readDoubles(out);
  };
  // The baseline is the kernel the simulator runs: the checker's after the semantic passes.
  const std::vector<double> checkedOut = run(ir::passes::lowerSemantics(*k)), loweredOut = run(low);
  ASSERT_EQ(checkedOut.size(), static_cast<size_t>(seq * dim));
  EXPECT_EQ(checkedOut, loweredOut);
  double sum = 0;
  for (double v : checkedOut) sum += std::abs(v);
  EXPECT_GT(sum, 1.0);  // attention of non-zero inputs: the comparison compares something
}

TEST(RegisterLoop, OtherLoopsAndOlderTargetsKeepTheBlockedLayout) {
  ir::KernelPtr mm = checked("matmul", 4);
  ASSERT_TRUE(mm);
  EXPECT_EQ(registerLayouts(lowered(*mm, 90)), 0u);  // one dot: the resident-accumulator/wgmma path
  ir::KernelPtr attn = checked("attn", 8);
  ASSERT_TRUE(attn);
  EXPECT_EQ(registerLayouts(lowered(*attn, 75)), 0u);  // no mma.sync m16n8k16 before sm_80
  EXPECT_TRUE(lowered(*attn, 75).registerLoops.empty());
  // 64 rows on 4 warps: 16 rows per warp as well.
  ir::KernelPtr wide = checked("attn", 4);
  ASSERT_TRUE(wide);
  const ir::Kernel low = lowered(*wide, 80);
  EXPECT_EQ(low.registerLoops.size(), 1u);
}

TEST(RegisterLoop, TheLoopKeepsItsValuesInRegisters) {
  ir::KernelPtr k = checked("attn", 8);
  ASSERT_TRUE(k);
  gpu::CudaCodegenOptions options;
  options.smArch = 80;
  const std::string cuda = gpu::CudaCodegen::generate(*k, options).source;
  const std::string body = loopBody(cuda, "ts_rslot ^= 1;");
  ASSERT_FALSE(body.empty()) << cuda;
  auto count = [&](const std::string& what) { return gpu::test::occurrences(body, what); };
  // One barrier per iteration (the stage that landed); reductions are quad shuffles.
  EXPECT_EQ(count("__syncthreads()"), 1u) << body;
  EXPECT_EQ(count("__shfl_xor_sync"), 4u) << body;
  // Both dots on mma.sync; B by ldmatrix (k transposed, v row-major with .trans); p packed from
  // the accumulator's registers, not staged.
  EXPECT_EQ(count("ts_mma16816_f16("), 4u) << body;
  EXPECT_EQ(count("ts_ldsm4("), 1u) << body;
  EXPECT_EQ(count("ts_ldsm4_t("), 1u) << body;
  EXPECT_EQ(count("ts_pack_f16("), 4u) << body;
  EXPECT_EQ(count("ts_cp_async16("), 2u) << body;
  EXPECT_EQ(count("ts_smem)["), 0u) << body;  // no shared-memory staging of values
  // Rows not known to be 16-byte aligned: element copies instead of cp.async.
  ir::KernelPtr unaligned = checked("attn", 8, false);
  ASSERT_TRUE(unaligned);
  const std::string plain = gpu::CudaCodegen::generate(*unaligned, options).source;
  EXPECT_EQ(plain.find("ts_cp_async16(((ts_u16*)"), std::string::npos);  // (the prelude defines it)
  EXPECT_NE(plain.find("ts_mma16816_f16("), std::string::npos);
}

// On sm_90a both dots are warpgroup MMAs, q @ k.T from shared memory (q staged once, swizzled),
// p @ v with p packed from the first dot's registers, B from 128-byte-swizzled stages, the ring num_stages (3) deep; the
// accumulator, row slices and reductions keep mma.sync's register layout, which is wgmma's too.
TEST(RegisterLoop, HopperRunsBothDotsAsWarpgroupMmas) {
  ir::KernelPtr k = checked("attn", 8);
  ASSERT_TRUE(k);
  const ir::Kernel low = lowered(*k, 90, true);
  ASSERT_EQ(low.registerLoops.size(), 1u) << low.dump();
  const std::string mma = "#mma<wgmma m64, warps=8x1>";
  EXPECT_EQ(layoutOf(low, "scores"), mma) << low.dump();
  EXPECT_EQ(layoutOf(low, "new_max"), "#slice<dim=1, " + mma + ">");
  EXPECT_EQ(layoutOf(low, "q"), "#dot_op<a, " + mma + "> (staged in swizzled shared memory on loop entry)");
  EXPECT_EQ(layoutOf(low, "k"), "#shared<b, transposed, swizzle 128B, cp.async 2 ahead>");
  EXPECT_EQ(layoutOf(low, "v"), "#shared<b, swizzle 128B, cp.async 2 ahead>");
  // Plain sm_90 has no wgmma: mma.sync as on sm_80.
  EXPECT_EQ(layoutOf(lowered(*k, 90, false), "scores"), "#mma<m16n8k16, warps=8x1>");

  const gpu::CudaCodegenOptions options = gpu::test::hopperOptions();
  const std::string cuda = gpu::CudaCodegen::generate(*k, options).source;
  const std::string body = loopBody(cuda, "ts_rslot = ts_rslot == 2 ? 0 : ts_rslot + 1;");
  ASSERT_FALSE(body.empty()) << cuda;
  auto count = [&](const std::string& what) { return gpu::test::occurrences(body, what); };
  EXPECT_EQ(count("ts_wgmma_m64n64_f16_kb("), 1u) << body;    // s = q @ k.T: q and k K-major in shared memory
  EXPECT_EQ(count("ts_wgmma_ra_m64n64_f16_t("), 1u) << body;  // p @ v: v read transposed
  EXPECT_EQ(count("ts_mma16816"), 0u) << body;
  EXPECT_EQ(count("ts_ldsm4"), 0u) << body;
  EXPECT_EQ(count("ts_wgmma_wait<0>()"), 2u) << body;
  EXPECT_EQ(count("__syncthreads()"), 1u) << body;
  EXPECT_EQ(count("ts_cp_wait<1>()"), 1u) << body;
  EXPECT_EQ(count("ts_fence_async_shared()"), 1u) << body;
  EXPECT_EQ(count("__shfl_xor_sync"), 4u) << body;

  if (!gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not available: " << gpu::Nvrtc::instance().unavailableReason();
  auto compiled = gpu::GpuCompiler::instance().compile(*k, "sm_90a");
  const std::string& ptx = compiled->ptx;
  size_t wgmmas = 0;
  for (size_t at = ptx.find("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"); at != std::string::npos;
       at = ptx.find("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", at + 1))
    ++wgmmas;
  EXPECT_EQ(wgmmas, 8u) << "4 k-steps of each dot";
  const std::optional<gpu::test::PtxasRun> assembled = gpu::test::runPtxas(ptx, "sm_90a");
  if (!assembled) GTEST_SKIP() << "ptxas not found: NVRTC's PTX checked, not assembled";
  const std::string& log = assembled->log;
  EXPECT_EQ(assembled->exitCode, 0) << log;
  // ptxas serialises wgmmas it cannot keep in flight (warning C7510 and the like): none here.
  EXPECT_EQ(log.find("serialized"), std::string::npos) << log;
  EXPECT_NE(log.find(" 0 bytes spill stores"), std::string::npos) << log;
}

// The suite's attention kernel (core/bench/gpu/attention.py) as generated, compiled for the CPU
// against WarpEmulation.h and run over 2 heads of 256 tokens: for sm_80 (mma.sync) fp16 causal on 8
// warps (128x64x64) and bf16 on 4 warps (64x32x32); for sm_90a (wgmma, swizzled stages) fp16 causal
// on 8 warps (128x64x64) and bf16 on 4 warps with head dim 128 (two 64-column panels per tile);
// each within the dtype's rounding of a float64 attention.
TEST(RegisterLoop, GeneratedAttentionIsRightOnEmulatedWarps) {
  auto program = lang::test::programFrom(
      lang::test::readFile(fs::path(TILESCOPE_SOURCE_DIR) / "core" / "bench" / "gpu" / "attention.py"), "attention.py");
  const fs::path dir = fs::temp_directory_path() / ("tilescope-emulated-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Case {
    ir::DType dtype;
    bool causal;
    int bm, bn, dim, warps;
    double tolerance;
    bool hopper = false;  // sm_90a: wgmma
  };
  for (const Case& c : {Case{ir::DType::FP16, true, 128, 64, 64, 8, 5e-3}, Case{ir::DType::BF16, false, 64, 32, 32, 4, 2e-2},
                        Case{ir::DType::FP16, true, 128, 64, 64, 8, 5e-3, true},
                        Case{ir::DType::BF16, false, 64, 64, 128, 4, 2e-2, true}}) {
    using lang::ArgSpec;
    const auto constant = [](int64_t v) { return ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
    lang::Specialization spec;
    spec.args = {ArgSpec::pointer(c.dtype), ArgSpec::pointer(c.dtype), ArgSpec::pointer(c.dtype), ArgSpec::pointer(c.dtype),
                 ArgSpec::scalar(ir::DType::I32, true), ArgSpec::scalar(ir::DType::FP32), ArgSpec::scalar(ir::DType::I32, true),
                 ArgSpec::scalar(ir::DType::I32, true), constant(c.bm), constant(c.bn), constant(c.dim),
                 ArgSpec::constexprValue(lang::ConstValue::boolean(c.causal))};
    spec.options.numWarps = c.warps;
    lang::CheckResult r = lang::checkKernel(*program, "attention_forward", spec);
    ASSERT_TRUE(r.ok()) << r.diagnostics.render();
    gpu::CudaCodegenOptions options;
    options.smArch = c.hopper ? 90 : 80;
    options.archSpecific = c.hopper;
    const std::string cuda = gpu::CudaCodegen::generate(*r.kernel, options).source;
    ASSERT_NE(cuda.find(c.hopper ? "ts_wgmma_" : "ts_mma16816_"), std::string::npos);
    // The kernel without the prelude, its shared memory a buffer of the emulation.
    std::string body = gpu::test::emulatedKernelBody(cuda);
    std::ofstream(dir / "kernel_body.inc") << body;
    const bool bf16 = c.dtype == ir::DType::BF16;
    const std::string command = std::string(TILESCOPE_HOST_CXX) + " -std=c++20 -O1 -w -pthread -I" +
                                (fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "emulation").string() + " -I" + dir.string() +
                                (bf16 ? " -DCONV=ts_f2b -DBACK=ts_b2f" : " -DCONV=ts_f2h -DBACK=ts_h2f") +
                                " -DCAUSAL=" + std::to_string(c.causal) + " -DBM=" + std::to_string(c.bm) +
                                " -DDIM=" + std::to_string(c.dim) + " -DWARPS=" + std::to_string(c.warps) + " " +
                                (fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "emulation" / "attention_main.cpp").string() +
                                " -o " + (dir / "emulated").string() + " && " + (dir / "emulated").string() + " > " +
                                (dir / "out.txt").string();
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const std::string out = lang::test::readFile(dir / "out.txt");
    const size_t at = out.find("max abs error ");
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_NE(out.find("status 0,"), std::string::npos) << out;
    EXPECT_LT(std::stod(out.substr(at + 14)), c.tolerance) << out << " (causal " << c.causal << ", " << c.bm << "x" << c.bn
                                                            << "x" << c.dim << ", " << c.warps << " warps, hopper " << c.hopper << ")";
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(GpuRun, RegisterLoopsMatchTheSimulator) {
  if (!gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << gpu::GpuRuntime::instance().unavailableReason();
  setenv("TILESCOPE_GPU_CROSSCHECK", "1000", 1);
  const std::string path = (fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "register_loop.py").string();
  const tilescope::testing::CliRun r = tilescope::testing::runCli("run " + path + " --backend gpu");
  unsetenv("TILESCOPE_GPU_CROSSCHECK");
  EXPECT_EQ(r.exitCode, 0) << r.output.substr(0, 6000);
  EXPECT_EQ(r.output.find("disagree"), std::string::npos) << r.output.substr(0, 6000);
  EXPECT_NE(r.output.find("register loop ok"), std::string::npos) << r.output.substr(0, 6000);
}
