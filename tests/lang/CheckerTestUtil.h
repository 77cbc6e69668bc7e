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

#include "core/kernel/Checker.h"
#include "core/syntax/Parser.h"
#include "tests/GoldenFile.h"
#include "core/testing/SeedSources.h"

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

inline bool seedsAvailable() {
  namespace fs = std::filesystem;
  return fs::exists(fs::path(TILESCOPE_SEEDS_DIR) / "triton-from-zero.md") &&
         fs::exists(fs::path(TILESCOPE_SEEDS_DIR) / "triton-practitioners-guide.md");
}

// One Program per seed file, its pieces as cells in document order.
inline std::shared_ptr<Program> seedProgram(const std::string& fileName) {
  auto program = std::make_shared<Program>();
  const std::string md = readFile(std::filesystem::path(TILESCOPE_SEEDS_DIR) / fileName);
  for (const tilescope::seeds::SeedPiece& piece : tilescope::seeds::seedPieces(md)) {
    auto file = std::make_shared<SourceFile>(fileName, piece.code, piece.firstLine);
    ParseResult parsed = parseModule(file);
    EXPECT_TRUE(parsed.ok()) << fileName << ":" << piece.firstLine << "\n" << parsed.diagnostics.render();
    if (parsed.module) program->addModule(std::shared_ptr<const Module>(std::move(parsed.module)));
  }
  return program;
}

// Compares `actual` with tests/golden/<relative> (tests/GoldenFile.h: TILESCOPE_UPDATE_GOLDEN=1
// rewrites a differing file and marks the test skipped, naming it).
inline void expectGolden(const std::string& relative, const std::string& actual) {
  tilescope::golden::expectGolden(relative, actual);
}

}  // namespace tilescope::lang::test
