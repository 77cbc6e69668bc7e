#pragma once
// triton.testing: do_bench (wall-clock timing of a callable, Triton's warm-up/repeat scheme),
// perf_report / Benchmark and Mark.run, which prints the pandas-style table Triton prints, writes the
// CSV when save_path is given, and emits the series as an `application/vnd.tilescope.benchmark+json`
// display output for the GUI to plot. On the simulator both say "simulated".
#include <string>
#include <vector>

#include "core/host/Value.h"

namespace tilescope::host {

class Interpreter;

inline constexpr const char* kBenchmarkMimeType = "application/vnd.tilescope.benchmark+json";

// The module object of triton.testing.
Value testingModule(Interpreter& in);

class BenchmarkRunner {
public:
  // Follows the plot name in the printed table's title when kernels ran on the simulator.
  static constexpr const char* kSimulatedNote = " (simulated: CPU times, not GPU figures)";

  // Milliseconds per call of fn, like triton.testing.do_bench: one call to warm up and estimate, then
  // max(1, warmup/estimate) more warm-up calls and max(1, rep/estimate) timed calls. A first call
  // slower than `rep` (a big kernel on the simulator) is used as the only sample.
  static std::vector<double> sample(Interpreter& in, const Value& fn, double warmupMs, double repMs);

  // One table: column names and rows of already-formatted cells, as pandas' DataFrame.to_string().
  static std::string formatTable(const std::vector<std::string>& columns, const std::vector<std::vector<Value>>& rows,
                                 Interpreter& in);
  // Formats one float column like pandas (6 decimals, common trailing zeros trimmed).
  static std::vector<std::string> formatFloatColumn(const std::vector<double>& values);
};

}  // namespace tilescope::host
