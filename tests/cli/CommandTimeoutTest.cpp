// --timeout SECONDS of `tilescope-cli run` and `check` (issue 27): an endless loop in host code or in
// a kernel is stopped, with exit code 124 and a message saying the timeout was hit.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;

namespace {

std::string tempFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tilescope_timeout_" + name);
  std::ofstream(path) << text;
  return path.string();
}

// Runs the CLI and says how long it took. The bound in the tests is a liveness bound (a hang would
// never end), far above the 1 s limit plus the 2 s grace period.
CliRun timedRun(const std::string& args, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  CliRun r = runCli(args);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

constexpr double kLiveness = 60.0;

}  // namespace

TEST(CommandTimeout, StopsAnEndlessLoopInHostCode) {
  double seconds = 0;
  const CliRun r = timedRun("run --timeout 1 " + tempFile("loop.py", "print('started', flush=True)\nwhile True:\n    pass\n"), seconds);
  EXPECT_EQ(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("started\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tilescope-cli run: timed out: stopped after the --timeout of 1 s"), std::string::npos) << r.output;
  // The interpreter stopped where it was, as Ctrl+C would: the traceback points into the loop.
  EXPECT_NE(r.output.find("KeyboardInterrupt"), std::string::npos) << r.output;
  EXPECT_LT(seconds, kLiveness);
}

TEST(CommandTimeout, StopsAKernelThatNeverEnds) {
  const std::string script = tempFile("spin.py",
                                      "import torch\nimport triton\nimport triton.language as tl\n"
                                      "@triton.jit\ndef spin(x_ptr):\n"
                                      "    while tl.load(x_ptr) == 0:\n"
                                      "        pass\n"
                                      "x = torch.zeros(1, dtype=torch.int32)\nspin[(1,)](x)\nprint('never')\n");
  double seconds = 0;
  const CliRun r = timedRun("run --timeout 1 " + script, seconds);
  EXPECT_EQ(r.exitCode, 124) << r.output;
  EXPECT_NE(r.output.find("timed out: stopped after the --timeout of 1 s"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("never"), std::string::npos) << r.output;
  EXPECT_LT(seconds, kLiveness);
}

TEST(CommandTimeout, ANotebookRunStillWritesItsOutputs) {
  auto cell = [](const std::string& source) {
    return nlohmann::json{{"cell_type", "code"}, {"id", "c" + std::to_string(source.size())}, {"metadata", nlohmann::json::object()},
                          {"source", source}, {"outputs", nlohmann::json::array()}, {"execution_count", nullptr}};
  };
  nlohmann::json nb = {{"cells", {cell("print('first')"), cell("while True:\n    pass"), cell("print('never')")}},
                       {"metadata", nlohmann::json::object()}, {"nbformat", 4}, {"nbformat_minor", 5}};
  const std::string path = tempFile("loop.ipynb", nb.dump());
  const std::string out = (std::filesystem::temp_directory_path() / "tilescope_timeout_out.ipynb").string();
  std::filesystem::remove(out);
  double seconds = 0;
  const CliRun r = timedRun("run --allow-errors --timeout 1 " + path + " --out " + out, seconds);
  EXPECT_EQ(r.exitCode, 124) << r.output;
  EXPECT_EQ(r.output.find("never"), std::string::npos) << "nothing runs after the timeout, --allow-errors or not";
  std::ifstream in(out);
  ASSERT_TRUE(in) << "the executed notebook is written up to where the time ran out";
  const nlohmann::json written = nlohmann::json::parse(in);
  EXPECT_EQ(written["cells"][0]["outputs"][0]["text"], "first\n");
  EXPECT_EQ(written["cells"][1]["outputs"][0]["ename"], "KeyboardInterrupt");
  EXPECT_TRUE(written["cells"][2]["outputs"].empty());
  EXPECT_LT(seconds, kLiveness);
}

// The checker polls no cancel flag: past the limit the process is ended (the path that also stops a
// hung GPU kernel or other native code).
TEST(CommandTimeout, StopsACheckThatWouldUnrollForever) {
  const std::string kernel = tempFile("unroll.py",
                                      "import triton\nimport triton.language as tl\n"
                                      "@triton.jit\ndef k(x_ptr):\n"
                                      "    acc = 0\n"
                                      "    for i in tl.static_range(4096):\n"
                                      "        for j in tl.static_range(4096):\n"
                                      "            for m in tl.static_range(4096):\n"
                                      "                acc += i + j + m\n"
                                      "    tl.store(x_ptr, acc)\n");
  double seconds = 0;
  const CliRun r = timedRun("check --timeout 1 " + kernel, seconds);
  EXPECT_EQ(r.exitCode, 124) << r.output;
  EXPECT_EQ(r.output, "tilescope-cli check: timed out: stopped after the --timeout of 1 s\n");
  EXPECT_LT(seconds, kLiveness);
}

TEST(CommandTimeout, FastRunsAreUnaffected) {
  const CliRun r = runCli("run --timeout 30 " + tempFile("fast.py", "print(6 * 7)\n"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "42\n");
  const CliRun c = runCli("check --timeout 30 " + tempFile("fast_check.py", "import triton\n"));
  EXPECT_EQ(c.exitCode, 0) << c.output;
}

TEST(CommandTimeout, BadValuesAreUsageErrors) {
  const std::string script = tempFile("any.py", "print(1)\n");
  for (const char* value : {"0", "-1", "abc", "1e999", "nan", "5s", ""}) {
    const CliRun r = runCli("run " + script + " --timeout '" + value + "'");
    EXPECT_EQ(r.exitCode, 2) << value << ": " << r.output;
    EXPECT_NE(r.output.find("--timeout takes a positive number of seconds"), std::string::npos) << r.output;
    EXPECT_EQ(runCli("check " + script + " --timeout '" + value + "'").exitCode, 2) << value;
  }
  EXPECT_EQ(runCli("run " + script + " --timeout").exitCode, 2);
  EXPECT_EQ(runCli("check " + script + " --timeout").exitCode, 2);
}

TEST(CommandTimeout, HelpOfRunAndCheckDescribesIt) {
  for (const char* command : {"run --help", "check --help"}) {
    const CliRun r = runCli(command);
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.output.find("--timeout S"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("124"), std::string::npos) << r.output;
  }
}
