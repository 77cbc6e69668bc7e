// `scripts/setup.sh run` is a new user's first command: it must build only what the window needs
// (the GUI and the CLI whose worker runs cells) before launching, not every test and benchmark.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {
std::string dryRunOutput(const std::string& mode) {
  const std::string command = "TILESCOPE_SETUP_DRY_RUN=1 bash " TILESCOPE_SOURCE_DIR "/scripts/setup.sh " + mode +
                              " 2>&1 </dev/null";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  pclose(pipe);
  return output;
}
}  // namespace

TEST(SetupScript, RunBuildsOnlyTheAppTargetsBeforeLaunching) {
  const std::string output = dryRunOutput("run");
  const size_t build = output.find("would run: cmake --build ");
  ASSERT_NE(build, std::string::npos) << output;
  const std::string buildLine = output.substr(build, output.find('\n', build) - build);
  EXPECT_NE(buildLine.find("--target tilescope tilescope-cli"), std::string::npos) << buildLine;
  EXPECT_EQ(output.find("would run: cmake --build ", build + 1), std::string::npos)
      << "one build, of the app only, before the launch:\n" << output;
  const size_t launch = output.find("app/gui/tilescope", build);
  EXPECT_NE(launch, std::string::npos) << "the app is launched (or screenshotted without a display):\n" << output;
}
