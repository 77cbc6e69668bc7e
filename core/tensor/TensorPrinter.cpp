#include "core/tensor/TensorPrinter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/tensor/PythonFormat.h"

namespace tilescope::host {

namespace {

// torch/_tensor_str.py's _Formatter: decides int/fixed/scientific mode and the common column width
// from the values that will be shown.
class Formatter {
 public:
  Formatter(const std::vector<Scalar>& values, bool floating, const PrintOptions& options)
      : floating_(floating), precision_(options.precision) {
    if (!floating_) {
      for (const Scalar& v : values) maxWidth_ = std::max(maxWidth_, v.repr().size());
      return;
    }
    std::vector<double> finite;
    for (const Scalar& v : values) {
      const double d = v.toDouble();
      if (std::isfinite(d) && d != 0.0) finite.push_back(d);
    }
    if (!finite.empty()) {
      double lo = std::fabs(finite[0]), hi = lo;
      for (double d : finite) {
        lo = std::min(lo, std::fabs(d));
        hi = std::max(hi, std::fabs(d));
        if (d != std::ceil(d)) intMode_ = false;
      }
      const bool wide = hi / lo > 1000.0 || hi > 1.0e8;
      sciMode_ = intMode_ ? wide : (wide || lo < 1.0e-4);
      for (double d : finite) {
        size_t w;
        if (sciMode_) w = formatScientific(d, precision_).size();
        else if (intMode_) w = formatFixed(d, 0).size() + 1;  // room for the trailing "."
        else w = formatFixed(d, precision_).size();
        maxWidth_ = std::max(maxWidth_, w);
      }
    }
    if (options.sciMode) sciMode_ = *options.sciMode;
  }

  size_t width() const { return maxWidth_; }

  std::string format(const Scalar& v) const {
    std::string s;
    if (floating_) {
      const double d = v.toDouble();
      if (sciMode_) {
        s = formatScientific(d, precision_);
      } else if (intMode_) {
        s = formatFixed(d, 0);
        if (std::isfinite(d)) s += ".";
      } else {
        s = formatFixed(d, precision_);
      }
    } else {
      s = v.repr();
    }
    if (s.size() < maxWidth_) s.insert(0, maxWidth_ - s.size(), ' ');
    return s;
  }

 private:
  bool floating_;
  int precision_;
  bool intMode_ = true;
  bool sciMode_ = false;
  size_t maxWidth_ = 1;
};

class Printer {
 public:
  Printer(const PrintOptions& options, bool summarize) : o_(options), summarize_(summarize) {}

  // get_summarized_data: the values that will actually be printed.
  void collect(const Tensor& t, std::vector<Scalar>& out) const {
    if (t.dim() == 0) {
      out.push_back(t.item());
      return;
    }
    const int64_t n = t.shape()[0];
    const bool cut = summarize_ && n > 2 * o_.edgeitems;
    for (int64_t i = 0; i < n; ++i) {
      if (cut && i == o_.edgeitems) i = n - o_.edgeitems;
      if (t.dim() == 1) out.push_back(t.loadElement(t.storageOffset() + i * t.strides()[0]));
      else collect(t.select(0, i), out);
    }
  }

  std::string tensorStr(const Tensor& t, int64_t indent, const Formatter& f) const {
    if (t.dim() == 0) return f.format(t.item());
    const int64_t n = t.shape()[0];
    const bool cut = summarize_ && n > 2 * o_.edgeitems;
    if (t.dim() == 1) return vectorStr(t, indent, f, cut);
    std::vector<std::string> slices;
    for (int64_t i = 0; i < n; ++i) {
      if (cut && i == o_.edgeitems) {
        slices.push_back("...");
        i = n - o_.edgeitems;
      }
      slices.push_back(tensorStr(t.select(0, i), indent + 1, f));
    }
    const std::string sep = "," + std::string(static_cast<size_t>(t.dim() - 1), '\n') + std::string(static_cast<size_t>(indent + 1), ' ');
    return "[" + join(slices, sep) + "]";
  }

 private:
  std::string vectorStr(const Tensor& t, int64_t indent, const Formatter& f, bool cut) const {
    const auto elementLength = static_cast<double>(f.width() + 2);
    const int64_t perLine =
        std::max<int64_t>(1, static_cast<int64_t>(std::floor(static_cast<double>(o_.linewidth - indent) / elementLength)));
    std::vector<std::string> data;
    const int64_t n = t.shape()[0];
    for (int64_t i = 0; i < n; ++i) {
      if (cut && i == o_.edgeitems) {
        data.push_back(" ...");
        i = n - o_.edgeitems;
      }
      data.push_back(f.format(t.loadElement(t.storageOffset() + i * t.strides()[0])));
    }
    std::vector<std::string> lines;
    for (size_t i = 0; i < data.size(); i += static_cast<size_t>(perLine)) {
      const auto end = std::min(data.size(), i + static_cast<size_t>(perLine));
      lines.push_back(join(std::vector<std::string>(data.begin() + static_cast<std::ptrdiff_t>(i), data.begin() + static_cast<std::ptrdiff_t>(end)), ", "));
    }
    return "[" + join(lines, ",\n" + std::string(static_cast<size_t>(indent + 1), ' ')) + "]";
  }

  static std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i) out += sep;
      out += parts[i];
    }
    return out;
  }

  const PrintOptions& o_;
  bool summarize_;
};

// _add_suffixes: each suffix goes on the current line if it fits in linewidth, else on a new line.
std::string addSuffixes(const std::string& body, const std::vector<std::string>& suffixes, int64_t indent, int64_t linewidth) {
  std::string out = body;
  const size_t lastNewline = body.rfind('\n');
  auto lastLineLen = static_cast<int64_t>(body.size()) - (lastNewline == std::string::npos ? -1 : static_cast<int64_t>(lastNewline)) + 1;
  for (const std::string& suffix : suffixes) {
    const auto len = static_cast<int64_t>(suffix.size());
    if (lastLineLen + len + 2 > linewidth) {
      out += ",\n" + std::string(static_cast<size_t>(indent), ' ') + suffix;
      lastLineLen = indent + len;
    } else {
      out += ", " + suffix;
      lastLineLen += len + 2;
    }
  }
  return out + ")";
}

}  // namespace

std::string toString(const Tensor& t, const PrintOptions& options) {
  const std::string prefix = "tensor(";
  const auto indent = static_cast<int64_t>(prefix.size());
  std::vector<std::string> suffixes;
  if (t.device().isCuda()) suffixes.push_back("device='" + t.device().str() + "'");
  std::string body;
  const DType dtype = t.dtype();
  if (t.numel() == 0) {
    if (t.dim() != 1) suffixes.push_back("size=" + pythonTupleRepr(t.shape()));
    if (dtype != kDefaultFloat) suffixes.push_back("dtype=" + torchDTypeName(dtype));
    body = "[]";
  } else {
    if (dtype != kDefaultFloat && dtype != DType::I64 && dtype != DType::I1) suffixes.push_back("dtype=" + torchDTypeName(dtype));
    const bool summarize = t.numel() > options.threshold;
    const Printer printer(options, summarize);
    std::vector<Scalar> shown;
    printer.collect(t, shown);
    const Formatter formatter(shown, isFloatingType(dtype), options);
    body = printer.tensorStr(t, indent, formatter);
  }
  return addSuffixes(prefix + body, suffixes, indent, options.linewidth);
}

}  // namespace tilescope::host
