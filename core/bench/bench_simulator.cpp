// Simulator benchmarks (Google Benchmark). Targets on the 2-core dev machine, Release build, are
// recorded in docs/PERFORMANCE.md: vector add of 4,194,304 fp32 elements (BLOCK=1024) < 61 ms,
// 256x256x256 fp32 matmul with 32x32x32 blocks < 10 ms, rgb2grey of a 150x225 uint8 image with
// 32x32 blocks < 3 ms, each untraced; traced runs at most 3x their untraced time.
// Each benchmark runs with tracing off (trace:0) and on (trace:1, default trace options), on all
// cores (threads:0) and on one (threads:1, the work itself, less sensitive to other load).
// The kernels are core/testing/SampleKernels.h's (vector add, tiled matmul, image to grey; IR built by hand).
#include <benchmark/benchmark.h>

#include <random>

#include "core/sim/Simulator.h"
#include "core/testing/SampleKernels.h"

namespace {

using namespace tilescope;
using namespace tilescope::sim;

std::vector<double> randomFloats(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = d(rng);
  return v;
}

void runLaunches(benchmark::State& state, Simulator& sim, const ir::Kernel& k, const Grid& grid,
                 const std::vector<LaunchArg>& args) {
  LaunchOptions o;
  o.trace = state.range(0) != 0;
  o.numThreads = static_cast<int>(state.range(1));  // 0: all cores
  for (auto _ : state) {
    LaunchResult r = sim.launch(k, grid, args, o);
    if (!r.ok()) {
      state.SkipWithError(r.diagnostics.render().c_str());
      return;
    }
    benchmark::DoNotOptimize(r.programsRun);
  }
}

void BM_VectorAdd(benchmark::State& state) {
  const int64_t n = 4'194'304, block = 1024;
  Memory mem;
  const int x = mem.createFromDoubles("x", ir::DType::FP32, {n}, randomFloats(n, 1));
  const int y = mem.createFromDoubles("y", ir::DType::FP32, {n}, randomFloats(n, 2));
  const int out = mem.create("output", ir::DType::FP32, {n}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto k = testing::addKernel(block);
  runLaunches(state, sim, *k, Grid{n / block},
              {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::tensor(out), LaunchArg::integer(n)});
}

void BM_MatmulFp32(benchmark::State& state) {
  const int64_t m = 256, n = 256, k = 256, b = 32;
  Memory mem;
  const int a = mem.createFromDoubles("a", ir::DType::FP32, {m, k}, randomFloats(m * k, 3));
  const int bb = mem.createFromDoubles("b", ir::DType::FP32, {k, n}, randomFloats(k * n, 4));
  const int c = mem.create("c", ir::DType::FP32, {m, n}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto kernel = testing::matmulKernel(b, b, b, ir::DType::FP32, ir::DType::FP32, ir::InputPrecision::IEEE);
  runLaunches(state, sim, *kernel, Grid{m / b, n / b},
              {LaunchArg::tensor(a), LaunchArg::tensor(bb), LaunchArg::tensor(c), LaunchArg::integer(m),
               LaunchArg::integer(n), LaunchArg::integer(k), LaunchArg::integer(k), LaunchArg::integer(1),
               LaunchArg::integer(n), LaunchArg::integer(1), LaunchArg::integer(n), LaunchArg::integer(1)});
}

void BM_Rgb2Grey(benchmark::State& state) {
  const int64_t h = 150, w = 225, bs = 32;
  Memory mem;
  std::mt19937 rng(5);
  std::vector<int64_t> img(static_cast<size_t>(3 * h * w));
  for (int64_t& v : img) v = static_cast<int64_t>(rng() % 256);
  const int x = mem.createFromInts("img", ir::DType::U8, {3, h, w}, img);
  const int out = mem.create("out", ir::DType::U8, {h, w}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto k = testing::rgb2greyKernel(bs, bs);
  runLaunches(state, sim, *k, Grid{(h + bs - 1) / bs, (w + bs - 1) / bs},
              {LaunchArg::tensor(x), LaunchArg::tensor(out), LaunchArg::integer(h), LaunchArg::integer(w)});
}

BENCHMARK(BM_VectorAdd)->ArgNames({"trace", "threads"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MatmulFp32)->ArgNames({"trace", "threads"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Rgb2Grey)->ArgNames({"trace", "threads"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
