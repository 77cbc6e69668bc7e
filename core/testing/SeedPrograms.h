#pragma once
// The seed tutorials (TILESCOPE_SEEDS_DIR) read and parsed for the benchmark programs.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "core/syntax/Parser.h"
#include "core/kernel/Program.h"
#include "core/testing/SeedSources.h"

namespace tilescope::bench {

// The file's text; empty when it is missing.
inline std::string readSeed(const char* name) {
  std::ifstream in(std::filesystem::path(TILESCOPE_SEEDS_DIR) / name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The seed's code pieces as one program; null when a piece does not parse.
inline std::shared_ptr<lang::Program> parseSeed(const char* name, const std::string& markdown) {
  auto program = std::make_shared<lang::Program>();
  for (const seeds::SeedPiece& piece : seeds::seedPieces(markdown)) {
    auto file = std::make_shared<lang::SourceFile>(name, piece.code, piece.firstLine);
    lang::ParseResult parsed = lang::parseModule(file);
    if (!parsed.ok() || !parsed.module) return nullptr;
    program->addModule(std::shared_ptr<const lang::Module>(std::move(parsed.module)));
  }
  return program;
}

}  // namespace tilescope::bench
