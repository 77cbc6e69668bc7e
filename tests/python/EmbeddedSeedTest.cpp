// The seeds' vector add (../shared/seeds, read at test time) runs unmodified on embedded CPython with
// the built-in torch on the simulator, and prints what the hand-written interpreter prints.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/host/HostExecutor.h"
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
