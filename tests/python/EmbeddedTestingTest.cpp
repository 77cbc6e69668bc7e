// triton.testing and kernel.cache on embedded CPython: do_bench's figures, perf_report's table, CSV and
// benchmark output (the series the GUI's charts read), assert_close, and kernel.cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/python/BenchmarkRunner.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A benchmark whose figures do not depend on timing: its table and CSV are known.
std::string benchmarkCode(const std::string& saveDir) {
  return "import triton\n"
         "import triton.testing\n"
         "@triton.testing.perf_report(triton.testing.Benchmark(x_names=['size'], x_vals=[2**i for i in range(4, 8)],\n"
         "    line_arg='provider', line_vals=['a', 'b'], line_names=['A', 'B'], styles=[('blue', '-'), ('green', '--')],\n"
         "    ylabel='GB/s', plot_name='demo-plot', args={'scale': 0.5}))\n"
         "def bench(size, provider, scale):\n"
         "    v = size * scale if provider == 'a' else size / 3\n"
         "    return v, v * 0.9, v * 1.1\n"
         "bench.run(print_data=True, save_path='" + saveDir + "')\n";
}

}  // namespace

TEST(EmbeddedTesting, PerfReportGivesPandasTableCsvAndBenchmarkOutput) {
  const auto dir = std::filesystem::temp_directory_path() / ("tilescope-embedded-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  PythonExecutor embedded;
  const auto run = runPython(embedded, benchmarkCode((dir / "embedded").string()), "bench.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out,
            "demo-plot (simulated: CPU times, not GPU figures):\n"
            "    size     A          B\n"
            "0   16.0   8.0   5.333333\n"
            "1   32.0  16.0  10.666667\n"
            "2   64.0  32.0  21.333333\n"
            "3  128.0  64.0  42.666667\n");
  EXPECT_NE(run.out.find("demo-plot (simulated: CPU times, not GPU figures):"), std::string::npos) << run.out;
  ASSERT_EQ(run.displays.size(), 1u);
  const auto& series = run.displays[0].data.at(tilescope::host::kBenchmarkMimeType);
  EXPECT_EQ(series.at("series").size(), 2u);
  EXPECT_TRUE(series.at("simulated").get<bool>());
  const std::string csv = readFile(dir / "embedded" / "demo-plot.csv");
  EXPECT_FALSE(csv.empty());
  EXPECT_EQ(csv,
            "size,A,B\n16.000000,8.000000,5.333333\n32.000000,16.000000,10.666667\n64.000000,32.000000,21.333333\n"
            "128.000000,64.000000,42.666667\n");
  std::filesystem::remove_all(dir);
}

TEST(EmbeddedTesting, DoBenchTimesALaunchInMillisecondsWithQuantilesAndModes) {
  PythonExecutor embedded;
  const auto run = runPython(embedded,
                             "import torch, triton\n"
                             "import triton.language as tl\n"
                             "@triton.jit\n"
                             "def fill(p, B: tl.constexpr):\n"
                             "    tl.store(p + tl.arange(0, B), 1.0)\n"
                             "x = torch.zeros(64)\n"
                             "calls = []\n"
                             "def f():\n"
                             "    calls.append(1)\n"
                             "    fill[(1,)](x, B=64)\n"
                             "ms = triton.testing.do_bench(f, warmup=1, rep=5)\n"
                             "q = triton.testing.do_bench(f, warmup=1, rep=5, quantiles=[0.5, 0.2, 0.8])\n"
                             "every = triton.testing.do_bench(f, warmup=1, rep=5, return_mode='all')\n"
                             "print(type(ms).__name__, ms > 0, len(q), q[1] <= q[0] <= q[2], every == sorted(every), len(calls) > 6)\n"
                             "print(x.sum().item())\n"
                             "try:\n"
                             "    triton.testing.do_bench(f, return_mode='typical')\n"
                             "except ValueError as e:\n"
                             "    print(e)\n",
                             "bench.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out,
            "float True 3 True True True\n64.0\n"
            "return_mode must be one of 'min', 'max', 'mean', 'median', 'all', not 'typical'\n");
}

// On the simulator do_bench skips Triton's estimate and warm-up calls: after the first call it times
// calls until they add up to `rep`, and a first call longer than `rep` is the only one. Triton's
// scheme would make 1 + 4 + 1 + 1 = 7 calls of a 30 ms function at rep=50.
TEST(EmbeddedTesting, DoBenchOnTheSimulatorStopsOnceRepIsSpent) {
  PythonExecutor embedded;
  const auto run = runPython(embedded,
                             "import time, triton\n"
                             "calls = []\n"
                             "def slow():\n"
                             "    calls.append(1)\n"
                             "    time.sleep(0.03)\n"
                             "ms = triton.testing.do_bench(slow, rep=50)\n"
                             "print(1 <= len(calls) <= 4, ms >= 30)\n"
                             "calls.clear()\n"
                             "def slower():\n"
                             "    calls.append(1)\n"
                             "    time.sleep(0.06)\n"
                             "triton.testing.do_bench(slower, rep=50)\n"
                             "print(len(calls))\n",
                             "bench.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out, "True True\n1\n");
}

// A call much shorter than `rep` (a sweep's small sizes) is timed ten times on the simulator, not
// until `rep` is spent: the first call and SIMULATED_SAMPLES more.
TEST(EmbeddedTesting, DoBenchOnTheSimulatorTimesAtMostTenCalls) {
  PythonExecutor embedded;
  const auto run = runPython(embedded,
                             "import triton\n"
                             "calls = []\n"
                             "def quick():\n"
                             "    calls.append(1)\n"
                             "q = triton.testing.do_bench(quick, rep=1000, quantiles=[0.5, 0.2, 0.8])\n"
                             "print(len(calls), triton.testing.SIMULATED_SAMPLES, q[1] <= q[0] <= q[2])\n",
                             "bench.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback << run.err;
  EXPECT_EQ(run.out, "11 10 True\n");
}

TEST(EmbeddedTesting, AssertCloseUsesTritonsTolerance) {
  PythonExecutor embedded;
  EXPECT_TRUE(runPython(embedded, "import torch, triton.testing\n"
                                  "triton.testing.assert_close(torch.ones(3), torch.ones(3) + 0.005)\n")
                  .ok());
  const auto far = runPython(embedded, "triton.testing.assert_close(torch.ones(3), torch.ones(3) + 0.5, err_msg='far: ')\n");
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.outcome.errorName, "AssertionError");
  EXPECT_EQ(far.outcome.errorValue.rfind("far: ", 0), 0u) << far.outcome.errorValue;
}

TEST(EmbeddedTesting, KernelCacheListsTheCheckedSpecializations) {
  const std::string code =
      "import torch, triton\n"
      "import triton.language as tl\n"
      "@triton.jit\n"
      "def fill(p, n, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(p + offs, 1.0, mask=offs < n)\n"
      "print(fill.cache)\n"
      "fill[(1,)](torch.zeros(64), 64, B=64)\n"
      "fill[(1,)](torch.zeros(8), 5, B=8)\n"
      "print(fill.cache)\n";
  PythonExecutor embedded;
  const auto run = runPython(embedded, code, "cache.py", false);
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out,
            "{0: {}}\n{0: {'fill[*fp32:16,i32,B=8]': '<checked kernel fill>', "
            "'fill[*fp32:16,i32:16,B=64]': '<checked kernel fill>'}}\n");
  EXPECT_NE(run.out.find("{0: {}}\n{0: {'fill["), std::string::npos) << run.out;
}
