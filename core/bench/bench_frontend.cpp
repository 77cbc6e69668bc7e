// Front-end speed: parsing and type-checking every kernel of both seed tutorials (target: checking
// all of them under 20 ms in total, docs/PERFORMANCE.md). checkAllKernels specialises each kernel
// as `tilescope-cli check` does: constexprs from the first autotune config or their defaults,
// pointer dtypes inferred.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "core/testing/SeedPrograms.h"
#include "core/kernel/Checker.h"

namespace {

using namespace tilescope;
using bench::parseSeed;
using bench::readSeed;

const char* const kSeedFiles[] = {"triton-from-zero.md", "triton-practitioners-guide.md"};

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
