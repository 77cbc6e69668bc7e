// tilescope-cli run: scripts, notebooks (--out), exit codes, backends.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/gpu/runtime/DeviceReport.h"
#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;

namespace {

std::string tempFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tilescope_run_" + name);
  std::ofstream(path) << text;
  return path.string();
}

std::string readFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string cell(const std::string& source) {
  return nlohmann::json{{"cell_type", "code"}, {"id", "c" + std::to_string(source.size())}, {"metadata", nlohmann::json::object()},
                        {"source", source}, {"outputs", nlohmann::json::array()}, {"execution_count", nullptr}}
      .dump();
}

}  // namespace

TEST(RunCommand, RunsAScriptAndExitsZero) {
  const CliRun r = runCli("run " + tempFile("ok.py", "import torch\nprint(torch.arange(3) * 2)\n"));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "tensor([0, 2, 4])\n");
}

TEST(RunCommand, FailedAssertExitsOneWithTraceback) {
  const std::string path = tempFile("fail.py", "x = 1\nassert x == 2, 'x must be 2'\n");
  const CliRun r = runCli("run " + path);
  EXPECT_EQ(r.exitCode, 1);
  // CPython's own traceback, with its carets under the failing expression.
  EXPECT_EQ(r.output, "Traceback (most recent call last):\n  File \"" + path + "\", line 2, in <module>\n    assert x == 2, 'x must be 2'\n"
                      "           ^^^^^^\nAssertionError: x must be 2\n");
}

TEST(RunCommand, RunsTheCopyDebuggingExample) {
  const std::string script = std::string(TILESCOPE_SOURCE_DIR) + "/examples/copy_debugging.py";
  const CliRun r = runCli("run " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("pid (1, 0, 0) overlapping: offsets [1 2 3 4]\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("pid (2, 0, 0) fixed: mask [ True  True False False]\n"
                          "tensor([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])\n"),
            std::string::npos)
      << r.output;
  // Its header promises that --pid-filter narrows the prints to one program.
  const CliRun one = runCli("run " + script + " --pid-filter 'pid_0 == 1'");
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_EQ(one.output.find("pid (0, 0, 0)"), std::string::npos) << one.output;
  EXPECT_EQ(one.output.find("pid (2, 0, 0)"), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("pid (1, 0, 0) fixed: offsets [4 5 6 7]\n"), std::string::npos) << one.output;
}

TEST(RunCommand, NotebookWithOutWritesOutputs) {
  const std::string nb = tempFile("nb.ipynb", "{\"cells\": [" + cell("x = 2\nprint('hi')\nx * 3") + "," + cell("y = x + 1\ny") + "," +
                                                   cell("1 / 0") + "," + cell("print('never')") +
                                                   "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const std::string out = (std::filesystem::temp_directory_path() / "tilescope_run_out.ipynb").string();
  const CliRun r = runCli("run " + nb + " --out " + out);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("hi\n6\n3\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("never"), std::string::npos) << r.output;
  const nlohmann::json written = nlohmann::json::parse(readFile(out));
  const auto& cells = written["cells"];
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0]["outputs"][0]["output_type"], "stream");
  EXPECT_EQ(cells[0]["outputs"][0]["name"], "stdout");
  EXPECT_EQ(cells[0]["outputs"][1]["output_type"], "execute_result");
  EXPECT_EQ(cells[0]["outputs"][1]["data"]["text/plain"], "6");
  EXPECT_EQ(cells[0]["execution_count"], 1);
  EXPECT_EQ(cells[1]["outputs"][0]["data"]["text/plain"], "3");
  EXPECT_EQ(cells[2]["outputs"][0]["output_type"], "error");
  EXPECT_EQ(cells[2]["outputs"][0]["ename"], "ZeroDivisionError");
  EXPECT_EQ(cells[2]["outputs"][0]["evalue"], "division by zero");
  EXPECT_EQ(cells[2]["outputs"][0]["traceback"].back(), "ZeroDivisionError: division by zero");
  EXPECT_TRUE(cells[3]["outputs"].empty());
  EXPECT_TRUE(cells[3]["execution_count"].is_null());
}

