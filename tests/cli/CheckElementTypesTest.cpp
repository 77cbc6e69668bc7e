// `tilescope-cli check` on valid programs whose pointers hold integers (issue 28): kernels are checked
// with the element types their launches pass, or as unknown when nothing launches them, never as if
// every pointer held fp32. The programs are in tests/cli/data/check/.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;

namespace {
std::string dataFile(const std::string& name) { return std::string(TILESCOPE_SOURCE_DIR) + "/tests/cli/data/check/" + name; }
}  // namespace

TEST(CheckElementTypes, AnIntHistogramThatNothingLaunchesIsClean) {
  const auto r = runCli("check " + dataFile("int_histogram.py"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output.find("pointer offsets must be integers"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 kernel checked: 0 errors"), std::string::npos) << r.output;
}

TEST(CheckElementTypes, IntegerFloorDivisionOfLaunchedInt64KeysIsClean) {
  const auto r = runCli("check " + dataFile("bucket_count.py"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output.find("needs integer operands"), std::string::npos) << r.output;
}

TEST(CheckElementTypes, AGatherWithIndexAndDataPointersIsClean) {
  const auto r = runCli("check " + dataFile("gather_rows.py"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("1 kernel checked: 0 errors"), std::string::npos) << r.output;
}

TEST(CheckElementTypes, ALaunchWithAFloatIndexIsReportedAsTheLaunchWouldReportIt) {
  const std::string path = dataFile("gather_float_index.py");
  const auto r = runCli("check " + path);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(path + ":12:50: error: pointer offsets must be integers; got fp32"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 kernel checked: 1 error"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("because no value was given"), std::string::npos) << "the launch passes BLOCK=16: " << r.output;
}
