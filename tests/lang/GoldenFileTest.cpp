// The golden-file helper (tests/GoldenFile.h) every golden comparison goes through: an update run
// rewrites only files that differ, and expectGolden() then marks the test skipped, naming the file.
#include <gtest/gtest.h>

#include <filesystem>
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
