// The bundled example notebooks (examples/), run with `tilescope-cli run --backend sim` as a class
// would run them: no errors, the outputs their text promises, gpu-only cells skipped with the reason,
// benchmark tables labelled "simulated". And they hold only what we wrote: no seed text in them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/CliRunner.h"

using tilescope::testing::CliRun;
using tilescope::testing::runCli;
namespace fs = std::filesystem;

namespace {

const std::string kTour = std::string(TILESCOPE_SOURCE_DIR) + "/examples/kernel_tour.ipynb";

std::string readFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// Every output text of a cell (streams, text/plain results) joined.
std::string cellText(const nlohmann::json& cell) {
  std::string text;
  for (const auto& output : cell["outputs"]) {
    if (output.contains("text")) text += output["text"].get<std::string>();
    if (output.contains("data") && output["data"].contains("text/plain")) text += output["data"]["text/plain"].get<std::string>();
  }
  return text;
}

bool tagged(const nlohmann::json& cell, const std::string& tag) {
  if (!cell["metadata"].contains("tags")) return false;
  for (const auto& t : cell["metadata"]["tags"])
    if (t == tag) return true;
  return false;
}

}  // namespace

TEST(ExampleNotebooks, KernelTourRunsCleanOnTheSimulator) {
  const std::string out = (fs::temp_directory_path() / "tilescope_kernel_tour_run.ipynb").string();
  const CliRun r = runCli("run --backend sim " + kTour + " --out " + out);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output.find("Traceback"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("error:"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("warning:"), std::string::npos) << r.output;

  // What the text around the cells says they show.
  EXPECT_NE(r.output.find("tensor([0, 0, 0, 0, 1, 1, 1, 1, 2, 2], dtype=torch.int32)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tensor([10, 11, 12, 13,  0,  0,  0,  0,  0,  0])"), std::string::npos) << "first bug\n" << r.output;
  EXPECT_NE(r.output.find("tensor([10, 11, 12, 13, 14, 15,  0,  0,  0,  0])"), std::string::npos) << "second bug\n" << r.output;
  EXPECT_NE(r.output.find("tensor([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])"), std::string::npos) << "the fix\n" << r.output;
  EXPECT_NE(r.output.find("[ 0,  3,  6,  9, 12],\n        [ 1,  4,  7, 10, 13],\n        [ 2,  5,  8, 11, 14],"), std::string::npos)
      << "groups of three tile rows, column by column\n" << r.output;
  EXPECT_NE(r.output.find("pid (1, 0, 0) mask [ True  True  True  True]\npid (2, 0, 0) mask [ True  True False False]\n"),
            std::string::npos)
      << "print inside a kernel: every program\n" << r.output;
  EXPECT_NE(r.output.find("program [2]: offsets [ 8  9 10 11], mask [ True  True False False], values [18 19  0  0]"),
            std::string::npos)
      << "only the watched program reports\n" << r.output;
  EXPECT_EQ(r.output.find("program [1]:"), std::string::npos) << r.output;

  // Benchmarks at simulator sizes run and say that their times are simulated; the GPU-sized ones are
  // skipped, saying why and how to run them.
  EXPECT_NE(r.output.find("matmul, small sizes (simulated: CPU times, not GPU figures):\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("autotuned matmul, small sizes (simulated: CPU times, not GPU figures):\n"), std::string::npos) << r.output;
  EXPECT_EQ(count(r.output, "Skipped: this cell is tagged gpu-only"), 2u) << r.output;
  EXPECT_EQ(r.output.find("matmul on the GPU"), std::string::npos) << r.output;

  const nlohmann::json written = nlohmann::json::parse(readFile(out));
  int gpuOnly = 0, charts = 0;
  for (const auto& cell : written["cells"]) {
    if (cell["cell_type"] != "code") continue;
    if (tagged(cell, "gpu-only")) {
      ++gpuOnly;
      ASSERT_EQ(cell["outputs"].size(), 1u) << cell.dump();
      EXPECT_EQ(cell["outputs"][0]["name"], "stdout");
      EXPECT_EQ(cellText(cell).rfind("Skipped: this cell is tagged gpu-only", 0), 0u) << cellText(cell);
    }
    for (const auto& output : cell["outputs"])
      if (output.contains("data") && output["data"].contains("application/vnd.tilescope.benchmark+json")) {
        ++charts;
        EXPECT_EQ(output["data"]["application/vnd.tilescope.benchmark+json"]["simulated"], true);
        EXPECT_NE(output["data"]["text/plain"].get<std::string>().find("(simulated)"), std::string::npos);
      }
  }
  EXPECT_EQ(gpuOnly, 2);
  EXPECT_EQ(charts, 2);
  fs::remove(out);
}

TEST(ExampleNotebooks, HoldNoReplacementCharacters) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(TILESCOPE_SOURCE_DIR) / "examples")) {
    SCOPED_TRACE(entry.path().filename().string());
    ++files;
    EXPECT_EQ(readFile(entry.path()).find("\xEF\xBF\xBD"), std::string::npos) << "U+FFFD: text mangled on its way in";
  }
  EXPECT_GE(files, 3);
}

// The tour covers the practitioners' guide's ground in its own words and code: no line of the seed
// tutorials longer than API boilerplate appears in it. Reads the seeds at test time.
TEST(ExampleNotebooks, KernelTourSharesNoLineWithTheSeeds) {
  const fs::path seeds(TILESCOPE_SEEDS_DIR);
  if (!fs::is_directory(seeds)) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  const std::string tour = readFile(kTour);
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(seeds)) {
    if (entry.path().extension() != ".md") continue;
    std::istringstream lines(readFile(entry.path()));
    for (std::string line; std::getline(lines, line);) {
      const size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      line = line.substr(first);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
      if (line.size() < 40) continue;
      ++checked;
      // The notebook is JSON: quotes in its source lines are escaped.
      std::string escaped;
      for (char c : line) escaped += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\") : std::string(1, c);
      EXPECT_EQ(tour.find(escaped), std::string::npos) << entry.path().filename() << ": " << line;
    }
  }
  EXPECT_GT(checked, 100) << "the seeds were read";
}
