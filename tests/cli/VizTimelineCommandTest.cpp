// tilescope-cli viz --view timeline: the SM timeline of a --program-timing file, written here by the
// runtime's own line writer (core/gpu/runtime/ProgramTiming) from the 3 words per program a GPU stores.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/gpu/runtime/ProgramTiming.h"
#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

class VizTimeline : public ::testing::Test {
protected:
  void SetUp() override {
    // One folder per process: ctest runs each test as its own process, in parallel.
    dir_ = fs::temp_directory_path() / ("tilescope_viz_timeline_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream f(path("timing.jsonl"));
    const int64_t grid[3] = {2, 2, 1};
    // 4 programs on SMs 3 and 7; %globaltimer stamps, 3 words each (start, end, sm).
    f << tilescope::gpu::programTimingLine("add_kernel", 1, grid, {1000, 3000, 3, 1100, 2600, 7, 3000, 4500, 3, 2600, 5000, 7}) << "\n";
    f << tilescope::gpu::programTimingLine("add_kernel", 2, grid, {0, 10, 1, 0, 10, 1, 0, 10, 1, 0, 10, 1}) << "\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(VizTimeline, DrawsTheChosenLaunchAndSaysWhatItShows) {
  const CliRun r = runCli("viz " + path("timing.jsonl") + " --view timeline --out " + path("t.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("add_kernel launch 1: 4 programs on 2 SMs in 4000 ns"), std::string::npos) << r.output;
  std::ifstream f(path("t.svg"));
  const std::string svg((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find("SM 7"), std::string::npos);
  const CliRun second = runCli("viz " + path("timing.jsonl") + " --view timeline --launch 2");
  ASSERT_EQ(second.exitCode, 0) << second.output;
  EXPECT_NE(second.output.find("add_kernel launch 2: 4 programs on 1 SMs in 10 ns"), std::string::npos) << second.output;
}

TEST_F(VizTimeline, BadFilesAndLaunchesAreClearErrors) {
  const CliRun missing = runCli("viz " + path("timing.jsonl") + " --view timeline --launch 3");
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.output.find("--launch 3: " + path("timing.jsonl") + " holds 2 launch(es)"), std::string::npos) << missing.output;
  std::ofstream(path("bad.jsonl")) << "{\"kernel\": \"k\", \"programs\": [[0, 0, 0]]}\n";
  const CliRun bad = runCli("viz " + path("bad.jsonl") + " --view timeline");
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.output.find(path("bad.jsonl") + ":1: program 1 is not [x, y, z, sm, start_ns, end_ns]"), std::string::npos) << bad.output;
  const CliRun none = runCli("viz --view timeline");
  EXPECT_EQ(none.exitCode, 2);
}

}  // namespace
