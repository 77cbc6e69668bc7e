// tilescope-cli viz --view grid --color duration|sm: the program grid of a --program-timing file
// (written here by the runtime's own line writer from the words a GPU stores), and the colourings
// refused where there is no timing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/gpu/runtime/ProgramTiming.h"
#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

class VizTimingGrid : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilescope_viz_timing_grid_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream f(path("timing.jsonl"));
    const int64_t grid[3] = {2, 2, 1};
    // Programs (0,0) and (0,1) on SM 3 for 2 and 1.5 us, (1,0) and (1,1) on SM 7 for 1.5 and 2.4 us.
    f << tilescope::gpu::programTimingLine("add_kernel", 1, grid, {1000, 3000, 3, 1100, 2600, 7, 3000, 4500, 3, 2600, 5000, 7}) << "\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(VizTimingGrid, ColoursBySmAndByDuration) {
  const CliRun sm = runCli("viz " + path("timing.jsonl") + " --view grid --color sm --out " + path("sm.svg"));
  ASSERT_EQ(sm.exitCode, 0) << sm.output;
  EXPECT_NE(sm.output.find("add_kernel launch 1 grid (2, 2, 1): colour by the SM each program ran on (2 SMs)"), std::string::npos)
      << sm.output;
  EXPECT_NE(sm.output.find("SM 3 (2)"), std::string::npos) << sm.output;
  EXPECT_NE(sm.output.find("SM 7 (2)"), std::string::npos) << sm.output;
  const CliRun d = runCli("viz " + path("timing.jsonl") + " --view grid --color duration --out " + path("d.svg"));
  ASSERT_EQ(d.exitCode, 0) << d.output;
  EXPECT_NE(d.output.find("colour by duration on the GPU: dark 1.50 us to yellow 2.40 us"), std::string::npos) << d.output;
  std::ifstream f(path("d.svg"));
  const std::string svg((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find("2.40 us"), std::string::npos);
}

TEST_F(VizTimingGrid, ATraceHasNoTimingToColourBy) {
  std::ofstream(path("launch.tstrace")) << "not read";
  const CliRun r = runCli("viz " + path("launch.tstrace") + " --view grid --color duration");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("--color duration needs program timing, which traces do not hold"), std::string::npos) << r.output;
  const CliRun wrong = runCli("viz " + path("timing.jsonl") + " --view grid --color sm --launch 2");
  EXPECT_EQ(wrong.exitCode, 1);
  EXPECT_NE(wrong.output.find("holds 1 launch(es)"), std::string::npos) << wrong.output;
}

}  // namespace
