// tilescope-cli viz --animate: the inspector's stepping written headless as a PNG sequence or an
// animated GIF, from a real trace of the practitioners' guide's copy_k, and its usage errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/sim/TraceWriter.h"
#include "core/viz/GifWriter.h"
#include "core/viz/SceneRaster.h"
#include "tests/cli/CliRunner.h"
#include "tests/viz/SeedTraces.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

class VizAnimate : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
    if (!lines) return;
    dir_ = new fs::path(fs::temp_directory_path() / ("tilescope_viz_animate_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    const auto traces = tilescope::viz::testing::copyTraces(*lines);
    tilescope::sim::TraceWriter::writeFile(traces.back(), (*dir_ / "copy3.tstrace").string());
  }
  static void TearDownTestSuite() {
    if (dir_) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (!dir_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    if (!tilescope::viz::SceneRaster::available()) GTEST_SKIP() << "built without cairo";
  }
  static std::string trace() { return (*dir_ / "copy3.tstrace").string(); }
  static std::string out(const std::string& name) { return (*dir_ / name).string(); }
  static fs::path* dir_;
};
fs::path* VizAnimate::dir_ = nullptr;

TEST_F(VizAnimate, ProgramsAsAPngSequence) {
  const CliRun r = runCli("viz " + trace() + " --view tiles --animate programs --out " + out("programs") + "/");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("step 3 of 3: pid (2, 0, 0)\nwrote 3 frames"), std::string::npos) << r.output;
  for (const char* name : {"frame-0001.png", "frame-0002.png", "frame-0003.png"}) EXPECT_TRUE(fs::exists(out("programs") + "/" + name)) << name;
  EXPECT_FALSE(fs::exists(out("programs") + "/frame-0004.png"));
  // A pid filter keeps programs 1 and 2 only.
  const CliRun where = runCli("viz " + trace() + " --view grid --animate programs --where '>0' --out " + out("where"));
  ASSERT_EQ(where.exitCode, 0) << where.output;
  EXPECT_NE(where.output.find("step 1 of 2: pid (1, 0, 0)"), std::string::npos) << where.output;
  // The folder now holds frames: a second export there is refused, naming the folder.
  const CliRun again = runCli("viz " + trace() + " --view grid --animate programs --out " + out("where"));
  EXPECT_EQ(again.exitCode, 1);
  EXPECT_NE(again.output.find("already holds files"), std::string::npos) << again.output;
}

TEST_F(VizAnimate, OpsOfAProgramAsAnAnimatedGif) {
  if (!tilescope::viz::GifWriter::available()) GTEST_SKIP() << "built without giflib";
  const CliRun r = runCli("viz " + trace() + " --view tiles --animate ops --pid 2 --fps 5 --out " + out("ops.gif"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("step 2 of 2: pid (2, 0, 0), store z_ptr"), std::string::npos) << r.output;
  std::ifstream f(out("ops.gif"), std::ios::binary);
  std::string head(6, '\0');
  f.read(head.data(), 6);
  EXPECT_EQ(head, "GIF89a");
}

TEST_F(VizAnimate, UsageErrorsSayWhatToDo) {
  const CliRun grid = runCli("viz " + trace() + " --view grid --animate ops --out " + out("x.gif"));
  EXPECT_EQ(grid.exitCode, 2);
  EXPECT_NE(grid.output.find("use --view tiles"), std::string::npos) << grid.output;
  const CliRun noOut = runCli("viz " + trace() + " --view tiles --animate programs");
  EXPECT_EQ(noOut.exitCode, 2);
  EXPECT_NE(noOut.output.find("--out FILE.gif"), std::string::npos) << noOut.output;
  const CliRun what = runCli("viz " + trace() + " --view tiles --animate slides --out " + out("y.gif"));
  EXPECT_EQ(what.exitCode, 2);
  const CliRun fps = runCli("viz " + trace() + " --view tiles --animate programs --fps 500 --out " + out("z.gif"));
  EXPECT_EQ(fps.exitCode, 2);
  EXPECT_FALSE(fs::exists(out("z.gif")));
}

}  // namespace
