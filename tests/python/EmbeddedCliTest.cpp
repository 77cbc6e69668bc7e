// `tilescope-cli run FILE`: a script on embedded CPython (the only Python) from the command line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;

namespace {

std::string writeScript(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("tilescope-pyembed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(EmbeddedCli, RunsAScriptWithAKernelAndImportsItsSiblingModules) {
  writeScript("helper_consts.py", "LANES = 64\n");
  const std::string script = writeScript("fill.py", R"(import torch, triton
import triton.language as tl
from helper_consts import LANES

@triton.jit
def fill(out_ptr, value, n, LANES: tl.constexpr):
    i = tl.program_id(0) * LANES + tl.arange(0, LANES)
    tl.store(out_ptr + i, value, mask=i < n)

out = torch.zeros(100, device='cuda')
fill[(triton.cdiv(100, LANES),)](out, 2.5, out.numel(), LANES=LANES)
print(f"{out.sum().item():.1f}", sorted({v for v in out.tolist()}), triton.next_power_of_2(100))
)");
  const std::string traces = std::filesystem::path(script).parent_path() / "traces";
  std::filesystem::remove_all(traces);
  const auto r = runCli("run --trace " + traces + " " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "250.0 [2.5] 128\n");
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(traces) / "1-fill.tstrace"));
}

TEST(EmbeddedCli, AKernelErrorExitsWithOneAndPrintsTheDiagnostic) {
  const std::string script = writeScript("bad.py", R"(import torch, triton
import triton.language as tl

@triton.jit
def bad(out_ptr):
    tl.store(out_ptr + tl.arange(0, 12), 1.0)

bad[(1,)](torch.zeros(12))
)");
  const auto r = runCli("run " + script);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("Traceback (most recent call last):"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(script + ":6:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("power of 2"), std::string::npos) << r.output;
}

TEST(EmbeddedCli, OldScriptsMayStillSayPythonEmbedded) {
  const std::string script = writeScript("hello.py", "import sys\nprint(sys.version_info.major)\n");
  const auto r = runCli("run --python embedded " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "3\n");
}

TEST(EmbeddedCli, TheRemovedInterpreterIsRefusedSayingWhatToDo) {
  const std::string script = writeScript("hello2.py", "print('never')\n");
  const auto r = runCli("run --python interpreter " + script);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.output.find("never"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("was removed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Drop the --python option"), std::string::npos) << r.output;
  const auto worker = runCli("worker --python interpreter");
  EXPECT_EQ(worker.exitCode, 2);
  EXPECT_NE(worker.output.find("was removed"), std::string::npos) << worker.output;
}

TEST(EmbeddedCli, TheHelpNoLongerOffersAPythonChoice) {
  const auto r = runCli("run --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.output.find("--python"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("embedded CPython"), std::string::npos) << r.output;
}

// Ctrl+C (SIGINT) in `tilescope-cli run` is KeyboardInterrupt in the running Python code: the user
// sees where it stopped, and the exit status is 1, as for any error.
TEST(EmbeddedCli, SigintRaisesKeyboardInterruptWhereTheCodeWas) {
  const std::string script = writeScript("spin.py", "print('start', flush=True)\nwhile True:\n    pass\n");
  const std::string command = "timeout --preserve-status -s INT 2 " + std::string(TILESCOPE_CLI_PATH) + " run " + script + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 1) << output;
  EXPECT_EQ(output.rfind("start\n", 0), 0u) << output;
  EXPECT_NE(output.find("File \"" + script + "\", line 2, in <module>"), std::string::npos) << output;
  EXPECT_NE(output.find("KeyboardInterrupt"), std::string::npos) << output;
}