namespace {

// Seconds since the epoch of an nbclient timestamp (2026-11-26T17:30:08.123456Z); -1 when malformed.
double isoSeconds(const nlohmann::json& value) {
  if (!value.is_string()) return -1;
  const std::string text = value.get<std::string>();
  std::tm utc{};
  std::istringstream in(text);
  in >> std::get_time(&utc, "%Y-%m-%dT%H:%M:%S");
  char dot = 0;
  std::string micros;
  if (in.fail() || !(in >> dot) || dot != '.' || !std::getline(in, micros, 'Z') || micros.size() != 6 || text.back() != 'Z')
    return -1;
  return static_cast<double>(timegm(&utc)) + std::stod(micros) / 1e6;
}

}  // namespace

TEST(RunCommand, NotebookWithOutRecordsWhenEachCellRan) {
  const std::string nb = tempFile("timed.ipynb", "{\"cells\": [" + cell("import time\ntime.sleep(0.3)") + "," + cell("x = 1") +
                                                      "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const std::string out = (std::filesystem::temp_directory_path() / "tilescope_run_timed_out.ipynb").string();
  const CliRun r = runCli("run " + nb + " --out " + out);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nlohmann::json cells = nlohmann::json::parse(readFile(out))["cells"];
  ASSERT_EQ(cells.size(), 2u);
  double previousEnd = 0;
  std::vector<double> seconds;
  for (const auto& c : cells) {
    const nlohmann::json timing = c["metadata"].value("execution", nlohmann::json::object());
    const double start = isoSeconds(timing.value("iopub.execute_input", nlohmann::json()));
    const double end = isoSeconds(timing.value("shell.execute_reply", nlohmann::json()));
    ASSERT_GT(start, 0) << c.dump();
    ASSERT_GE(end, start) << c.dump();
    EXPECT_GE(start, previousEnd) << "cells run one after another";
    previousEnd = end;
    seconds.push_back(end - start);
  }
  EXPECT_GE(seconds[0], 0.29) << "the sleeping cell's time";
  EXPECT_LT(seconds[1], seconds[0]);
}

TEST(RunCommand, AllowErrorsRunsTheRemainingCells) {
  const std::string nb = tempFile("nb2.ipynb", "{\"cells\": [" + cell("1 / 0") + "," + cell("print('after')") +
                                                    "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const CliRun r = runCli("run " + nb + " --allow-errors");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("after\n"), std::string::npos) << r.output;
}

TEST(RunCommand, CellsTaggedRaisesExceptionMayFail) {
  const std::string tagged = nlohmann::json{{"cell_type", "code"}, {"id", "t1"}, {"metadata", {{"tags", {"raises-exception"}}}},
                                            {"source", "1 / 0"}, {"outputs", nlohmann::json::array()},
                                            {"execution_count", nullptr}}
                                 .dump();
  const std::string nb = tempFile("nb3.ipynb", "{\"cells\": [" + tagged + "," + cell("print('after')") +
                                                    "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const CliRun r = runCli("run " + nb);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("ZeroDivisionError: division by zero\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("after\n"), std::string::npos) << r.output;
  // An untagged failing cell after it still stops the run and fails it.
  const std::string nb2 = tempFile("nb4.ipynb", "{\"cells\": [" + tagged + "," + cell("undefined_name") + "," +
                                                     cell("print('never')") +
                                                     "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const CliRun r2 = runCli("run " + nb2);
  EXPECT_EQ(r2.exitCode, 1) << r2.output;
  EXPECT_NE(r2.output.find("NameError"), std::string::npos) << r2.output;
  EXPECT_EQ(r2.output.find("never"), std::string::npos) << r2.output;
}

TEST(RunCommand, GpuOnlyCellsAreSkippedOnTheSimulatorWithTheReason) {
  const std::string tagged = nlohmann::json{{"cell_type", "code"}, {"id", "g1"}, {"metadata", {{"tags", {"gpu-only"}}}},
                                            {"source", "print('large benchmark')"}, {"outputs", nlohmann::json::array()},
                                            {"execution_count", nullptr}}
                                 .dump();
  const std::string nb = tempFile("gpu_only.ipynb", "{\"cells\": [" + cell("print('small')") + "," + tagged + "," + cell("print('after')") +
                                                        "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
  const std::string out = (std::filesystem::temp_directory_path() / "tilescope_run_gpu_only_out.ipynb").string();
  const CliRun r = runCli("run --backend sim " + nb + " --out " + out);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output.find("large benchmark"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("small\nSkipped: this cell is tagged gpu-only and kernels run on the CPU simulator here."), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(tilescope-cli run --backend gpu, or the toolbar's backend menu).\nafter\n"), std::string::npos) << r.output;
  const nlohmann::json written = nlohmann::json::parse(readFile(out));
  const auto& skipped = written["cells"][1]["outputs"];
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0]["output_type"], "stream");
  EXPECT_EQ(skipped[0]["text"].get<std::string>().rfind("Skipped: this cell is tagged gpu-only", 0), 0u);
}

// A kernel without masks, launched on a tensor smaller than its block (the practitioners' guide's
// matmuls on 3x4 inputs): stopped by default, a warning with --out-of-bounds warn or when the
// notebook's metadata asks for it.
const char* kUnmaskedCopy =
    "import torch\nimport triton\nimport triton.language as tl\n"
    "@triton.jit\ndef copy_k(x_ptr, z_ptr, bs: tl.constexpr):\n"
    "    offs = tl.program_id(0) * bs + tl.arange(0, bs)\n"
    "    tl.store(z_ptr + offs, tl.load(x_ptr + offs))\n"
    "x = torch.arange(6)\nz = torch.zeros(8, dtype=torch.int64)\ncopy_k[(1,)](x, z, bs=8)\nprint(z)\n";

TEST(RunCommand, OutOfBoundsStopsByDefaultAndWarnsWhenAsked) {
  const std::string script = tempFile("oob.py", kUnmaskedCopy);
  const CliRun stopped = runCli("run " + script);
  EXPECT_EQ(stopped.exitCode, 1);
  EXPECT_NE(stopped.output.find(":7:28: error: out-of-bounds load in kernel 'copy_k', program pid (0, 0, 0): 2 of 8 active lanes"),
            std::string::npos)
      << stopped.output;
  const CliRun warned = runCli("run --out-of-bounds warn " + script);
  EXPECT_EQ(warned.exitCode, 0) << warned.output;
  EXPECT_NE(warned.output.find(":7:28: warning: out-of-bounds load"), std::string::npos) << warned.output;
  EXPECT_NE(warned.output.find("tensor([0, 1, 2, 3, 4, 5, 0, 0])\n"), std::string::npos) << warned.output;
  EXPECT_EQ(runCli("run --out-of-bounds maybe " + script).exitCode, 2);

  nlohmann::json nb = {{"cells", nlohmann::json::array()}, {"nbformat", 4}, {"nbformat_minor", 5},
                       {"metadata", {{"tilescope", {{"out_of_bounds", "warn"}}}}}};
  nb["cells"].push_back(nlohmann::json::parse(cell(kUnmaskedCopy)));
  const std::string notebook = tempFile("oob.ipynb", nb.dump());
  const CliRun fromMetadata = runCli("run " + notebook);
  EXPECT_EQ(fromMetadata.exitCode, 0) << fromMetadata.output;
  EXPECT_NE(fromMetadata.output.find("tensor([0, 1, 2, 3, 4, 5, 0, 0])\n"), std::string::npos) << fromMetadata.output;
  // The command line wins over the notebook.
  EXPECT_EQ(runCli("run --out-of-bounds stop " + notebook).exitCode, 1);
}

// Issue 27: {"tilescope": {"out_of_bounds": 1}} threw nlohmann::type_error and aborted the run.
TEST(RunCommand, NotebookMetadataOfTheWrongTypeIsAClearError) {
  const struct {
    nlohmann::json tilescope;
    const char* message;
  } cases[] = {
      {{{"out_of_bounds", 1}}, "sets tilescope.out_of_bounds to 1; it must be \"stop\" or \"warn\""},
      {{{"out_of_bounds", "sometimes"}}, "sets tilescope.out_of_bounds to \"sometimes\"; it must be \"stop\" or \"warn\""},
      {{{"out_of_bounds", {{"x", 1}}}}, "sets tilescope.out_of_bounds to {\"x\":1}; it must be \"stop\" or \"warn\""},
      {7, "has a \"tilescope\" entry that is a number; it must be an object such as {\"out_of_bounds\": \"warn\"}"},
  };
  int n = 0;
  for (const auto& c : cases) {
    nlohmann::json nb = {{"cells", nlohmann::json::array()}, {"nbformat", 4}, {"nbformat_minor", 5},
                         {"metadata", {{"tilescope", c.tilescope}}}};
    nb["cells"].push_back(nlohmann::json::parse(cell("print('ran')")));
    const std::string path = tempFile("badmeta" + std::to_string(++n) + ".ipynb", nb.dump());
    const CliRun r = runCli("run " + path);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("tilescope-cli run: " + path + ": "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("ran"), std::string::npos) << "no cell runs under a policy the notebook did not ask for";
  }
}

// --backend gpu with and without a device: one test each, the other skipped, so the result says
// which branch ran.
TEST(RunCommand, GpuBackendRunsOnAGpu) {
  if (!tilescope::gpu::DeviceReport::probe().gpuAvailable)
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::CudaDriver::instance().unavailableReason();
  const CliRun r = runCli("run " + tempFile("g.py", "print(1)\n") + " --backend gpu");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "1\n");
}

TEST(RunCommand, GpuBackendWithoutAGpuSaysSoClearly) {
  if (tilescope::gpu::DeviceReport::probe().gpuAvailable) GTEST_SKIP() << "a CUDA device is present: GpuBackendRunsOnAGpu covers it";
  const CliRun r = runCli("run " + tempFile("g.py", "print(1)\n") + " --backend gpu");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("--backend gpu"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Use --backend sim or auto"), std::string::npos) << r.output;
}

TEST(RunCommand, AutoBackendRuns) {
  const CliRun r = runCli("run " + tempFile("a.py", "print('auto')\n") + " --backend auto");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "auto\n");
}

TEST(RunCommand, BadArgumentsExitTwo) {
  EXPECT_EQ(runCli("run").exitCode, 2);
  EXPECT_EQ(runCli("run x.py --backend tpu").exitCode, 2);
  EXPECT_EQ(runCli("run x.py --frobnicate").exitCode, 2);
  // A bad --pid-filter is a usage error before anything runs (it used to fail at the first launch).
  const CliRun filter = runCli("run " + tempFile("pf.py", "print('ran')\n") + " --pid-filter '((('");
  EXPECT_EQ(filter.exitCode, 2) << filter.output;
  EXPECT_NE(filter.output.find("--pid-filter '(((': expected a condition"), std::string::npos) << filter.output;
  EXPECT_EQ(filter.output.find("ran"), std::string::npos) << filter.output;
}

TEST(RunCommand, AFolderIsNotAScript) {
  const CliRun r = runCli("run " + std::filesystem::temp_directory_path().string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("is a folder; give a .py script or a .ipynb notebook"), std::string::npos) << r.output;
}

TEST(RunCommand, MissingFileExitsOne) {
  const CliRun r = runCli("run /nonexistent/tilescope_missing.py");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("cannot read '/nonexistent/tilescope_missing.py'"), std::string::npos);
}

TEST(RunCommand, HelpListsTheOptions) {
  const CliRun r = runCli("run --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("--pid-filter EXPR"), std::string::npos);
  EXPECT_NE(r.output.find("--trace DIR"), std::string::npos);
}

// --sim-threads sets the simulator's thread count for the run (through TILESCOPE_SIM_THREADS, which
// every launch reads); a kernel still gives the same result on one thread. Bad counts are usage errors.
TEST(RunCommand, SimThreadsSetsTheSimulatorsThreadCount) {
  const std::string script = tempFile("threads.py",
                                      "import os, torch, triton\n"
                                      "import triton.language as tl\n"
                                      "@triton.jit\n"
                                      "def twice(p, n, B: tl.constexpr):\n"
                                      "    i = tl.program_id(0) * B + tl.arange(0, B)\n"
                                      "    tl.store(p + i, tl.load(p + i, mask=i < n) * 2, mask=i < n)\n"
                                      "x = torch.arange(1000, dtype=torch.float32)\n"
                                      "twice[(8,)](x, 1000, B=128)\n"
                                      "print(os.environ['TILESCOPE_SIM_THREADS'], x.sum().item())\n");
  const CliRun r = runCli("run --python embedded --sim-threads 1 " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "1 999000.0\n");
  for (const char* bad : {"0", "two", "-3"}) {
    const CliRun refused = runCli(std::string("run --sim-threads ") + bad + " " + script);
    EXPECT_EQ(refused.exitCode, 2) << bad;
    EXPECT_NE(refused.output.find("--sim-threads takes a number of threads from 1 to 1024"), std::string::npos) << refused.output;
  }
}
