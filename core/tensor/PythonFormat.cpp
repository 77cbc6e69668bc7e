#include "core/tensor/PythonFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace tilescope::host {

namespace {

// Python spells non-finite values without a sign for NaN.
bool nonFinite(double v, std::string& out) {
  if (std::isnan(v)) {
    out = "nan";
    return true;
  }
  if (std::isinf(v)) {
    out = v < 0 ? "-inf" : "inf";
    return true;
  }
  return false;
}

}  // namespace

std::string pythonFloatRepr(double value) {
  std::string special;
  if (nonFinite(value, special)) return special;
  if (value == 0.0) return std::signbit(value) ? "-0.0" : "0.0";

  // Shortest round-trip digits in scientific form, e.g. "1.2345e-05"; then re-lay them out as Python.
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  const std::string sci(buf, res.ptr);
  const bool negative = sci[0] == '-';
  const size_t ePos = sci.find('e');
  std::string digits;
  for (size_t i = negative ? 1 : 0; i < ePos; ++i) {
    if (sci[i] != '.') digits += sci[i];
  }
  const int exponent = std::atoi(sci.c_str() + ePos + 1);

  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const size_t intDigits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= intDigits) {
        out += digits + std::string(intDigits - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, intDigits) + "." + digits.substr(intDigits);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char expBuf[16];
  std::snprintf(expBuf, sizeof expBuf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + expBuf;
}

std::string pythonTupleRepr(std::span<const int64_t> values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  if (values.size() == 1) out += ",";
  return out + ")";
}

std::string formatFixed(double value, int precision) {
  std::string special;
  if (nonFinite(value, special)) return special;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", precision, value);
  return buf;
}

std::string formatScientific(double value, int precision) {
  std::string special;
  if (nonFinite(value, special)) return special;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", precision, value);
  return buf;
}

}  // namespace tilescope::host
