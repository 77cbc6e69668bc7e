// tilescope-cli viz --view dot|reduce: the Dot and Reduce views drawn headless from real traces of
// the practitioners' guide's naive matmul and the from-zero tutorial's softmax, and their usage errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/sim/TraceWriter.h"
#include "core/viz/PngWriter.h"
#include "tests/cli/CliRunner.h"
#include "tests/viz/ComputeSeedTraces.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;
namespace seeds = tilescope::viz::testing;

namespace {

// PNG where this build has cairo, SVG otherwise: both are drawn from the same scene.
std::string picture(const std::string& stem) {
  return stem + (tilescope::viz::PngWriter::available() ? ".png" : ".svg");
}

class VizComputeCommand : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto guide = seeds::seedLines(seeds::kGuide);
    const auto zero = seeds::seedLines(seeds::kZero);
    if (!guide || !zero) return;
    dir_ = new fs::path(fs::temp_directory_path() / ("tilescope_viz_compute_cli_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    const auto matmul = seeds::naiveMatmulTraces(*guide);
    const auto softmax = seeds::softmaxTraces(*zero);
    if (matmul.size() == 1) tilescope::sim::TraceWriter::writeFile(matmul[0], path("matmul.tstrace"));
    if (softmax.size() == 1) tilescope::sim::TraceWriter::writeFile(softmax[0], path("softmax.tstrace"));
  }
  static void TearDownTestSuite() {
    if (dir_) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!dir_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  }
  static std::string path(const std::string& name) { return (*dir_ / name).string(); }
  static fs::path* dir_;
};
fs::path* VizComputeCommand::dir_ = nullptr;

TEST_F(VizComputeCommand, DotOfAProgramAndKStepPrintsAndDraws) {
  const CliRun r = runCli("viz " + path("matmul.tstrace") + " --view dot --pid 1,0 --step 3 --out " + path(picture("dot")));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("pid (1, 0, 0) tl.dot line "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", K step 3 of 3\nk = 32 .. 47 (K step 3 of 3, BK = 16)\nA fp32 [16, 16]\nB fp32 [16, 16]\nacc after fp32 [16, 16]\n"),
            std::string::npos)
      << r.output;
  EXPECT_GT(fs::file_size(path(picture("dot"))), 1000u);
  const CliRun svg = runCli("viz " + path("matmul.tstrace") + " --view dot --out " + path("dot.svg"));
  ASSERT_EQ(svg.exitCode, 0) << svg.output;
  EXPECT_NE(svg.output.find("pid (0, 0, 0)"), std::string::npos) << svg.output;  // the first traced program, first step
  EXPECT_NE(svg.output.find("k = 0 .. 15"), std::string::npos) << svg.output;
  EXPECT_GT(fs::file_size(path("dot.svg")), 1000u);
}

TEST_F(VizComputeCommand, ReduceShowsTheRowMaxAndTheSum) {
  const CliRun r = runCli("viz " + path("softmax.tstrace") + " --view reduce --pid 1 --out " + path("reduce.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("input [  2.   9.   5.   1.   8. -inf -inf -inf]\nresult 9.\n"), std::string::npos) << r.output;
  const CliRun sum = runCli("viz " + path("softmax.tstrace") + " --view reduce --pid 1 --step 2");
  ASSERT_EQ(sum.exitCode, 0) << sum.output;
  EXPECT_NE(sum.output.find("tl.sum axis 0"), std::string::npos) << sum.output;
}

TEST_F(VizComputeCommand, MissingOperationsAndBadStepsAreClearErrors) {
  const CliRun none = runCli("viz " + path("softmax.tstrace") + " --view dot --pid 0");
  EXPECT_EQ(none.exitCode, 1);
  EXPECT_NE(none.output.find("program (0, 0, 0) computed no tl.dot"), std::string::npos) << none.output;
  const CliRun past = runCli("viz " + path("matmul.tstrace") + " --view dot --step 4");
  EXPECT_EQ(past.exitCode, 1);
  EXPECT_NE(past.output.find("--step 4: program (0, 0, 0) ran 3 tl.dot(s)"), std::string::npos) << past.output;
  const CliRun zero = runCli("viz " + path("matmul.tstrace") + " --view reduce --step 0");
  EXPECT_EQ(zero.exitCode, 2);
  EXPECT_NE(zero.output.find("--step counts from 1"), std::string::npos) << zero.output;
}

}  // namespace
