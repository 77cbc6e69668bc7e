// Triton's official tutorials, unmodified, on embedded CPython with the built-in torch in the
// simulator: everything before their benchmark sweeps runs (TILESCOPE_SKIP_BENCHMARKS=1 skips the
// sweeps, saying so). The tutorials are not part of tilescope: TILESCOPE_TUTORIALS_DIR names a folder
// with Triton 3.6's python/tutorials files (and notebooks/ with their .ipynb); without it these tests
// are skipped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;

namespace {

namespace fs = std::filesystem;

class Tutorial : public ::testing::Test {
protected:
  void SetUp() override {
    const char* dir = std::getenv("TILESCOPE_TUTORIALS_DIR");
    if (!dir || !*dir) GTEST_SKIP() << "TILESCOPE_TUTORIALS_DIR is not set (a folder with Triton 3.6's tutorials)";
    dir_ = dir;
    ::setenv("TILESCOPE_SKIP_BENCHMARKS", "1", 1);
  }
  void TearDown() override { ::unsetenv("TILESCOPE_SKIP_BENCHMARKS"); }

  // Runs the tutorial file (skipping the test when the folder lacks it); the CLI's exit code and output.
  tilescope::testing::CliRun run(const std::string& name) {
    const fs::path path = fs::path(dir_) / name;
    if (!fs::exists(path)) {
      skipped_ = true;
      return {};
    }
    return runCli("run --python embedded " + fs::absolute(path).string() + " --out-of-bounds stop");
  }
  std::string dir_;
  bool skipped_ = false;
};

#define RUN_TUTORIAL(var, name)                                       \
  const auto var = run(name);                                         \
  if (skipped_) GTEST_SKIP() << name << " is not in TILESCOPE_TUTORIALS_DIR"

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_F(Tutorial, VectorAddRunsUpToItsBenchmark) {
  RUN_TUTORIAL(r, "01-vector-add.py");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "The maximum difference between torch and triton is 0.0")) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'vector-add-performance' (16 points x 2 lines) skipped")) << r.output;
}

TEST_F(Tutorial, FusedSoftmaxRunsUpToItsBenchmark) {
  RUN_TUTORIAL(r, "02-fused-softmax.py");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'softmax-performance'")) << r.output;
}

TEST_F(Tutorial, MatrixMultiplicationRunsUpToItsBenchmark) {
  RUN_TUTORIAL(r, "03-matrix-multiplication.py");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "Triton and Torch match")) << r.output;
  EXPECT_FALSE(has(r.output, "Triton and Torch differ")) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'matmul-performance-fp16'")) << r.output;
  // The fp8 part (run because the built-in torch has torch.float8_e5m2): float8_e5m2 inputs to the
  // same tl.dot kernel, compared with torch.matmul of their float16 values; then its own sweep.
  EXPECT_TRUE(has(r.output, "triton_output_with_fp8_inputs=tensor([[")) << r.output;
  EXPECT_TRUE(has(r.output, "torch_output_with_fp8_inputs=tensor([[")) << r.output;
  const size_t fp8Part = r.output.find("triton_output_with_fp8_inputs=");
  EXPECT_TRUE(fp8Part != std::string::npos && has(r.output.substr(fp8Part), "Triton and Torch match")) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'matmul-performance-fp8' (31 points x 1 lines)")) << r.output;
}

TEST_F(Tutorial, GroupedGemmRunsUpToItsBenchmarks) {
  RUN_TUTORIAL(r, "08-grouped-gemm.py");
  // Exit code 0: its asserts (both kernels against torch.matmul) held. It reads torch.float8_e4m3fn
  // before launching the TMA kernel.
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "grouped_matmul_kernel uses the first config")) << r.output;
  EXPECT_TRUE(has(r.output, "grouped_matmul_tma_kernel uses the first config")) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'group-gemm-performance' (4 points x 3 lines)")) << r.output;
  EXPECT_TRUE(has(r.output, "note: benchmark sweep 'group-gemm-performance-m-8192-k-8192'")) << r.output;
}

