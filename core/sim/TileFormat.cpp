#include "core/sim/TileFormat.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/ir/Numerics.h"

namespace tilescope::sim {

namespace {

std::string printfString(const char* fmt, int precision, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, precision, v);
  return buf;
}

bool readsBack(ir::DType t, const std::string& text, double v) {
  const double parsed = std::strtod(text.c_str(), nullptr);
  return roundToDType(t, parsed) == v;
}

// Fewest digits after the point (0..8) for which "%.{p}f" reads back as v in dtype t.
int fixedDigits(ir::DType t, double v) {
  for (int p = 0; p < 8; ++p)
    if (readsBack(t, printfString("%.*f", p, v), v)) return p;
  return 8;
}

// Fewest mantissa digits after the point (0..8) for "%.{p}e".
int sciDigits(ir::DType t, double v) {
  for (int p = 0; p < 8; ++p)
    if (readsBack(t, printfString("%.*e", p, v), v)) return p;
  return 8;
}

std::string nonFinite(double v) {
  if (std::isnan(v)) return "nan";
  return v < 0 ? "-inf" : "inf";
}

// NumPy prints the exponent with at least two digits ("e-05"), like printf.
std::string sciText(double v, int digits) {
  std::string s = printfString("%.*e", digits, v);
  if (digits == 0) {
    const size_t e = s.find('e');
    s.insert(e, ".");
  }
  return s;
}

std::string hexText(const Tile& t, int64_t i) {
  uint64_t bits = 0;
  if (t.hasFloatStorage()) {
    bits = floatToBits(t.dtype(), t.floats()[i]);
  } else if (t.isPointer()) {
    bits = static_cast<uint64_t>(t.ints()[i]);
  } else {
    bits = asUnsigned(t.dtype(), t.ints()[i]);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(bits));
  return buf;
}

// The element texts of the (possibly summarised) tile, before padding.
class ArrayFormatter {
public:
  ArrayFormatter(const Tile& t, const TileFormatOptions& o) : t_(t), o_(o) {
    summarise_ = t.numel() > o.threshold;
  }

  std::string run() {
    collect(0, 0);
    prepareFloatStyle();
    for (int64_t i : shown_) texts_.push_back(elementText(i));
    width_ = 0;
    for (const std::string& s : texts_) width_ = std::max(width_, s.size());
    next_ = 0;
    return block(0, 0);
  }

private:
  // Row-major stride of axis `axis`.
  int64_t stride(int axis) const {
    int64_t s = 1;
    for (int a = axis + 1; a < t_.rank(); ++a) s *= t_.shape()[a];
    return s;
  }

  std::vector<int64_t> indices(int axis) const {
    const int64_t n = t_.shape()[axis];
    std::vector<int64_t> out;
    if (summarise_ && n > 2 * o_.edgeItems) {
      for (int64_t i = 0; i < o_.edgeItems; ++i) out.push_back(i);
      out.push_back(-1);  // the "..." marker
      for (int64_t i = n - o_.edgeItems; i < n; ++i) out.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) out.push_back(i);
    }
    return out;
  }

  void collect(int axis, int64_t base) {
    if (axis == t_.rank()) {
      shown_.push_back(base);
      return;
    }
    for (int64_t i : indices(axis))
      if (i >= 0) collect(axis + 1, base + i * stride(axis));
  }

  void prepareFloatStyle() {
    if (!t_.hasFloatStorage() || o_.hex) return;
    double maxAbs = 0;
    double minAbs = INFINITY;
    for (int64_t i : shown_) {
      const double v = t_.floats()[i];
      if (!std::isfinite(v) || v == 0) continue;
      maxAbs = std::max(maxAbs, std::fabs(v));
      minAbs = std::min(minAbs, std::fabs(v));
    }
    scientific_ = maxAbs > 0 && (maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs / minAbs > 1e3);
    digits_ = 0;
    for (int64_t i : shown_) {
      const double v = t_.floats()[i];
      if (!std::isfinite(v)) continue;
      digits_ = std::max(digits_, scientific_ ? sciDigits(t_.dtype(), v) : fixedDigits(t_.dtype(), v));
    }
  }

