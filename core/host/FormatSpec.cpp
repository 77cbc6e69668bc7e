#include "core/host/FormatSpec.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/host/PyError.h"
#include "core/tensor/PythonFormat.h"

namespace tilescope::host {

namespace {

bool isAlign(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

size_t utf8CharLen(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 6) return 2;
  if ((c >> 4) == 14) return 3;
  if ((c >> 3) == 30) return 4;
  return 1;
}

int64_t displayLength(const std::string& s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); i += utf8CharLen(static_cast<unsigned char>(s[i]))) ++n;
  return n;
}

[[noreturn]] void invalidSpec(const std::string& spec, const char* typeName) {
  throwValueError("Invalid format specifier '" + spec + "' for object of type '" + typeName + "'");
}

// Inserts `sep` every `every` digits from the right of a run of digits.
std::string group(const std::string& digits, char sep, int every) {
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % every == 0) out += sep;
    out += digits[static_cast<size_t>(i)];
  }
  return out;
}

// sign + prefix + body, padded per spec ('=' pads between sign/prefix and body).
std::string finishNumber(bool negative, const std::string& prefix, std::string body, const FormatSpec& spec) {
  std::string signText;
  if (negative) signText = "-";
  else if (spec.sign == '+') signText = "+";
  else if (spec.sign == ' ') signText = " ";
  const std::string head = signText + prefix;
  const char align = spec.align ? spec.align : (spec.zeroPad ? '=' : '>');
  if (align == '=') {
    const int64_t pad = spec.width - displayLength(head) - displayLength(body);
    std::string fill;
    for (int64_t i = 0; i < pad; ++i) fill += spec.fillText;
    return head + fill + body;
  }
  return applyPadding(head + body, spec, '>');
}

// The integer part of a fixed-notation number with grouping applied.
std::string groupFixed(const std::string& text, char sep) {
  if (!sep) return text;
  size_t end = text.find_first_not_of("0123456789");
  if (end == std::string::npos) end = text.size();
  return group(text.substr(0, end), sep, 3) + text.substr(end);
}

std::string printfDouble(const char* conv, int precision, double v) {
  char fmt[16];
  std::snprintf(fmt, sizeof fmt, "%%.%d%s", precision, conv);
  const int n = std::snprintf(nullptr, 0, fmt, v);
  std::string out(static_cast<size_t>(n), '\0');
  std::snprintf(out.data(), out.size() + 1, fmt, v);
  return out;
}

std::string stripTrailingZeros(const std::string& s) {
  const size_t e = s.find_first_of("eE");
  std::string mant = e == std::string::npos ? s : s.substr(0, e);
  const std::string exp = e == std::string::npos ? "" : s.substr(e);
  if (mant.find('.') != std::string::npos) {
    while (!mant.empty() && mant.back() == '0') mant.pop_back();
    if (!mant.empty() && mant.back() == '.') mant.pop_back();
  }
  return mant + exp;
}

// Python's 'g' for a finite non-negative value.
std::string generalFormat(double v, int precision, bool alternate, bool upper) {
  const int p = precision == 0 ? 1 : precision;
  const std::string sci = printfDouble("e", p - 1, v);
  const int exp = std::atoi(sci.c_str() + sci.find('e') + 1);
  std::string out;
  if (exp >= -4 && exp < p) out = printfDouble("f", p - 1 - exp, v);
  else out = sci;
  if (!alternate) out = stripTrailingZeros(out);
  if (upper)
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

FormatSpec FormatSpec::parse(const std::string& spec, const char* typeName) {
  FormatSpec f;
  size_t i = 0;
  const size_t firstLen = spec.empty() ? 0 : utf8CharLen(static_cast<unsigned char>(spec[0]));
  if (spec.size() > firstLen && isAlign(spec[firstLen])) {
    f.fillText = spec.substr(0, firstLen);
    f.fill = spec[0];
    f.align = spec[firstLen];
    i = firstLen + 1;
  } else if (!spec.empty() && isAlign(spec[0])) {
    f.align = spec[0];
    i = 1;
  }
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) f.sign = spec[i++];
  if (i < spec.size() && spec[i] == 'z') ++i;  // negative-zero normalisation: accepted, no effect here
  if (i < spec.size() && spec[i] == '#') {
    f.alternate = true;
    ++i;
  }
  if (i < spec.size() && spec[i] == '0') {
    f.zeroPad = true;
    if (!f.align) {
      f.fill = '0';
      f.fillText = "0";
    }
    ++i;
  }
  if (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) {
    f.width = 0;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) f.width = f.width * 10 + (spec[i++] - '0');
  }
  if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) f.grouping = spec[i++];
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    if (i >= spec.size() || !std::isdigit(static_cast<unsigned char>(spec[i]))) throwValueError("Format specifier missing precision");
    f.precision = 0;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) f.precision = f.precision * 10 + (spec[i++] - '0');
  }
  if (i < spec.size()) f.type = spec[i++];
  if (i != spec.size()) invalidSpec(spec, typeName);
  return f;
}

