#pragma once
// perf_report results gathered for the benchmark panel, without Qt: each result is one
// `triton.testing.perf_report(...).run()` output (the application/vnd.tilescope.benchmark+json
// display data, docs/HOST_LANGUAGE.md) with a label saying where it came from (cell, run,
// backend). A collection holds several so they can be overlaid or put side by side, and exports
// them as one long-format CSV whose numbers read back bit for bit (shortest round-trip form).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tilescope::viz {

// One provider's line. y, yMin and yMax have one entry per x value; NaN where there is no value
// (yMin/yMax are NaN when the benchmark returned a single number instead of quantiles).
struct BenchmarkLine {
  std::string provider;
  std::vector<double> y, yMin, yMax;
  bool hasBand() const;  // some point has both quantiles
};

// What the y values measure, read from the y label: drawn with the right axis title and the
// matching kind of ceiling (copy bandwidth for GB/s, peak FLOP/s for TFLOP/s).
enum class BenchmarkUnit { GBps, TFlops, Milliseconds, Other };
BenchmarkUnit benchmarkUnitOf(const std::string& ylabel);

struct BenchmarkResult {
  std::string source;     // where it came from, e.g. "cell 3, run 2"
  std::string plotName;
  std::string xLabel, yLabel;
  std::vector<double> x;          // numeric x values (the index when an x value is text)
  std::vector<std::string> xText; // every x value as written ("1024", "M=512")
  bool xLog = false, yLog = false;
  bool simulated = false;  // timed by the simulator: CPU times, not a GPU's
  std::vector<BenchmarkLine> lines;

  // The display data of one perf_report run; nullopt (and `error` says why) when it holds no series.
  static std::optional<BenchmarkResult> fromJson(const nlohmann::json& spec, std::string source, std::string* error = nullptr);
  bool textX() const;  // some x value is not a number
  // "plot_name (simulated) - source", as the panel's list and legends say it.
  std::string title() const;
};

class BenchmarkCollection {
public:
  void add(BenchmarkResult result) { results_.push_back(std::move(result)); }
  void remove(size_t index);
  void clear() { results_.clear(); }
  const std::vector<BenchmarkResult>& results() const { return results_; }
  size_t size() const { return results_.size(); }
  bool empty() const { return results_.empty(); }

  // Long format, one row per (result, provider, x):
  //   source,plot_name,simulated,xlabel,ylabel,provider,x,y,y_min,y_max
  // Numbers in their shortest exact form (std::to_chars), missing ones empty; text quoted as RFC 4180.
  std::string toCsv() const;
  // Reads toCsv's format back (results grouped by source and plot name, in order of appearance).
  // Throws std::runtime_error naming the line for malformed input.
  static BenchmarkCollection fromCsv(const std::string& csv);

private:
  std::vector<BenchmarkResult> results_;
};

// The shortest text that parses back to exactly `value` ("nan", "inf", "-inf" for non-finite).
std::string exactNumber(double value);

}  // namespace tilescope::viz
