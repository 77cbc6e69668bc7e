#include "core/host/BenchmarkRunner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <tuple>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/host/Containers.h"
#include "core/host/ExecutionBackend.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/tensor/TensorCompare.h"
#include "core/host/TorchConvert.h"

namespace tilescope::host {

namespace {

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One sample of fn. On the GPU backend: the L2 cache is flushed first, and the sample is the device
// time of the GPU work the call issued (CUDA events around each kernel, cuBLAS call and RawKernel),
// as triton.testing.do_bench measures it; host-side interpretation between launches is not counted
// (in Triton it overlaps the asynchronous GPU work). A call that issued no GPU work - a host-only
// torch op - is timed by the host clock.
double timeCall(Interpreter& in, const Value& fn) {
  if (gpu::GpuRuntime* rt = backendOf(in).gpuRuntime()) {
    const double start = nowMs();
    double deviceMs = 0;
    int operations = 0;
    try {
      std::tie(deviceMs, operations) = rt->timeDeviceWork([&] { in.call(fn, ValueList{}); });
    } catch (const gpu::GpuError& e) {
      throw PyError("RuntimeError", e.what());
    }
    if (operations > 0) return deviceMs;
    if (in.noteOnce("do_bench-host-time"))
      in.writeStderr("note: do_bench timed a call that ran no GPU work by the host clock: on the GPU backend, torch "
                     "ops other than matmul run on the host CPU, so such lines (often 'torch') measure the CPU\n");
    return nowMs() - start;
  }
  const double start = nowMs();
  in.call(fn, ValueList{});
  return nowMs() - start;
}

// torch.quantile's linear interpolation.
double quantile(std::vector<double> sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

Value doBench(Interpreter& in, ValueList& a) {
  const double warmup = in.toFloat(a[1], "warmup");
  const double rep = in.toFloat(a[2], "rep");
  std::vector<double> times = BenchmarkRunner::sample(in, a[0], warmup, rep);
  std::sort(times.begin(), times.end());
  if (!a[4].isNone()) {
    ValueList out;
    for (const Value& q : in.toList(a[4])) out.push_back(Value::real(quantile(times, in.toFloat(q, "quantiles"))));
    if (out.size() == 1) return out[0];
    return makeList(std::move(out));
  }
  const std::string mode = in.str(a[6]);
  if (mode == "min") return Value::real(times.front());
  if (mode == "max") return Value::real(times.back());
  if (mode == "median") return Value::real(quantile(times, 0.5));
  if (mode == "all") {
    ValueList out;
    for (double t : times) out.push_back(Value::real(t));
    return makeList(std::move(out));
  }
  if (mode != "mean") throwValueError("return_mode must be one of 'min', 'max', 'mean', 'median', 'all', not " + pythonStrRepr(mode));
  return Value::real(std::accumulate(times.begin(), times.end(), 0.0) / static_cast<double>(times.size()));
}

// triton.testing.Benchmark(...): keeps its arguments as attributes.
Value makeBenchmark(Interpreter& in, ValueList& a, const Signature& sig) {
  auto b = std::make_shared<NamespaceObject>("Benchmark", "Benchmark");
  for (size_t i = 0; i < a.size(); ++i) b->attrs[sig.params()[i].name] = a[i];
  (void)in;
  return Value(b);
}

Value attr(const Value& ns, const std::string& name) {
  auto& attrs = ns.as<NamespaceObject>()->attrs;
  auto it = attrs.find(name);
  return it == attrs.end() ? Value() : it->second;
}

std::string csvCell(Interpreter& in, const Value& v) {
  if (v.isNumber()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v.asFloat());
    return buf;
  }
  return in.str(v);
}

// Mark._run for one Benchmark.
void runBenchmark(Interpreter& in, const Value& fn, const Value& bench, bool printData, const std::string& savePath) {
  std::vector<std::string> xNames;
  for (const Value& n : in.toList(attr(bench, "x_names"))) xNames.push_back(in.str(n));
  std::vector<std::string> lineNames;
  for (const Value& n : in.toList(attr(bench, "line_names"))) lineNames.push_back(in.str(n));
  const ValueList lineVals = in.toList(attr(bench, "line_vals"));
  const std::string lineArg = in.str(attr(bench, "line_arg"));
  const Value extraArgs = attr(bench, "args");
  const std::string plotName = attr(bench, "plot_name").isNone() ? "" : in.str(attr(bench, "plot_name"));
  if (lineNames.size() != lineVals.size()) throwValueError("Benchmark: line_names and line_vals must have the same length");

  std::vector<std::vector<Value>> rows;
  nlohmann::json series = nlohmann::json::array();
  for (size_t l = 0; l < lineNames.size(); ++l) series.push_back({{"name", lineNames[l]}, {"y", nlohmann::json::array()},
                                                                   {"y_min", nlohmann::json::array()}, {"y_max", nlohmann::json::array()}});
  nlohmann::json xValues = nlohmann::json::array();
  for (const Value& x : in.toList(attr(bench, "x_vals"))) {
    ValueList xs = (x.is<ListObject>() || x.is<TupleObject>()) ? in.toList(x) : ValueList(xNames.size(), x);
    if (xs.size() != xNames.size()) throwValueError("Expected " + std::to_string(xNames.size()) + " values, got " + in.repr(x));
    std::vector<Value> row(xs.begin(), xs.end());
    xValues.push_back(xs[0].isNumber() ? nlohmann::json(xs[0].asFloat()) : nlohmann::json(in.str(xs[0])));
    for (size_t l = 0; l < lineVals.size(); ++l) {
      CallArgs call;
      for (size_t i = 0; i < xNames.size(); ++i) call.keywords.emplace_back(xNames[i], xs[i]);
      call.keywords.emplace_back(lineArg, lineVals[l]);
      if (auto* d = extraArgs.as<DictObject>())
        for (auto& [k, v] : d->entries()) call.keywords.emplace_back(in.str(k), v);
      const Value ret = in.call(fn, call);
      Value mean = ret, lo, hi;
      if (ret.is<TupleObject>() || ret.is<ListObject>()) {
        ValueList parts = in.toList(ret);
        if (parts.size() != 3) throwValueError("a benchmark function returns one value or (value, min, max)");
        mean = parts[0], lo = parts[1], hi = parts[2];
      }
      row.push_back(mean);
      auto num = [&](const Value& v) { return v.isNone() ? nlohmann::json(nullptr) : nlohmann::json(in.toFloat(v, "benchmark")); };
      series[l]["y"].push_back(num(mean));
      series[l]["y_min"].push_back(num(lo));
      series[l]["y_max"].push_back(num(hi));
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::string> columns = xNames;
  columns.insert(columns.end(), lineNames.begin(), lineNames.end());
  // Times taken on the simulator are the CPU's: say so wherever they are shown, so that nobody reads
  // them as GPU figures.
  const bool simulated = !backendOf(in).isGpu();
  if (printData)
    in.writeStdout(plotName + (simulated ? BenchmarkRunner::kSimulatedNote : "") + ":\n" + BenchmarkRunner::formatTable(columns, rows, in));
  if (!savePath.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(savePath, ec);
    const std::string path = (std::filesystem::path(savePath) / (plotName + ".csv")).string();
    std::ofstream csv(path);
    if (!csv) throw PyError("OSError", "cannot write " + path);
    for (size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << columns[c];
    csv << "\n";
    for (const auto& row : rows) {
      for (size_t c = 0; c < row.size(); ++c) csv << (c ? "," : "") << csvCell(in, row[c]);
      csv << "\n";
    }
  }
  RichOutput out;
  nlohmann::json styles = nlohmann::json::array();
  if (Value s = attr(bench, "styles"); !s.isNone())
    for (const Value& st : in.toList(s)) {
      nlohmann::json pair = nlohmann::json::array();
      for (const Value& part : in.toList(st)) pair.push_back(in.str(part));
      styles.push_back(pair);
    }
  auto str = [&](const char* name) { Value v = attr(bench, name); return v.isNone() ? std::string() : in.str(v); };
  out.data[kBenchmarkMimeType] = {{"plot_name", plotName},
                                 {"x_names", xNames},
                                 {"x_vals", xValues},
                                 {"x_log", in.truthy(attr(bench, "x_log"))},
                                 {"y_log", in.truthy(attr(bench, "y_log"))},
                                 {"xlabel", str("xlabel").empty() && !xNames.empty() ? xNames[0] : str("xlabel")},
                                 {"ylabel", str("ylabel")},
                                 {"line_names", lineNames},
                                 {"styles", styles},
                                 {"series", series},
                                 {"simulated", simulated}};
  out.data["text/plain"] = "<benchmark " + plotName + (simulated ? " (simulated)" : "") + ": " + std::to_string(rows.size()) +
                           " points x " + std::to_string(lineNames.size()) + " lines>";
  in.display(out);
}

class MarkObject : public Object {
public:
  std::string typeName() const override { return "Mark"; }
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override { return in.call(fn, args); }
  std::optional<Value> getAttr(Interpreter&, const std::string& name) override {
    if (name != "run") return std::nullopt;
    auto self = std::static_pointer_cast<MarkObject>(shared_from_this());
    return makeBuiltin("Mark.run", "show_plots=False, print_data=False, save_path='', return_df=False",
                       [self](Interpreter& in, ValueList& a) {
                         ValueList benches = self->benchmarks.is<ListObject>() || self->benchmarks.is<TupleObject>()
                                                 ? in.toList(self->benchmarks)
                                                 : ValueList{self->benchmarks};
                         for (const Value& b : benches) runBenchmark(in, self->fn, b, in.truthy(a[1]), in.str(a[2]));
                         return Value();
                       });
  }

  Value fn;
  Value benchmarks;
};

}  // namespace

std::vector<double> BenchmarkRunner::sample(Interpreter& in, const Value& fn, double warmupMs, double repMs) {
  const double first = timeCall(in, fn);
  if (first >= repMs) return {first};
  double estimate = first;
  for (int i = 0; i < 4; ++i) estimate += timeCall(in, fn);
  estimate /= 5.0;
  const int warmups = std::max(1, static_cast<int>(warmupMs / std::max(estimate, 1e-6)));
  const int reps = std::max(1, static_cast<int>(repMs / std::max(estimate, 1e-6)));
  for (int i = 0; i < std::min(warmups, 10000); ++i) in.call(fn, ValueList{});
  std::vector<double> times;
  for (int i = 0; i < std::min(reps, 100000); ++i) times.push_back(timeCall(in, fn));
  return times;
}

std::vector<std::string> BenchmarkRunner::formatFloatColumn(const std::vector<double>& values) {
  std::vector<std::string> out;
  for (double v : values) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    out.emplace_back(buf);
  }
  // pandas trims trailing zeros common to the whole column, keeping one decimal.
  while (true) {
    bool all = !out.empty();
    for (const std::string& s : out) {
      const size_t dot = s.find('.');
      if (dot == std::string::npos || s.back() != '0' || s.size() - dot <= 2) all = false;
    }
    if (!all) break;
    for (std::string& s : out) s.pop_back();
  }
  return out;
}

std::string BenchmarkRunner::formatTable(const std::vector<std::string>& columns, const std::vector<std::vector<Value>>& rows,
                                         Interpreter& in) {
  std::vector<std::vector<std::string>> cells(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    bool numeric = true;
    std::vector<double> nums;
    for (const auto& row : rows) {
      if (!row[c].isNumber()) numeric = false;
      else nums.push_back(row[c].asFloat());
    }
    if (numeric) {
      cells[c] = formatFloatColumn(nums);
    } else {
      for (const auto& row : rows) cells[c].push_back(row[c].isNone() ? "NaN" : in.str(row[c]));
    }
  }
  const size_t indexWidth = rows.empty() ? 0 : std::to_string(rows.size() - 1).size();
  std::vector<size_t> widths(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    widths[c] = columns[c].size();
    for (const std::string& s : cells[c]) widths[c] = std::max(widths[c], s.size());
  }
  auto pad = [](const std::string& s, size_t w, bool left) {
    const std::string fill(w > s.size() ? w - s.size() : 0, ' ');
    return left ? s + fill : fill + s;
  };
  std::string out = std::string(indexWidth, ' ');
  for (size_t c = 0; c < columns.size(); ++c) out += "  " + pad(columns[c], widths[c], false);
  out += "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += pad(std::to_string(r), indexWidth, true);
    for (size_t c = 0; c < columns.size(); ++c) out += "  " + pad(cells[c][r], widths[c], false);
    out += "\n";
  }
  return out;
}

Value testingModule(Interpreter&) {
  auto m = std::make_shared<NamespaceObject>("triton.testing");
  m->attrs["do_bench"] = makeBuiltin("triton.testing.do_bench",
                                     "fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, fast_flush=True, return_mode='mean'",
                                     doBench);
  const Signature benchSig = Signature::parse(
      "Benchmark", "x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel='', ylabel='', x_log=False, "
                   "y_log=False, styles=None, color=None");
  m->attrs["Benchmark"] = makeBuiltin("triton.testing.Benchmark", [benchSig](Interpreter& in, CallArgs& args) {
    ValueList a = benchSig.bind(in, args);
    return makeBenchmark(in, a, benchSig);
  });
  m->attrs["perf_report"] = makeBuiltin("triton.testing.perf_report", "benchmarks", [](Interpreter&, ValueList& a) {
    Value benchmarks = a[0];
    return makeBuiltin("perf_report", "fn", [benchmarks](Interpreter&, ValueList& b) {
      auto mark = std::make_shared<MarkObject>();
      mark->fn = b[0];
      mark->benchmarks = benchmarks;
      return Value(mark);
    });
  });
  m->attrs["assert_close"] = makeBuiltin("triton.testing.assert_close", "x, y, atol=None, rtol=None, err_msg=''",
                                         [](Interpreter& in, ValueList& a) {
                                           AssertCloseOptions o;
                                           o.atol = a[2].isNone() ? 1e-2 : in.toFloat(a[2], "atol");
                                           o.rtol = a[3].isNone() ? 0.0 : in.toFloat(a[3], "rtol");
                                           o.checkDtype = false;
                                           if (auto msg = assertCloseMessage(requireTensor(a[0], "x"), requireTensor(a[1], "y"), o))
                                             throw PyError("AssertionError", in.str(a[4]) + *msg);
                                           return Value();
                                         });
  return Value(m);
}

}  // namespace tilescope::host
