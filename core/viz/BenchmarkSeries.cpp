#include "core/viz/BenchmarkSeries.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tilescope::viz {
using nlohmann::json;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double numberOr(const json& values, size_t i) {
  return values.is_array() && i < values.size() && values[i].is_number() ? values[i].get<double>() : kNaN;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string quoted(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string cell(double value) { return std::isnan(value) ? std::string() : exactNumber(value); }

// RFC 4180 fields of one record starting at `pos`; advances pos past the record's line break.
std::vector<std::string> readRecord(const std::string& csv, size_t& pos, int line) {
  std::vector<std::string> fields(1);
  bool inQuotes = false;
  while (pos < csv.size()) {
    const char c = csv[pos++];
    if (inQuotes) {
      if (c == '"' && pos < csv.size() && csv[pos] == '"') fields.back() += '"', ++pos;
      else if (c == '"') inQuotes = false;
      else fields.back() += c;
    } else if (c == '"') {
      inQuotes = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (inQuotes) throw std::runtime_error("benchmark CSV line " + std::to_string(line) + ": a quoted field is not closed");
  return fields;
}

double parseNumber(const std::string& text, int line, const char* column) {
  if (text.empty()) return kNaN;
  if (text == "nan") return kNaN;
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw std::runtime_error("benchmark CSV line " + std::to_string(line) + ": column " + column + " is not a number: '" + text + "'");
  return value;
}

const std::vector<std::string> kColumns = {"source", "plot_name", "simulated", "xlabel", "ylabel", "provider", "x", "y", "y_min", "y_max"};
}  // namespace

std::string exactNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

bool BenchmarkLine::hasBand() const {
  for (size_t i = 0; i < yMin.size() && i < yMax.size(); ++i)
    if (!std::isnan(yMin[i]) && !std::isnan(yMax[i])) return true;
  return false;
}

BenchmarkUnit benchmarkUnitOf(const std::string& ylabel) {
  const std::string label = lower(ylabel);
  if (label.find("gb/s") != std::string::npos || label.find("gbps") != std::string::npos) return BenchmarkUnit::GBps;
  if (label.find("tflop") != std::string::npos) return BenchmarkUnit::TFlops;
  if (label == "ms" || label.find("(ms)") != std::string::npos || label.find("time") != std::string::npos ||
      label.find("millisecond") != std::string::npos)
    return BenchmarkUnit::Milliseconds;
  return BenchmarkUnit::Other;
}

std::optional<BenchmarkResult> BenchmarkResult::fromJson(const json& spec, std::string source, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<BenchmarkResult> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (!spec.is_object()) return fail("the benchmark data is not a JSON object");
  const auto series = spec.find("series");
  if (series == spec.end() || !series->is_array() || series->empty()) return fail("the benchmark has no series");
  const auto xs = spec.find("x_vals");
  if (xs == spec.end() || !xs->is_array() || xs->empty()) return fail("the benchmark has no x values");
  auto text = [&](const char* key) {
    const auto it = spec.find(key);
    return it != spec.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto flag = [&](const char* key) {
    const auto it = spec.find(key);
    return it != spec.end() && it->is_boolean() && it->get<bool>();
  };
  BenchmarkResult r;
  r.source = std::move(source);
  r.plotName = text("plot_name");
  r.xLabel = text("xlabel");
  r.yLabel = text("ylabel");
  r.xLog = flag("x_log");
  r.yLog = flag("y_log");
  r.simulated = flag("simulated");
  for (size_t i = 0; i < xs->size(); ++i) {
    const json& v = (*xs)[i];
    r.x.push_back(v.is_number() ? v.get<double>() : static_cast<double>(i));
    r.xText.push_back(v.is_number() ? exactNumber(v.get<double>()) : v.is_string() ? v.get<std::string>() : v.dump());
  }
  int index = 0;
  for (const json& s : *series) {
    ++index;
    if (!s.is_object()) continue;
    BenchmarkLine line;
    const auto name = s.find("name");
    line.provider = name != s.end() && name->is_string() ? name->get<std::string>() : "series " + std::to_string(index);
    const json none = json::array();
    const json& y = s.contains("y") ? s["y"] : none;
    const json& lo = s.contains("y_min") ? s["y_min"] : none;
    const json& hi = s.contains("y_max") ? s["y_max"] : none;
    for (size_t i = 0; i < r.x.size(); ++i) {
      line.y.push_back(numberOr(y, i));
      line.yMin.push_back(numberOr(lo, i));
      line.yMax.push_back(numberOr(hi, i));
    }
    r.lines.push_back(std::move(line));
  }
  if (r.lines.empty()) return fail("the benchmark's series hold no lines");
  return r;
}

bool BenchmarkResult::textX() const {
  for (size_t i = 0; i < xText.size(); ++i)
    if (xText[i] != exactNumber(x[i])) return true;
  return false;
}

std::string BenchmarkResult::title() const {
  std::string t = plotName.empty() ? std::string("benchmark") : plotName;
  if (simulated) t += " (simulated)";
  if (!source.empty()) t += " - " + source;
  return t;
}

void BenchmarkCollection::remove(size_t index) {
  if (index < results_.size()) results_.erase(results_.begin() + static_cast<std::ptrdiff_t>(index));
}

std::string BenchmarkCollection::toCsv() const {
  std::string out;
  for (size_t c = 0; c < kColumns.size(); ++c) out += (c ? "," : "") + kColumns[c];
  out += "\n";
  for (const BenchmarkResult& r : results_)
    for (const BenchmarkLine& line : r.lines)
      for (size_t i = 0; i < r.x.size(); ++i) {
        out += quoted(r.source) + "," + quoted(r.plotName) + "," + (r.simulated ? "true" : "false") + "," + quoted(r.xLabel) + "," +
               quoted(r.yLabel) + "," + quoted(line.provider) + "," + quoted(r.xText[i]) + "," + cell(line.y[i]) + "," +
               cell(line.yMin[i]) + "," + cell(line.yMax[i]) + "\n";
      }
  return out;
}

BenchmarkCollection BenchmarkCollection::fromCsv(const std::string& csv) {
  size_t pos = 0;
  int lineNo = 1;
  if (readRecord(csv, pos, lineNo) != kColumns)
    throw std::runtime_error("benchmark CSV line 1: expected the header '" + std::string("source,plot_name,simulated,xlabel,ylabel,provider,x,y,y_min,y_max") + "'");
  BenchmarkCollection out;
  std::map<std::pair<std::string, std::string>, size_t> resultIndex;
  while (pos < csv.size()) {
    ++lineNo;
    const std::vector<std::string> f = readRecord(csv, pos, lineNo);
    if (f.size() == 1 && f[0].empty()) continue;  // blank line
    if (f.size() != kColumns.size())
      throw std::runtime_error("benchmark CSV line " + std::to_string(lineNo) + ": expected " + std::to_string(kColumns.size()) +
                               " fields, found " + std::to_string(f.size()));
    const auto key = std::make_pair(f[0], f[1]);
    auto [it, fresh] = resultIndex.emplace(key, out.results_.size());
    if (fresh) {
      BenchmarkResult r;
      r.source = f[0];
      r.plotName = f[1];
      r.simulated = f[2] == "true";
      r.xLabel = f[3];
      r.yLabel = f[4];
      out.results_.push_back(std::move(r));
    }
    BenchmarkResult& r = out.results_[it->second];
    auto xAt = std::find(r.xText.begin(), r.xText.end(), f[6]);
    size_t xi = static_cast<size_t>(xAt - r.xText.begin());
    if (xAt == r.xText.end()) {
      r.xText.push_back(f[6]);
      double x = static_cast<double>(xi);
      const auto [end, ec] = std::from_chars(f[6].data(), f[6].data() + f[6].size(), x);
      if (ec != std::errc() || end != f[6].data() + f[6].size()) x = static_cast<double>(xi);
      r.x.push_back(x);
      for (BenchmarkLine& l : r.lines) l.y.push_back(kNaN), l.yMin.push_back(kNaN), l.yMax.push_back(kNaN);
    }
    auto lineAt = std::find_if(r.lines.begin(), r.lines.end(), [&](const BenchmarkLine& l) { return l.provider == f[5]; });
    if (lineAt == r.lines.end()) {
      BenchmarkLine l;
      l.provider = f[5];
      l.y.assign(r.x.size(), kNaN), l.yMin.assign(r.x.size(), kNaN), l.yMax.assign(r.x.size(), kNaN);
      r.lines.push_back(std::move(l));
      lineAt = r.lines.end() - 1;
    }
    lineAt->y[xi] = parseNumber(f[7], lineNo, "y");
    lineAt->yMin[xi] = parseNumber(f[8], lineNo, "y_min");
    lineAt->yMax[xi] = parseNumber(f[9], lineNo, "y_max");
  }
  return out;
}

}  // namespace tilescope::viz