TEST_F(Tutorial, LowMemoryDropoutRuns) {
  RUN_TUTORIAL(r, "04-low-memory-dropout.py");
  if (has(r.output, "No module named 'tabulate'")) GTEST_SKIP() << "tabulate is not installed (python3-tabulate)";
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "keep mask")) << r.output;
  EXPECT_TRUE(has(r.output, "output (seed = 512)")) << r.output;
}

TEST_F(Tutorial, LayerNormRunsItsForwardPassAndSaysTheBackwardPassNeedsInstalledPyTorch) {
  RUN_TUTORIAL(r, "05-layer-norm.py");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  // It stops at the backward pass (after the forward pass ran), saying what to do.
  EXPECT_TRUE(has(r.output, "y_tri.backward(dy, retain_graph=True)")) << r.output;
  EXPECT_TRUE(has(r.output, "AttributeError: 'Tensor' object has no attribute 'backward': tilescope's built-in torch "
                            "has no autograd; installed PyTorch has it: choose it with `tilescope-cli run --torch system`"))
      << r.output;
}

TEST_F(Tutorial, TheirNotebooksOpenAndRunLikeTheScripts) {
  // The notebooks Triton's documentation offers (a '%matplotlib inline' cell first, then the script's
  // cells): each runs as its script does.
  const std::pair<const char*, std::vector<const char*>> notebooks[] = {
      {"notebooks/01-vector-add.ipynb", {"The maximum difference between torch and triton is 0.0"}},
      {"notebooks/02-fused-softmax.ipynb", {"note: benchmark sweep 'softmax-performance'"}},
      {"notebooks/03-matrix-multiplication.ipynb",
       {"Triton and Torch match", "triton_output_with_fp8_inputs=", "note: benchmark sweep 'matmul-performance-fp8'"}},
      {"notebooks/04-low-memory-dropout.ipynb", {"output (seed = 512)"}},
      {"notebooks/08-grouped-gemm.ipynb",
       {"grouped_matmul_tma_kernel uses the first config", "note: benchmark sweep 'group-gemm-performance'"}},
  };
  for (const auto& [name, expected] : notebooks) {
    RUN_TUTORIAL(r, name);
    if (has(r.output, "No module named 'tabulate'")) continue;  // dropout without python3-tabulate
    EXPECT_EQ(r.exitCode, 0) << name << "\n" << r.output;
    for (const char* part : expected) EXPECT_TRUE(has(r.output, part)) << name << ": " << part << "\n" << r.output;
  }
  RUN_TUTORIAL(layerNorm, "notebooks/05-layer-norm.ipynb");
  EXPECT_EQ(layerNorm.exitCode, 1) << layerNorm.output;
  EXPECT_TRUE(has(layerNorm.output, "tilescope's built-in torch has no autograd")) << layerNorm.output;
}

// Issue 23: the grouped-GEMM tutorial's second kernel (tensor descriptors, autotuned) in the simulator,
// beyond the tutorial's own square problems: tests/python/data/grouped_gemm_tma_kernel.py loads the
// tutorial's kernel text unmodified and launches it as that host code does, on problems whose boxes
// run past the matrices' edges, with float16 matrices and with FP8=True on float8_e4m3fn ones.
TEST_F(Tutorial, GroupedGemmsTmaKernelMatchesTorchInTheSimulator) {
  if (!fs::exists(fs::path(dir_) / "08-grouped-gemm.py")) GTEST_SKIP() << "08-grouped-gemm.py is not in TILESCOPE_TUTORIALS_DIR";
  const fs::path program = fs::path(TILESCOPE_TEST_DATA_DIR) / "python" / "data" / "grouped_gemm_tma_kernel.py";
  const auto r = runCli("run --python embedded --backend sim " + program.string() + " --out-of-bounds stop");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(has(r.output, "tutorial TMA kernel matches torch on 3 problems, float16 and float8_e4m3fn")) << r.output;
}
