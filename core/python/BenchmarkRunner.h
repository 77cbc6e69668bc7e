#pragma once
// What triton.testing (resources/python/triton/testing.py) takes from the engine for its benchmark
// output: the MIME type of the series the GUI plots, the note on simulated figures, and pandas' float
// column format for the printed table. Timing itself is core/python's TestingBindings (time_call).
#include <string>
#include <vector>

namespace tilescope::host {

inline constexpr const char* kBenchmarkMimeType = "application/vnd.tilescope.benchmark+json";

class BenchmarkRunner {
public:
  // Follows the plot name in the printed table's title when kernels ran on the simulator.
  static constexpr const char* kSimulatedNote = " (simulated: CPU times, not GPU figures)";

  // Formats one float column like pandas (6 decimals, common trailing zeros trimmed).
  static std::vector<std::string> formatFloatColumn(const std::vector<double>& values);
};

}  // namespace tilescope::host
