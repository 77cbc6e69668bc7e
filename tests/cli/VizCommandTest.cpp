// tilescope-cli viz: the inspector's views drawn headless from real traces of the practitioners'
// guide's copy_k, and its usage errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "core/sim/TraceWriter.h"
#include "core/viz/PngWriter.h"
#include "tests/cli/CliRunner.h"
#include "tests/viz/SeedTraces.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

// PNG where this build has cairo, SVG otherwise: both are drawn from the same scene.
std::string picture(const std::string& stem) {
  return stem + (tilescope::viz::PngWriter::available() ? ".png" : ".svg");
}

class VizCommand : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
    if (!lines) return;
    // One folder per process: ctest runs each test as its own process, in parallel, and each one's
    // TearDownTestSuite removes its folder.
    dir_ = new fs::path(fs::temp_directory_path() / ("tilescope_viz_cli_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    int version = 0;
    for (const auto& t : tilescope::viz::testing::copyTraces(*lines))
      tilescope::sim::TraceWriter::writeFile(t, (*dir_ / ("copy" + std::to_string(++version) + ".tstrace")).string());
  }
  static void TearDownTestSuite() {
    if (dir_) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!dir_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  }
  static std::string trace(int version) { return (*dir_ / ("copy" + std::to_string(version) + ".tstrace")).string(); }
  static std::string out(const std::string& name) { return (*dir_ / name).string(); }
  static fs::path* dir_;
};
fs::path* VizCommand::dir_ = nullptr;

TEST_F(VizCommand, TilesOfProgramTwoPrintAndDraw) {
  const CliRun r = runCli("viz " + trace(3) + " --view tiles --pid 2 --out " + out(picture("tiles")));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("offsets [4 5]\nmask [True True]\nvalues [5 6]\n"), std::string::npos) << r.output;
  EXPECT_GT(fs::file_size(out(picture("tiles"))), 1000u);
  const CliRun store = runCli("viz " + trace(3) + " --view tiles --pid 2,0,0 --op 2");
  EXPECT_NE(store.output.find("store z_ptr"), std::string::npos) << store.output;
}

TEST_F(VizCommand, CoverageOfEachBuggyCopyNamesTheUnwrittenElements) {
  for (int version : {1, 2}) {
    const CliRun r = runCli("viz " + trace(version) + " --view coverage --out " + out("coverage.svg"));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("never written: z_ptr[2:6] (4 elements)"), std::string::npos) << r.output;
    std::ifstream f(out("coverage.svg"));
    const std::string svg((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(svg.find("never written: z_ptr[2:6] (4 elements)"), std::string::npos);
  }
  EXPECT_NE(runCli("viz " + trace(3) + " --view coverage").output.find("all 6 elements written"), std::string::npos);
}

TEST_F(VizCommand, GridAndSwizzleViews) {
  const CliRun grid = runCli("viz " + trace(2) + " --view grid --color masked --pid 1 --out " + out(picture("grid")));
  ASSERT_EQ(grid.exitCode, 0) << grid.output;
  EXPECT_NE(grid.output.find("copy_k grid (3, 1, 1): 3 of 3 programs traced; colour by masked-off lanes"), std::string::npos)
      << grid.output;
  const CliRun sw = runCli("viz --view swizzle --tiles 9x9 --group 3 --window 9 --out " + out(picture("swizzle")));
  ASSERT_EQ(sw.exitCode, 0) << sw.output;
  EXPECT_NE(sw.output.find("first 9 programs load 90 blocks (9 of A, 81 of B)"), std::string::npos) << sw.output;
  EXPECT_NE(sw.output.find("first 9 programs load 54 blocks (27 of A, 27 of B)"), std::string::npos) << sw.output;
  const CliRun small = runCli("viz --view swizzle --tiles 5x4 --group 3");
  EXPECT_NE(small.output.find("grouped (group 3): [[0,3,6,9],[1,4,7,10],[2,5,8,11],[12,14,16,18],[13,15,17,19]]"), std::string::npos)
      << small.output;
}

TEST_F(VizCommand, BadInputSaysWhatToDo) {
  struct Case {
    std::string args;
    int code;
    std::string message;
  };
  const Case cases[] = {
      {"viz " + trace(3), 2, "--view is required: grid, tiles, coverage, swizzle, dot or reduce"},
      {"viz " + trace(3) + " --view pie", 2, "unknown view 'pie'"},
      {"viz " + trace(3) + " --view tiles --pid 9", 1, "--pid (9, 0, 0) is outside the grid (3, 1, 1)"},
      {"viz " + trace(3) + " --view tiles --pid x", 2, "--pid x: expected X, X,Y or X,Y,Z"},
      {"viz " + trace(3) + " --view tiles --op 3", 1, "made 2 memory operations; there is no operation 2"},
      {"viz " + trace(3) + " --view grid --out g.jpg", 2, "must end in .png or .svg"},
      {"viz " + trace(3) + " --view grid --color rainbow", 2, "use pid, order, tile, bytes or masked"},
      {"viz " + out("missing.tstrace") + " --view grid", 1, "missing.tstrace"},
      {"viz --view swizzle --tiles 9", 2, "expected ROWSxCOLS"},
  };
  for (const Case& c : cases) {
    const CliRun r = runCli(c.args);
    EXPECT_EQ(r.exitCode, c.code) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
  }
}

}  // namespace
