// The seed tutorials (../shared/seeds, read at test time) on embedded CPython with the built-in torch
// on the simulator: the vector add prints what the hand-written interpreter prints, and every code
// piece of both seeds, run in order as notebook cells, runs embedded wherever it runs on the
// hand-written interpreter.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/host/HostExecutor.h"
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

TEST(EmbeddedSeed, VectorAddPrintsWhatTheInterpreterPrints) {
  const std::optional<Block> block = seedBlock("triton-from-zero.md", "def add_kernel(");
  if (!block) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR << " (shared/seeds)";
  auto file = std::make_shared<tilescope::lang::SourceFile>("triton-from-zero.md", block->code, block->firstLine);

  PythonExecutor embedded;
  const auto run = runPython(embedded, block->code, "triton-from-zero.md", false, nullptr, block->firstLine);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;

  tilescope::host::HostExecutor interpreter;
  std::string expected;
  tilescope::host::ExecutionCallbacks callbacks;
  callbacks.stream = [&expected](const std::string& name, const std::string& text) {
    if (name == "stdout") expected += text;
  };
  ASSERT_EQ(interpreter.run(file, false, callbacks, nullptr).status, tilescope::host::ExecutionOutcome::Status::Ok)
      << interpreter.lastTraceback();
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(run.out, expected);
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
  tilescope::host::HostExecutor interpreter;
  interpreter.setStopOnOutOfBounds(false);
  PythonExecutor embedded;
  embedded.setStopOnOutOfBounds(false);
  int bothRun = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const auto& piece = pieces[i];
    const std::string cell = seed + "[" + std::to_string(i + 1) + "]";
    tilescope::host::ExecutionCallbacks quiet;
    const bool interpreted = interpreter.run(std::make_shared<tilescope::lang::SourceFile>(cell, piece.code, piece.firstLine),
                                             true, quiet, nullptr).status == tilescope::host::ExecutionOutcome::Status::Ok;
    const auto run = runPython(embedded, piece.code, cell, true, nullptr, piece.firstLine);
    std::printf("%s line %d: interpreter %s, embedded %s%s\n", seed.c_str(), piece.firstLine, interpreted ? "runs" : "stops",
                run.ok() ? "runs" : "stops: ", run.ok() ? "" : firstLine(run.outcome.errorName + ": " + run.outcome.errorValue).c_str());
    if (!interpreted || run.ok()) {
      bothRun += interpreted && run.ok();
      continue;
    }
    ADD_FAILURE() << seed << " line " << piece.firstLine << " runs on the interpreter but not embedded:\n"
                  << run.traceback << run.err;
  }
  std::printf("%s: %d of %zu pieces run on both\n", seed.c_str(), bothRun, pieces.size());
  EXPECT_GT(bothRun, 0);
}

}  // namespace

TEST(EmbeddedSeed, FromZeroRunsAsCellsWhereverTheInterpreterRunsIt) { runSeedAsCells("triton-from-zero.md"); }

TEST(EmbeddedSeed, PractitionersGuideRunsAsCellsWhereverTheInterpreterRunsIt) {
  runSeedAsCells("triton-practitioners-guide.md");
}
