// Every ```python block of the two seed tutorials must parse without a diagnostic; a few seed
// kernels are also compared against reviewed AST dumps in tests/golden/ast/.
// TILESCOPE_UPDATE_GOLDEN=1 rewrites a dump that differs and marks the test skipped, naming the file (tests/GoldenFile.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/syntax/AstPrinter.h"
#include "core/syntax/Parser.h"
#include "tests/GoldenFile.h"
#include "core/testing/SeedSources.h"

using namespace tilescope::lang;
namespace fs = std::filesystem;

namespace {

const char* const kSeedFiles[] = {"triton-from-zero.md", "triton-practitioners-guide.md"};

struct CodeBlock {
  std::string name;  // "triton-from-zero.md#2 (line 158)"
  std::string code;
  int firstLine = 1;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The body of each ```python fence. The markdown prose around them holds invalid UTF-8; the code
// blocks are read as bytes and passed on untouched.
std::vector<CodeBlock> pythonBlocks(const std::string& markdown, const std::string& fileName) {
  std::vector<CodeBlock> blocks;
  const std::string open = "```python\n";
  size_t pos = 0;
  while ((pos = markdown.find(open, pos)) != std::string::npos) {
    if (pos != 0 && markdown[pos - 1] != '\n') {  // only fences at the start of a line
      pos += open.size();
      continue;
    }
    const size_t begin = pos + open.size();
    size_t end = markdown.find("\n```", begin - 1);
    if (end == std::string::npos) end = markdown.size();
    CodeBlock block;
    block.firstLine = 1 + static_cast<int>(std::count(markdown.begin(), markdown.begin() + static_cast<long>(begin), '\n'));
    block.name = fileName + "#" + std::to_string(blocks.size()) + " (line " + std::to_string(block.firstLine) + ")";
    block.code = markdown.substr(begin, end + 1 - begin);
    blocks.push_back(std::move(block));
    pos = end + 4;
  }
  return blocks;
}

bool seedsAvailable(std::string* why) {
  for (const char* name : kSeedFiles) {
    if (!fs::exists(fs::path(TILESCOPE_SEEDS_DIR) / name)) {
      *why = std::string("seed tutorials not found in ") + TILESCOPE_SEEDS_DIR + " (missing " + name + ")";
      return false;
    }
  }
  return true;
}

std::vector<CodeBlock> seedBlocks(const char* fileName) {
  return pythonBlocks(readFile(fs::path(TILESCOPE_SEEDS_DIR) / fileName), fileName);
}

}  // namespace

TEST(SeedParse, EveryPythonBlockOfBothTutorialsParses) {
  std::string why;
  if (!seedsAvailable(&why)) GTEST_SKIP() << why;
  size_t total = 0;
  for (const char* fileName : kSeedFiles) {
    const std::vector<CodeBlock> blocks = seedBlocks(fileName);
    EXPECT_GE(blocks.size(), 10u) << fileName;
    for (const CodeBlock& block : blocks) {
      // Lines are reported as in the markdown file, so a failure points into the tutorial.
      auto file = std::make_shared<const SourceFile>(std::string(TILESCOPE_SEEDS_DIR) + "/" + fileName, block.code,
                                                     block.firstLine);
      const ParseResult r = parseModule(file);
      EXPECT_TRUE(r.ok()) << block.name << "\n" << r.diagnostics.render();
      EXPECT_TRUE(r.diagnostics.empty()) << block.name;
      if (r.module) {
        EXPECT_FALSE(r.module->body.empty()) << block.name;
      }
      ++total;
    }
  }
  EXPECT_EQ(total, 23u);  // 11 + 12 fenced blocks
}

// The second half of the practitioners' guide lost its code fences in the damaged copy; its
// functions, found outside the fences by core/testing/SeedSources.h, must parse as well.
TEST(SeedParse, UnfencedCodeOfTheGuideParses) {
  std::string why;
  if (!seedsAvailable(&why)) GTEST_SKIP() << why;
  const std::string markdown = readFile(fs::path(TILESCOPE_SEEDS_DIR) / "triton-practitioners-guide.md");
  std::vector<std::string> lines;
  for (size_t pos = 0; pos <= markdown.size();) {
    const size_t nl = std::min(markdown.find('\n', pos), markdown.size());
    lines.push_back(markdown.substr(pos, nl - pos));
    pos = nl + 1;
  }
  int unfenced = 0;
  for (const tilescope::seeds::SeedPiece& piece : tilescope::seeds::seedPieces(markdown)) {
    const bool fenced = piece.firstLine >= 2 && lines[static_cast<size_t>(piece.firstLine - 2)].rfind("```python", 0) == 0;
    if (fenced) continue;
    const std::string name = "triton-practitioners-guide.md (line " + std::to_string(piece.firstLine) + ")";
    const ParseResult r = parseModule(std::make_shared<const SourceFile>(name, piece.code, piece.firstLine));
    EXPECT_TRUE(r.ok()) << name << "\n" << r.diagnostics.render();
    ++unfenced;
  }
  EXPECT_GE(unfenced, 20);  // the functions of the unfenced cells in today's copy
}

TEST(SeedParse, SeedKernelsHaveTheExpectedShape) {
  std::string why;
  if (!seedsAvailable(&why)) GTEST_SKIP() << why;
  const std::vector<CodeBlock> blocks = seedBlocks("triton-from-zero.md");
  ASSERT_GT(blocks.size(), 5u);
  const ParseResult r = parseModule(blocks[5].code, "autotune");
  ASSERT_TRUE(r.ok());
  const auto* def = r.module->body[0]->as<FunctionDef>();
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->name, "matmul_kernel_autotune");
  ASSERT_EQ(def->decorators.size(), 2u);
  const auto* autotune = def->decorators[0]->as<Call>();
  ASSERT_NE(autotune, nullptr);
  const Keyword* configs = autotune->keyword("configs");
  ASSERT_NE(configs, nullptr);
  ASSERT_TRUE(configs->value->is<List>());
  EXPECT_EQ(configs->value->as<List>()->elements.size(), 8u);
  EXPECT_NE(autotune->keyword("key"), nullptr);
  EXPECT_EQ(def->params.params.size(), 15u);
  EXPECT_NE(def->docstring(), nullptr);
}

namespace {

struct GoldenCase {
  const char* seedFile;
  size_t block;
  const char* golden;
};

const GoldenCase kGoldens[] = {
    {"triton-from-zero.md", 2, "from_zero_add_kernel.txt"},
    {"triton-from-zero.md", 4, "from_zero_matmul_kernel.txt"},
    {"triton-from-zero.md", 8, "from_zero_fused_attention.txt"},
    {"triton-practitioners-guide.md", 0, "guide_host_utils.txt"},
    {"triton-practitioners-guide.md", 9, "guide_copy_k.txt"},
};

}  // namespace

TEST(SeedParse, GoldenAstDumps) {
  std::string why;
  if (!seedsAvailable(&why)) GTEST_SKIP() << why;
  for (const GoldenCase& g : kGoldens) {
    const std::vector<CodeBlock> blocks = seedBlocks(g.seedFile);
    ASSERT_LT(g.block, blocks.size()) << g.seedFile;
    const ParseResult r = parseModule(blocks[g.block].code, g.golden);
    ASSERT_TRUE(r.ok()) << r.diagnostics.render();
    tilescope::golden::expectGolden(std::string("ast/") + g.golden, printAst(*r.module), "AST dump of " + blocks[g.block].name);
  }
}
