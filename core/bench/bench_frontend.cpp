// Front-end speed: parsing and type-checking every kernel of both seed tutorials (target: checking
// all of them under 20 ms in total, docs/PERFORMANCE.md). checkAllKernels specialises each kernel
// as `tilescope-cli check` does: constexprs from the first autotune config or their defaults,
// pointer dtypes inferred.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "core/lang/Checker.h"
#include "core/lang/Parser.h"
#include "tests/SeedSources.h"

namespace {

using namespace tilescope;

const char* const kSeedFiles[] = {"triton-from-zero.md", "triton-practitioners-guide.md"};

std::string readSeed(const char* name) {
  std::ifstream in(std::filesystem::path(TILESCOPE_SEEDS_DIR) / name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Parses one seed into a program; empty when the file is missing or does not parse.
std::shared_ptr<lang::Program> parseSeed(const char* name, const std::string& markdown) {
  auto program = std::make_shared<lang::Program>();
  for (const seeds::SeedPiece& piece : seeds::seedPieces(markdown)) {
    auto file = std::make_shared<lang::SourceFile>(name, piece.code, piece.firstLine);
    lang::ParseResult parsed = lang::parseModule(file);
    if (!parsed.ok() || !parsed.module) return nullptr;
    program->addModule(std::shared_ptr<const lang::Module>(std::move(parsed.module)));
  }
  return program;
}

bool loadSeeds(benchmark::State& state, std::string (&texts)[2]) {
  for (int i = 0; i < 2; ++i) {
    texts[i] = readSeed(kSeedFiles[i]);
    if (texts[i].empty()) {
      state.SkipWithError((std::string("seed tutorial not found: ") + kSeedFiles[i]).c_str());
      return false;
    }
  }
  return true;
}

// Checking only: the programs are parsed once, outside the timed loop.
void BM_CheckAllSeedKernels(benchmark::State& state) {
  std::string texts[2];
  if (!loadSeeds(state, texts)) return;
  std::shared_ptr<lang::Program> programs[2] = {parseSeed(kSeedFiles[0], texts[0]), parseSeed(kSeedFiles[1], texts[1])};
  size_t kernels = 0;
  for (const auto& p : programs) {
    if (!p) {
      state.SkipWithError("a seed tutorial does not parse");
      return;
    }
    kernels += lang::kernelRoots(*p).size();
  }
  for (auto _ : state) {
    for (const auto& p : programs) {
      lang::DiagnosticList d = lang::checkAllKernels(*p, {});
      if (d.hasErrors()) {
        state.SkipWithError(d.render().c_str());
        return;
      }
      benchmark::DoNotOptimize(d);
    }
  }
  state.counters["kernels"] = static_cast<double>(kernels);
}

// Parsing the markdown's code pieces and checking every kernel, from text.
void BM_ParseAndCheckAllSeeds(benchmark::State& state) {
  std::string texts[2];
  if (!loadSeeds(state, texts)) return;
  for (auto _ : state) {
    for (int i = 0; i < 2; ++i) {
      auto program = parseSeed(kSeedFiles[i], texts[i]);
      if (!program) {
        state.SkipWithError("a seed tutorial does not parse");
        return;
      }
      lang::DiagnosticList d = lang::checkAllKernels(*program, {});
      benchmark::DoNotOptimize(d);
    }
  }
}

}  // namespace

BENCHMARK(BM_CheckAllSeedKernels)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndCheckAllSeeds)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
