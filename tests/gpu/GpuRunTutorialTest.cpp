// Triton's official tutorials, unmodified, on the GPU with installed PyTorch (ctest label gpu): each
// runs to its end, benchmark sweeps included, within 300 s, with the results its checks print. The
// tutorials are not part of tilescope: TILESCOPE_TUTORIALS_DIR names a folder with Triton 3.6's
// python/tutorials files; installed PyTorch is found as `--torch system` finds it (VIRTUAL_ENV, then
// the system's Python). Without the folder, a GPU or installed PyTorch, these tests are skipped,
// saying which is missing. The simulator's side is tests/python/EmbeddedTutorialTest.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "core/gpu/runtime/GpuRuntime.h"

namespace {

namespace fs = std::filesystem;

constexpr int kTimeLimitSeconds = 300;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct TutorialRun {
  int exitCode = -1;
  std::string output;
  std::string skipped;  // why the run did not happen (no folder, file, GPU or installed PyTorch)
};

TutorialRun skip(const std::string& reason) {
  TutorialRun r;
  r.skipped = reason;
  return r;
}

// Runs the tutorial on the GPU backend with installed PyTorch under the time limit.
TutorialRun runTutorial(const std::string& name) {
  const char* dir = std::getenv("TILESCOPE_TUTORIALS_DIR");
  if (!dir || !*dir) return skip("TILESCOPE_TUTORIALS_DIR is not set (a folder with Triton 3.6's tutorials)");
  const fs::path path = fs::path(dir) / name;
  if (!fs::exists(path)) return skip(name + " is not in TILESCOPE_TUTORIALS_DIR");
  tilescope::gpu::GpuRuntime& rt = tilescope::gpu::GpuRuntime::instance();
  if (!rt.available()) return skip("no CUDA device: " + rt.unavailableReason());
  TutorialRun r;
  const std::string command = "timeout " + std::to_string(kTimeLimitSeconds) + " " + TILESCOPE_CLI_PATH +
                              " run --backend gpu --torch system '" + fs::absolute(path).string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return skip("popen failed");
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (has(r.output, "installed PyTorch was chosen (--torch system) but none was found"))
    return skip("installed PyTorch is not found (set VIRTUAL_ENV to a virtual environment that has it)");
  return r;
}

// The common checks: the run finished within the limit and exited 0.
void expectFinished(const TutorialRun& r) {
  EXPECT_NE(r.exitCode, 124) << "did not finish within " << kTimeLimitSeconds << " s:\n" << r.output;
  EXPECT_EQ(r.exitCode, 0) << r.output;
}

#define RUN_GPU_TUTORIAL(var, name)  \
  const TutorialRun var = runTutorial(name); \
  if (!var.skipped.empty()) GTEST_SKIP() << var.skipped

}  // namespace

TEST(GpuRun, TutorialVectorAdd) {
  RUN_GPU_TUTORIAL(r, "01-vector-add.py");
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "The maximum difference between torch and triton is 0.0")) << r.output;
  EXPECT_TRUE(has(r.output, "vector-add-performance:")) << r.output;
}

TEST(GpuRun, TutorialFusedSoftmax) {
  RUN_GPU_TUTORIAL(r, "02-fused-softmax.py");
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "softmax-performance:")) << r.output;
  // torch.softmax's calls are timed by torch's CUDA events, not the host clock.
  EXPECT_FALSE(has(r.output, "by the host clock")) << r.output;
}

TEST(GpuRun, TutorialMatrixMultiplicationWithItsFp8Part) {
  RUN_GPU_TUTORIAL(r, "03-matrix-multiplication.py");
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "triton_output_with_fp8_inputs=")) << r.output;
  EXPECT_FALSE(has(r.output, "Triton and Torch differ")) << r.output;
  size_t matches = 0;
  for (size_t at = r.output.find("Triton and Torch match"); at != std::string::npos;
       at = r.output.find("Triton and Torch match", at + 1))
    ++matches;
  EXPECT_EQ(matches, 2u) << "fp16 and fp8 both match torch:\n" << r.output;
  EXPECT_TRUE(has(r.output, "matmul-performance-fp8:")) << r.output;
}

TEST(GpuRun, TutorialLowMemoryDropout) {
  RUN_GPU_TUTORIAL(r, "04-low-memory-dropout.py");
  if (has(r.output, "No module named 'tabulate'")) GTEST_SKIP() << "tabulate is not installed beside PyTorch";
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "output (seed = 512)")) << r.output;
}

TEST(GpuRun, TutorialLayerNormWithItsBackwardPass) {
  RUN_GPU_TUTORIAL(r, "05-layer-norm.py");
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "layer-norm-backward:")) << r.output;
  EXPECT_FALSE(has(r.output, "by the host clock")) << r.output;
}

TEST(GpuRun, TutorialGroupedGemm) {
  RUN_GPU_TUTORIAL(r, "08-grouped-gemm.py");
  expectFinished(r);
  EXPECT_TRUE(has(r.output, "group-gemm-performance:")) << r.output;
}
