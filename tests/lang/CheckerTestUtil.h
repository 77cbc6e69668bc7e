#pragma once
// Shared helpers of the checker tests: programs from inline source, programs from the seed
// tutorials (their ```python blocks plus the kernels the practitioners' guide has outside fences),
// golden-file comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "core/lang/Checker.h"
#include "core/lang/Parser.h"

namespace tilescope::lang::test {

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A program of one module parsed from `source` (named "k.py"); fails the test on syntax errors.
inline std::shared_ptr<Program> programFrom(const std::string& source, const std::string& name = "k.py") {
  auto program = std::make_shared<Program>();
  ParseResult parsed = parseModule(source, name);
  EXPECT_TRUE(parsed.ok()) << parsed.diagnostics.render();
  if (parsed.module) program->addModule(std::shared_ptr<const Module>(std::move(parsed.module)));
  return program;
}

// Code of a seed tutorial: every ```python block, and - outside the fences - every top-level
// decorated or plain `def` with its body (the guide's notebook export lost the fences around
// its later cells). Pieces keep their line numbers so diagnostics point into the .md file.
struct SeedPiece {
  int firstLine = 1;
  std::string code;
};

inline std::vector<SeedPiece> seedPieces(const std::string& markdown) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos <= markdown.size()) {
    size_t nl = markdown.find('\n', pos);
    if (nl == std::string::npos) nl = markdown.size();
    lines.push_back(markdown.substr(pos, nl - pos));
    pos = nl + 1;
  }
  std::vector<SeedPiece> pieces;
  auto indented = [](const std::string& l) { return !l.empty() && (l[0] == ' ' || l[0] == '\t'); };
  auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& l = lines[i];
    if (l.rfind("```python", 0) == 0) {
      SeedPiece p;
      p.firstLine = static_cast<int>(i) + 2;
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) p.code += lines[i] + "\n";
      pieces.push_back(std::move(p));
      ++i;
      continue;
    }
    if (l.rfind("```", 0) == 0) {  // another language: skip to its end
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) {
      }
      ++i;
      continue;
    }
    if (l.rfind("@triton.", 0) == 0 || l.rfind("def ", 0) == 0) {
      SeedPiece p;
      p.firstLine = static_cast<int>(i) + 1;
      int depth = 0;
      bool inDef = false, headerDone = false;
      for (; i < lines.size(); ++i) {
        const std::string& cur = lines[i];
        if (headerDone && !blank(cur) && !indented(cur)) break;
        p.code += cur + "\n";
        if (cur.rfind("def ", 0) == 0) inDef = true;
        for (char c : cur) {
          if (c == '#') break;
          if (c == '(' || c == '[' || c == '{') ++depth;
          if (c == ')' || c == ']' || c == '}') --depth;
        }
        if (inDef && depth == 0) headerDone = true;
      }
      pieces.push_back(std::move(p));
      continue;
    }
    ++i;
  }
  return pieces;
}

inline bool seedsAvailable() {
  namespace fs = std::filesystem;
  return fs::exists(fs::path(TILESCOPE_SEEDS_DIR) / "triton-from-zero.md") &&
         fs::exists(fs::path(TILESCOPE_SEEDS_DIR) / "triton-practitioners-guide.md");
}

// One Program per seed file, its pieces as cells in document order.
inline std::shared_ptr<Program> seedProgram(const std::string& fileName) {
  auto program = std::make_shared<Program>();
  const std::string md = readFile(std::filesystem::path(TILESCOPE_SEEDS_DIR) / fileName);
  for (const SeedPiece& piece : seedPieces(md)) {
    auto file = std::make_shared<SourceFile>(fileName, piece.code, piece.firstLine);
    ParseResult parsed = parseModule(file);
    EXPECT_TRUE(parsed.ok()) << fileName << ":" << piece.firstLine << "\n" << parsed.diagnostics.render();
    if (parsed.module) program->addModule(std::shared_ptr<const Module>(std::move(parsed.module)));
  }
  return program;
}

// Compares `actual` with tests/golden/<relative>; TILESCOPE_UPDATE_GOLDEN=1 rewrites the file.
inline void expectGolden(const std::string& relative, const std::string& actual) {
  namespace fs = std::filesystem;
  const fs::path path = fs::path(TILESCOPE_TEST_DATA_DIR) / "golden" / relative;
  const char* update = std::getenv("TILESCOPE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << "missing golden file " << path << " (run with TILESCOPE_UPDATE_GOLDEN=1)";
  EXPECT_EQ(readFile(path), actual) << "golden file " << path << " differs (TILESCOPE_UPDATE_GOLDEN=1 rewrites it)";
}

}  // namespace tilescope::lang::test
