// The benchmark panel's Qt-free model: perf_report display data read into results, and the CSV
// export that must read back bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/viz/BenchmarkSeries.h"

namespace tilescope::viz {
namespace {
using nlohmann::json;

// What BenchmarkRunner emits for a run with quantiles (docs/HOST_LANGUAGE.md), on the simulator.
json vectorAddSpec() {
  return json::parse(R"({
    "plot_name": "vector-add-performance", "x_names": ["size"], "x_vals": [4096.0, 8192.0, 16384.0],
    "x_log": true, "y_log": false, "xlabel": "size", "ylabel": "GB/s",
    "line_names": ["Triton", "Torch"], "styles": [["blue", "-"], ["green", "-"]],
    "series": [
      {"name": "Triton", "y": [0.1, 0.30000000000000004, 1e-300], "y_min": [0.05, 0.2, null], "y_max": [0.2, 0.4, null]},
      {"name": "Torch", "y": [0.123456789012345678, 2.5, 3.0], "y_min": [null, null, null], "y_max": [null, null, null]}
    ],
    "simulated": true})");
}

uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

TEST(BenchmarkSeries, ReadsTheDisplayDataOfAPerfReportRun) {
  std::string error;
  const auto r = BenchmarkResult::fromJson(vectorAddSpec(), "cell 2, run 1", &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->plotName, "vector-add-performance");
  EXPECT_TRUE(r->simulated);
  EXPECT_TRUE(r->xLog);
  EXPECT_EQ(r->x, (std::vector<double>{4096, 8192, 16384}));
  EXPECT_EQ(r->xText, (std::vector<std::string>{"4096", "8192", "16384"}));
  EXPECT_FALSE(r->textX());
  ASSERT_EQ(r->lines.size(), 2u);
  EXPECT_EQ(r->lines[0].provider, "Triton");
  EXPECT_TRUE(r->lines[0].hasBand());
  EXPECT_FALSE(r->lines[1].hasBand());
  EXPECT_TRUE(std::isnan(r->lines[0].yMin[2]));
  EXPECT_EQ(r->title(), "vector-add-performance (simulated) - cell 2, run 1");
  EXPECT_EQ(benchmarkUnitOf(r->yLabel), BenchmarkUnit::GBps);
}

TEST(BenchmarkSeries, AGpuRunIsNotLabelledSimulated) {
  json spec = vectorAddSpec();
  spec["simulated"] = false;
  EXPECT_EQ(BenchmarkResult::fromJson(spec, "cell 1")->title(), "vector-add-performance - cell 1");
  spec.erase("simulated");  // outputs saved before the flag existed
  EXPECT_FALSE(BenchmarkResult::fromJson(spec, "")->simulated);
}

TEST(BenchmarkSeries, RefusesDataWithoutSeriesAndSaysWhy) {
  std::string error;
  EXPECT_FALSE(BenchmarkResult::fromJson(json::parse(R"({"x_vals": [1], "series": []})"), "", &error));
  EXPECT_EQ(error, "the benchmark has no series");
  EXPECT_FALSE(BenchmarkResult::fromJson(json::parse(R"({"series": [{"name": "a", "y": [1]}]})"), "", &error));
  EXPECT_EQ(error, "the benchmark has no x values");
  EXPECT_FALSE(BenchmarkResult::fromJson(json::array(), "", &error));
}

TEST(BenchmarkSeries, TextXValuesKeepTheirNames) {
  const auto r = BenchmarkResult::fromJson(
      json::parse(R"({"x_vals": ["M=512", "M=1024"], "ylabel": "TFLOPS", "series": [{"name": "cuBLAS", "y": [1.5, 2.5]}]})"), "");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->textX());
  EXPECT_EQ(r->x, (std::vector<double>{0, 1}));
  EXPECT_EQ(r->xText[1], "M=1024");
  EXPECT_EQ(benchmarkUnitOf(r->yLabel), BenchmarkUnit::TFlops);
  EXPECT_EQ(benchmarkUnitOf("ms"), BenchmarkUnit::Milliseconds);
  EXPECT_EQ(benchmarkUnitOf("speedup"), BenchmarkUnit::Other);
}

