// The seed tutorials (../shared/seeds, read at test time) on embedded CPython with the built-in torch
// on the simulator: the vector add prints its result and nothing on stderr, and every code piece of
// both seeds, run in order as notebook cells, runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/testing/SeedSources.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

struct Block {
  std::string code;
  int firstLine = 0;
};

// The first ```python block of the seed tutorial that defines `marker`.
std::optional<Block> seedBlock(const std::string& seed, const std::string& marker) {
  std::ifstream f(std::string(TILESCOPE_SEEDS_DIR) + "/" + seed);
  if (!f) return std::nullopt;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```python", 0) != 0) continue;
    Block b{"", static_cast<int>(i) + 2};
    size_t j = i + 1;
    for (; j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) b.code += lines[j] + "\n";
    if (b.code.find(marker) != std::string::npos) return b;
    i = j;
  }
  return std::nullopt;
}

}  // namespace

TEST(EmbeddedSeed, VectorAddPrintsItsCheck) {
  const std::optional<Block> block = seedBlock("triton-from-zero.md", "def add_kernel(");
  if (!block) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR << " (shared/seeds)";
  PythonExecutor embedded;
  const auto run = runPython(embedded, block->code, "triton-from-zero.md", false, nullptr, block->firstLine);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;

  // The seed's own check: the largest difference from torch, and its pass line.
  EXPECT_EQ(run.out, "\u6700\u5927\u8bef\u5dee: 0.0\n\u2713 \u6d4b\u8bd5\u901a\u8fc7!\n");
  EXPECT_EQ(run.err, "");
}

namespace {

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

void runSeedAsCells(const std::string& seed) {
  std::ifstream f(std::string(TILESCOPE_SEEDS_DIR) + "/" + seed);
  if (!f) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR << " (shared/seeds)";
  const std::string markdown((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::vector<tilescope::seeds::SeedPiece> pieces = tilescope::seeds::seedPieces(markdown);
  ASSERT_GT(pieces.size(), 5u);

  // As a notebook with {"tilescope": {"out_of_bounds": "warn"}}: the guide's unmasked matmuls read
  // past their inputs (docs/HOST_LANGUAGE.md, "Known differences").
  PythonExecutor embedded;
  embedded.setStopOnOutOfBounds(false);
  int ran = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto& piece = pieces[i];
    const std::string cell = seed + "[" + std::to_string(i + 1) + "]";
    const auto run = runPython(embedded, piece.code, cell, true, nullptr, piece.firstLine);
    std::printf("%s line %d: %s%s\n", seed.c_str(), piece.firstLine, run.ok() ? "runs" : "stops: ",
                run.ok() ? "" : firstLine(run.outcome.errorName + ": " + run.outcome.errorValue).c_str());
    if (run.ok()) {
      ++ran;
      continue;
    }
    ADD_FAILURE() << seed << " line " << piece.firstLine << " does not run:\n" << run.traceback << run.err;
  }
  std::printf("%s: %d of %zu pieces run\n", seed.c_str(), ran, pieces.size());
  EXPECT_EQ(ran, static_cast<int>(pieces.size()));
}

}  // namespace

TEST(EmbeddedSeed, FromZeroRunsAsCells) { runSeedAsCells("triton-from-zero.md"); }

TEST(EmbeddedSeed, PractitionersGuideRunsAsCells) {
  runSeedAsCells("triton-practitioners-guide.md");
}
