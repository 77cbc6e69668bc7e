// The golden-file helper (tests/GoldenFile.h) every golden comparison goes through: an update run
// rewrites only files that differ, and expectGolden() then marks the test skipped, naming the file.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "tests/GoldenFile.h"

namespace fs = std::filesystem;
using tilescope::golden::compareOrUpdateGolden;
using tilescope::golden::GoldenOutcome;
using tilescope::golden::readGoldenFile;

namespace {

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("tilescope-golden-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

TEST(GoldenFile, ComparingLeavesTheFileAlone) {
  TempDir t;
  const fs::path golden = t.dir / "a.txt";
  std::ofstream(golden) << "old\n";
  EXPECT_EQ(compareOrUpdateGolden(golden, "old\n", false), GoldenOutcome::Matches);
  EXPECT_EQ(compareOrUpdateGolden(golden, "new\n", false), GoldenOutcome::Differs);
  EXPECT_EQ(readGoldenFile(golden), "old\n");
  EXPECT_EQ(compareOrUpdateGolden(t.dir / "missing.txt", "x", false), GoldenOutcome::Missing);
  EXPECT_FALSE(fs::exists(t.dir / "missing.txt"));
}

TEST(GoldenFile, AnUpdateRewritesOnlyWhatDiffersAndSaysSo) {
  TempDir t;
  const fs::path golden = t.dir / "a.txt";
  std::ofstream(golden) << "old\n";
  const auto written = fs::last_write_time(golden);
  // A file that already matches is compared, not rewritten: that test may pass.
  EXPECT_EQ(compareOrUpdateGolden(golden, "old\n", true), GoldenOutcome::Matches);
  EXPECT_EQ(fs::last_write_time(golden), written);
  EXPECT_EQ(compareOrUpdateGolden(golden, "new\n", true), GoldenOutcome::Rewritten);
  EXPECT_EQ(readGoldenFile(golden), "new\n");
  EXPECT_EQ(compareOrUpdateGolden(t.dir / "sub" / "b.txt", "made\n", true), GoldenOutcome::Rewritten);
  EXPECT_EQ(readGoldenFile(t.dir / "sub" / "b.txt"), "made\n");
}

// What a test reports: a rewritten file is a skip naming it, never a pass; a stale file without the
// update variable is a failure naming it.
TEST(GoldenFile, ARewriteIsReportedAsASkipNamingTheFile) {
  TempDir t;
  const fs::path golden = t.dir / "c.txt";
  std::ofstream(golden) << "old\n";
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                         &results);
    tilescope::golden::expectGoldenFile(golden, "new\n");  // compared: fails
    setenv("TILESCOPE_UPDATE_GOLDEN", "1", 1);
    tilescope::golden::expectGoldenFile(golden, "new\n");  // rewritten: skipped
    tilescope::golden::expectGoldenFile(golden, "new\n");  // now the same: nothing to report
    unsetenv("TILESCOPE_UPDATE_GOLDEN");
  }
  ASSERT_EQ(results.size(), 2);
  EXPECT_TRUE(results.GetTestPartResult(0).failed());
  EXPECT_NE(std::string(results.GetTestPartResult(0).message()).find(golden.string()), std::string::npos);
  EXPECT_TRUE(results.GetTestPartResult(1).skipped());
  EXPECT_NE(std::string(results.GetTestPartResult(1).message()).find("TILESCOPE_UPDATE_GOLDEN=1 rewrote golden file " + golden.string()),
            std::string::npos)
      << results.GetTestPartResult(1).message();
  EXPECT_EQ(readGoldenFile(golden), "new\n");
}