std::string applyPadding(const std::string& text, const FormatSpec& spec, char defaultAlign) {
  const int64_t pad = spec.width - displayLength(text);
  if (pad <= 0) return text;
  const char align = spec.align && spec.align != '=' ? spec.align : defaultAlign;
  auto fill = [&](int64_t n) {
    std::string s;
    for (int64_t k = 0; k < n; ++k) s += spec.fillText;
    return s;
  };
  if (align == '<') return text + fill(pad);
  if (align == '^') return fill(pad / 2) + text + fill(pad - pad / 2);
  return fill(pad) + text;
}

std::string formatStr(const std::string& value, const std::string& specText) {
  const FormatSpec spec = FormatSpec::parse(specText, "str");
  if (spec.type && spec.type != 's') {
    throwValueError(std::string("Unknown format code '") + spec.type + "' for object of type 'str'");
  }
  if (spec.sign != '-') throwValueError("Sign not allowed in string format specifier");
  if (spec.align == '=') throwValueError("'=' alignment not allowed in string format specifier");
  std::string text = value;
  if (spec.precision >= 0) {
    // Truncate to `precision` code points.
    size_t pos = 0;
    for (int k = 0; k < spec.precision && pos < text.size(); ++k) pos += utf8CharLen(static_cast<unsigned char>(text[pos]));
    text = text.substr(0, pos);
  }
  return applyPadding(text, spec, '<');
}

std::string formatInt(int64_t value, const std::string& specText, const char* typeName) {
  const FormatSpec spec = FormatSpec::parse(specText, typeName);
  switch (spec.type) {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
      return formatFloat(static_cast<double>(value), specText);
    default: break;
  }
  if (spec.precision >= 0) throwValueError("Precision not allowed in integer format specifier");
  const bool negative = value < 0;
  const uint64_t mag = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits, prefix;
  auto inBase = [&](unsigned base, const char* alphabet) {
    if (mag == 0) return std::string("0");
    std::string s;
    for (uint64_t m = mag; m; m /= base) s.insert(s.begin(), alphabet[m % base]);
    return s;
  };
  switch (spec.type) {
    case 0: case 'd': case 'n':
      digits = inBase(10, "0123456789");
      if (spec.grouping) digits = group(digits, spec.grouping, 3);
      break;
    case 'b': digits = inBase(2, "01"); prefix = spec.alternate ? "0b" : ""; break;
    case 'o': digits = inBase(8, "01234567"); prefix = spec.alternate ? "0o" : ""; break;
    case 'x': digits = inBase(16, "0123456789abcdef"); prefix = spec.alternate ? "0x" : ""; break;
    case 'X': digits = inBase(16, "0123456789ABCDEF"); prefix = spec.alternate ? "0X" : ""; break;
    case 'c': {
      std::string ch(1, static_cast<char>(value));
      return applyPadding(ch, spec, '<');
    }
    default:
      throwValueError(std::string("Unknown format code '") + spec.type + "' for object of type '" + typeName + "'");
  }
  if (spec.grouping == '_' && spec.type && spec.type != 'd' && spec.type != 'n') digits = group(digits, '_', 4);
  return finishNumber(negative, prefix, digits, spec);
}

std::string formatFloat(double value, const std::string& specText) {
  const FormatSpec spec = FormatSpec::parse(specText, "float");
  const bool negative = std::signbit(value) && !std::isnan(value);
  const double mag = std::fabs(value);
  const bool upper = spec.type == 'E' || spec.type == 'F' || spec.type == 'G';
  std::string body;
  if (std::isnan(value) || std::isinf(value)) {
    body = std::isnan(value) ? "nan" : "inf";
    if (upper) body = std::isnan(value) ? "NAN" : "INF";
    if (spec.type == '%') body += "%";
    FormatSpec s = spec;
    if (s.zeroPad && !spec.align) { s.fillText = " "; s.align = '>'; }
    return finishNumber(negative, "", body, s);
  }
  const int prec = spec.precision;
  switch (spec.type) {
    case 'f': case 'F':
      body = printfDouble("f", prec < 0 ? 6 : prec, mag);
      if (spec.alternate && body.find('.') == std::string::npos) body += '.';
      break;
    case 'e': case 'E':
      body = printfDouble(spec.type == 'e' ? "e" : "E", prec < 0 ? 6 : prec, mag);
      break;
    case 'g': case 'G': case 'n':
      body = generalFormat(mag, prec < 0 ? 6 : prec, spec.alternate, spec.type == 'G');
      break;
    case '%':
      body = printfDouble("f", prec < 0 ? 6 : prec, mag * 100.0) + "%";
      break;
    case 0:
      if (prec < 0) {
        body = pythonFloatRepr(mag);
      } else {
        body = generalFormat(mag, prec, spec.alternate, false);
        if (body.find_first_of(".e") == std::string::npos) body += ".0";
      }
      break;
    default:
      throwValueError(std::string("Unknown format code '") + spec.type + "' for object of type 'float'");
  }
  if (spec.grouping) body = groupFixed(body, spec.grouping);
  return finishNumber(negative, "", body, spec);
}

}  // namespace tilescope::host
