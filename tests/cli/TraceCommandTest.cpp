// tilescope-cli trace: summaries and JSON export of traces written by `run --trace`, and the trace
// size of the seed's grouped matmul.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

const char* kAddScript = R"(import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

x = torch.arange(100, dtype=torch.float32)
out = torch.empty_like(x)
add_kernel[(triton.cdiv(100, 32),)](x, x, out, 100, BLOCK=32)
print(out[99].item())
)";

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tilescope_trace_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The one .tstrace file a run wrote into `dir`.
fs::path onlyTrace(const fs::path& dir) {
  fs::path found;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tstrace") {
      EXPECT_TRUE(found.empty()) << "more than one trace in " << dir;
      found = e.path();
    }
  return found;
}

bool hasPython() { return std::system("python3 -c 'import json' >/dev/null 2>&1") == 0; }

}  // namespace

TEST(TraceCommand, SummarisesATraceAndExportsJsonThatPythonLoads) {
  const fs::path dir = freshDir("add");
  const fs::path script = dir / "add.py";
  std::ofstream(script) << kAddScript;
  const CliRun run = runCli("run --trace " + (dir / "traces").string() + " " + script.string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(run.output, "198.0\n");
  const fs::path trace = onlyTrace(dir / "traces");
  ASSERT_FALSE(trace.empty());

  const CliRun summary = runCli("trace " + trace.string());
  ASSERT_EQ(summary.exitCode, 0) << summary.output;
  EXPECT_NE(summary.output.find("kernel add_kernel, grid (4, 1, 1): 4 programs\n"), std::string::npos) << summary.output;
  EXPECT_NE(summary.output.find("traced programs: 4 (all 4 programs that ran are traced)"), std::string::npos)
      << summary.output;
  EXPECT_NE(summary.output.find("events: 8 loads, 4 stores, 0 atomics"), std::string::npos) << summary.output;

  const fs::path json = dir / "trace.json";
  const CliRun exported = runCli("trace " + trace.string() + " --json " + json.string());
  ASSERT_EQ(exported.exitCode, 0) << exported.output;
  std::ifstream in(json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_EQ(doc["programs"].size(), 4u);
  const auto& last = doc["programs"][3];
  EXPECT_EQ(last["pid"], nlohmann::json::array({3, 0, 0}));
  // Program 3 covers elements 96..127; only 96..99 are inside the tensors.
  nlohmann::json firstLoad;
  for (const auto& e : last["events"])
    if (e["kind"] == "load") {
      firstLoad = e;
      break;
    }
  ASSERT_FALSE(firstLoad.is_null()) << last.dump();
  EXPECT_EQ(firstLoad["arg"], "x_ptr");
  EXPECT_EQ(firstLoad["offsets"][0], 96);
  EXPECT_EQ(firstLoad["mask"][3], true);
  EXPECT_EQ(firstLoad["mask"][4], false);

  if (!hasPython()) GTEST_SKIP() << "python3 not found: the JSON was checked with nlohmann::json only";
  const std::string check = "python3 -c \"import json, sys; d = json.load(open(sys.argv[1])); "
                            "sys.exit(0 if d['kernel'] == 'add_kernel' and len(d['programs']) == 4 else 1)\" " +
                            json.string();
  EXPECT_EQ(std::system(check.c_str()), 0);
}

TEST(TraceCommand, CorruptTraceIsAnErrorNotACrash) {
  const fs::path dir = freshDir("corrupt");
  const fs::path bad = dir / "bad.tstrace";
  std::ofstream(bad) << "this is not a trace";
  const CliRun r = runCli("trace " + bad.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(bad.string() + ": error: "), std::string::npos) << r.output;
}

TEST(TraceCommand, TiledMatmulOf512TraceStaysUnder64MiB) {
  const fs::path dir = freshDir("grouped");
  const CliRun run = runCli("run --trace " + dir.string() + " " + std::string(TILESCOPE_SOURCE_DIR) +
                            "/tests/cli/data/tiled_matmul_512.py");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_EQ(run.output, "True\n");
  const fs::path trace = onlyTrace(dir);
  ASSERT_FALSE(trace.empty());
  const auto bytes = fs::file_size(trace);
  EXPECT_LT(bytes, std::uintmax_t{64} << 20);
  const CliRun summary = runCli("trace " + trace.string());
  // Every one of the 64 programs is traced: 8 iterations of two loads each, and one store.
  EXPECT_NE(summary.output.find("traced programs: 64 (all 64 programs that ran are traced)"), std::string::npos)
      << summary.output;
  EXPECT_NE(summary.output.find("events: 1024 loads, 64 stores"), std::string::npos) << summary.output;
}