TEST(BenchmarkSeries, CsvIsLongFormatWithShortestExactNumbers) {
  BenchmarkCollection c;
  c.add(*BenchmarkResult::fromJson(vectorAddSpec(), "cell 2, run 1"));
  const std::string csv = c.toCsv();
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "source,plot_name,simulated,xlabel,ylabel,provider,x,y,y_min,y_max");
  // The text needs quoting (a comma); 0.1+0.2 keeps all 17 digits; a missing quantile is empty.
  EXPECT_NE(csv.find("\"cell 2, run 1\",vector-add-performance,true,size,GB/s,Triton,8192,0.30000000000000004,0.2,0.4\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",Triton,16384,1e-300,,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",Torch,4096,0.12345678901234568,,\n"), std::string::npos) << csv;
}

TEST(BenchmarkSeries, CsvReadsBackBitForBit) {
  BenchmarkCollection c;
  c.add(*BenchmarkResult::fromJson(vectorAddSpec(), "cell 2, run 1"));
  json gpu = vectorAddSpec();
  gpu["simulated"] = false;
  gpu["plot_name"] = "with \"quotes\"\nand a newline";
  gpu["series"][0]["y"][0] = 5e-324;  // the smallest subnormal
  gpu["series"][1]["y"][2] = 1.7976931348623157e308;
  c.add(*BenchmarkResult::fromJson(gpu, "cell 4"));

  const BenchmarkCollection back = BenchmarkCollection::fromCsv(c.toCsv());
  ASSERT_EQ(back.size(), 2u);
  for (size_t r = 0; r < 2; ++r) {
    const BenchmarkResult& a = c.results()[r];
    const BenchmarkResult& b = back.results()[r];
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.plotName, b.plotName);
    EXPECT_EQ(a.simulated, b.simulated);
    EXPECT_EQ(a.yLabel, b.yLabel);
    EXPECT_EQ(a.xText, b.xText);
    EXPECT_EQ(a.x, b.x);
    ASSERT_EQ(a.lines.size(), b.lines.size());
    for (size_t l = 0; l < a.lines.size(); ++l) {
      EXPECT_EQ(a.lines[l].provider, b.lines[l].provider);
      for (size_t i = 0; i < a.x.size(); ++i) {
        EXPECT_EQ(bits(a.lines[l].y[i]), bits(b.lines[l].y[i])) << r << " " << l << " " << i;
        EXPECT_EQ(std::isnan(a.lines[l].yMin[i]), std::isnan(b.lines[l].yMin[i]));
        if (!std::isnan(a.lines[l].yMax[i])) {
          EXPECT_EQ(bits(a.lines[l].yMax[i]), bits(b.lines[l].yMax[i]));
        }
      }
    }
  }
  EXPECT_EQ(back.toCsv(), c.toCsv());
}

TEST(BenchmarkSeries, MalformedCsvNamesTheLine) {
  try {
    BenchmarkCollection::fromCsv("source,plot_name,simulated,xlabel,ylabel,provider,x,y,y_min,y_max\na,b,false,x,y,p,1,fast,,\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "benchmark CSV line 2: column y is not a number: 'fast'");
  }
  EXPECT_THROW(BenchmarkCollection::fromCsv("x,y\n1,2\n"), std::runtime_error);
}

TEST(BenchmarkSeries, RemovingAResultKeepsTheOthersInOrder) {
  BenchmarkCollection c;
  for (const char* source : {"a", "b", "c"}) c.add(*BenchmarkResult::fromJson(vectorAddSpec(), source));
  c.remove(1);
  c.remove(7);  // out of range: nothing
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.results()[0].source, "a");
  EXPECT_EQ(c.results()[1].source, "c");
}

}  // namespace
}  // namespace tilescope::viz
