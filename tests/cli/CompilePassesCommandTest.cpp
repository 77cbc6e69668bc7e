// `tilescope-cli compile --emit passes` and `--emit ir-after=PASS`: the GPU pass pipeline's names,
// and the IR after a chosen pass, for a kernel with a stride of 1 (folded away) and a reduction
// nobody reads (removed).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {
const char* kKernel = R"(import triton
import triton.language as tl

@triton.jit
def scale_k(x_ptr, out_ptr, n, stride: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs * stride, mask=mask, other=0.0)
    unused = tl.sum(x, axis=0)
    tl.store(out_ptr + offs * stride, x * 2, mask=mask)
)";

std::string writeKernel() {
  const fs::path p = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(::getpid()) + "-passes.py");
  std::ofstream(p) << kKernel;
  return p.string();
}

const std::string kArgs = " --kernel scale_k --signature \"*fp32,*fp32,i32,1,64\" --arch sm_80";
}  // namespace

TEST(CompileCommand, ListsThePipelinesPassesInOrder) {
  const auto r = runCli("compile --emit passes");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  const size_t fold = r.output.find("fold-constants: ");
  const size_t dead = r.output.find("eliminate-dead-lets: ");
  ASSERT_NE(fold, std::string::npos) << r.output;
  ASSERT_NE(dead, std::string::npos) << r.output;
  EXPECT_LT(fold, dead) << r.output;
}

TEST(CompileCommand, EmitsTheIrAfterAChosenPass) {
  const std::string path = writeKernel();
  const auto checked = runCli("compile " + path + kArgs + " --emit ir");
  ASSERT_EQ(checked.exitCode, 0) << checked.output;
  // The checker's IR multiplies by the stride of 1 and keeps the unread sum.
  EXPECT_NE(checked.output.find("splat 1:i32 : tensor<64xi32>"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("let unused: fp32 = reduce_sum x, axis=0"), std::string::npos) << checked.output;

  const auto folded = runCli("compile " + path + kArgs + " --emit ir-after=fold-constants");
  ASSERT_EQ(folded.exitCode, 0) << folded.output;
  EXPECT_EQ(folded.output.find("splat 1:i32 : tensor<64xi32>"), std::string::npos) << folded.output;
  EXPECT_NE(folded.output.find("= add %4, offs : tensor<64x!ptr<fp32>>"), std::string::npos) << folded.output;
  EXPECT_NE(folded.output.find("let unused: fp32 = reduce_sum x, axis=0"), std::string::npos) << folded.output;

  const auto live = runCli("compile " + path + kArgs + " --emit ir-after=eliminate-dead-lets");
  ASSERT_EQ(live.exitCode, 0) << live.output;
  EXPECT_EQ(live.output.find("unused"), std::string::npos) << live.output;
  EXPECT_NE(live.output.find("kernel scale_k("), std::string::npos) << live.output;
}

TEST(CompileCommand, AnUnknownPassIsAUsageErrorListingThePasses) {
  const std::string path = writeKernel();
  const auto r = runCli("compile " + path + kArgs + " --emit ir-after=layouts");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("eliminate-dead-lets, assign-layouts, remove-layout-conversions, assign-blocked-layouts, mark-recomputed-values, find-induction-tiles, analyse-axes, select-dot-lowering, keep-accumulators-resident, pipeline-dot-loops (got 'layouts'"),
            std::string::npos)
      << r.output;
}

// The dot passes' plan is printed after the body from the pass that makes it on.
TEST(CompileCommand, TheIrAfterTheDotPassesShowsTheirPlan) {
  const fs::path p = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(::getpid()) + "-mm.py");
  std::ofstream(p) << R"(import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
)";
  const std::string args = " --kernel mm --signature \"*fp16,*fp16,*fp32,i32:16,64,64,32\" --arch sm_80 --num-stages 3";
  const auto layouts = runCli("compile " + p.string() + args + " --emit ir-after=assign-layouts");
  ASSERT_EQ(layouts.exitCode, 0) << layouts.output;
  EXPECT_EQ(layouts.output.find("dots {"), std::string::npos) << layouts.output;
  const auto lowering = runCli("compile " + p.string() + args + " --emit ir-after=select-dot-lowering");
  ASSERT_EQ(lowering.exitCode, 0) << lowering.output;
  EXPECT_NE(lowering.output.find("dots {\n  dot 0 in acc (#"), std::string::npos) << lowering.output;
  EXPECT_NE(lowering.output.find("): wmma f16 64x32 @ 32x64"), std::string::npos) << lowering.output;
  EXPECT_EQ(lowering.output.find(" resident"), std::string::npos) << lowering.output;
  const auto resident = runCli("compile " + p.string() + args + " --emit ir-after=keep-accumulators-resident");
  EXPECT_NE(resident.output.find(" resident, result acc (#"), std::string::npos) << resident.output;
  EXPECT_EQ(resident.output.find("stages of"), std::string::npos) << resident.output;
  const auto pipelined = runCli("compile " + p.string() + args + " --emit ir-after=pipeline-dot-loops");
  EXPECT_NE(pipelined.output.find(": 3 stages of "), std::string::npos) << pipelined.output;
  EXPECT_NE(pipelined.output.find(" bytes by cp.async; a: a (#"), std::string::npos) << pipelined.output;
  fs::remove(p);
}

// The layout and axis tables the later passes fill in are printed after the body.
TEST(CompileCommand, EmitsTheLayoutAndAxisTablesAfterTheirPasses) {
  const std::string path = writeKernel();
  const auto blocked = runCli("compile " + path + kArgs + " --emit ir-after=assign-blocked-layouts");
  ASSERT_EQ(blocked.exitCode, 0) << blocked.output;
  EXPECT_NE(blocked.output.find("layouts {\n  tiles of 64 elements: blocked, vec=1\n"), std::string::npos) << blocked.output;
  EXPECT_NE(blocked.output.find("#blocked<vec=1, threads=128, slots=1, order=[0]>"), std::string::npos) << blocked.output;
  EXPECT_EQ(blocked.output.find("axes {"), std::string::npos) << blocked.output;
  const auto axes = runCli("compile " + path + kArgs + " --emit ir-after=analyse-axes");
  ASSERT_EQ(axes.exitCode, 0) << axes.output;
  // offs = pid * 64 + arange(0, 64): one run of 64 starting at a multiple of 64.
  EXPECT_NE(axes.output.find("axes {\n"), std::string::npos) << axes.output;
  EXPECT_NE(axes.output.find("): contiguity 64, constancy 1, divisibility 64\n"), std::string::npos) << axes.output;
}