  std::string elementText(int64_t i) const {
    if (o_.hex) return hexText(t_, i);
    if (t_.hasFloatStorage()) {
      const double v = t_.floats()[i];
      if (!std::isfinite(v)) return nonFinite(v);
      if (scientific_) return sciText(v, digits_);
      const int own = fixedDigits(t_.dtype(), v);
      std::string s = printfString("%.*f", own, v);
      if (own == 0) s += '.';
      // Right-pad the fraction to the common digit count: "2. " next to "1.5".
      s.append(static_cast<size_t>(digits_ - own), ' ');
      return s;
    }
    if (t_.dtype() == ir::DType::I1 && !t_.isPointer()) return t_.ints()[i] ? "True" : "False";
    if (!t_.isPointer() && ir::isUnsignedInt(t_.dtype())) return std::to_string(asUnsigned(t_.dtype(), t_.ints()[i]));
    return std::to_string(t_.ints()[i]);
  }

  std::string padded(const std::string& s) const {
    size_t w = width_;
    if (t_.dtype() == ir::DType::I1 && !t_.isPointer() && !o_.hex) w = std::max<size_t>(w, 5);
    return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
  }

  std::string block(int axis, int64_t base) {
    if (t_.rank() == 0) return padded(texts_[next_++]);
    std::string out = "[";
    const std::vector<int64_t> idx = indices(axis);
    const bool last = axis == t_.rank() - 1;
    const std::string sep = last ? " " : std::string(static_cast<size_t>(t_.rank() - axis - 1), '\n') +
                                             std::string(static_cast<size_t>(axis + 1), ' ');
    for (size_t k = 0; k < idx.size(); ++k) {
      if (k > 0) out += sep;
      if (idx[k] < 0) {
        out += "...";
        continue;
      }
      if (last) {
        out += padded(texts_[next_++]);
      } else {
        out += block(axis + 1, base + idx[k] * stride(axis));
      }
    }
    return out + "]";
  }

  const Tile& t_;
  const TileFormatOptions& o_;
  bool summarise_ = false;
  bool scientific_ = false;
  int digits_ = 0;
  std::vector<int64_t> shown_;
  std::vector<std::string> texts_;
  size_t width_ = 0;
  size_t next_ = 0;
};

}  // namespace

std::string formatFloatScalar(ir::DType t, double v) {
  if (!std::isfinite(v)) return nonFinite(v);
  // Python repr: the shortest digits that read back, positional for 1e-4 <= |v| < 1e16.
  int p = 1;
  std::string g;
  for (; p <= 17; ++p) {
    g = printfString("%.*e", p - 1, v);
    if (readsBack(t, g, v)) break;
  }
  const double a = std::fabs(v);
  if (v != 0 && (a < 1e-4 || a >= 1e16)) {
    // "1e-05", "1.5e+16": drop a bare ".0" mantissa like Python.
    std::string s = printfString("%.*e", p - 1, v);
    const size_t e = s.find('e');
    std::string mant = s.substr(0, e);
    if (mant.find('.') != std::string::npos) {
      while (mant.back() == '0') mant.pop_back();
      if (mant.back() == '.') mant.pop_back();
    }
    return mant + s.substr(e);
  }
  // Positional: enough fraction digits for p significant digits, trailing zeros trimmed, ".0" kept.
  const int exp10 = v == 0 ? 0 : static_cast<int>(std::floor(std::log10(a)));
  int frac = std::max(0, p - 1 - exp10);
  std::string s = printfString("%.*f", frac, v);
  if (!readsBack(t, s, v)) s = printfString("%.*f", frac + 1, v);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s += '0';
  } else {
    s += ".0";
  }
  return s;
}

std::string formatTile(const Tile& t, const TileFormatOptions& options) {
  if (t.isScalar()) {
    std::string s;
    if (options.hex) {
      s = hexText(t, 0);
    } else if (t.hasFloatStorage()) {
      s = options.scalarAsArray ? ArrayFormatter(t.reshaped({1}), options).run() : formatFloatScalar(t.dtype(), t.floats()[0]);
      if (options.scalarAsArray) return s;
    } else if (t.dtype() == ir::DType::I1 && !t.isPointer()) {
      s = t.ints()[0] ? "True" : "False";
    } else if (!t.isPointer() && ir::isUnsignedInt(t.dtype())) {
      s = std::to_string(asUnsigned(t.dtype(), t.ints()[0]));
    } else {
      s = std::to_string(t.ints()[0]);
    }
    return options.scalarAsArray ? "[" + s + "]" : s;
  }
  return ArrayFormatter(t, options).run();
}

}  // namespace tilescope::sim
