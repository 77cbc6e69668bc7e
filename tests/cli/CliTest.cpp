#include <gtest/gtest.h>

#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;

TEST(Cli, VersionPrintsTheProjectVersion) {
  const CliRun r = runCli("--version");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.output, std::string("tilescope-cli ") + TILESCOPE_VERSION + "\n");
}

TEST(Cli, DevicesExitsZeroWithOrWithoutAGpu) {
  const CliRun r = runCli("devices");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("GPU:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("NVRTC:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Backends: simulator"), std::string::npos) << r.output;
}

TEST(Cli, UnknownCommandFailsWithUsage) {
  const CliRun r = runCli("frobnicate");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("unknown command 'frobnicate'"), std::string::npos);
  EXPECT_NE(r.output.find("usage: tilescope-cli"), std::string::npos);
}
