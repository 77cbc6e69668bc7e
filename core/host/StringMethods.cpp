#include "core/host/StringMethods.h"

#include <algorithm>
#include <cctype>

#include "core/host/Containers.h"
#include "core/host/FormatSpec.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"

namespace tilescope::host {

namespace {

size_t charLen(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 6) return 2;
  if ((c >> 4) == 14) return 3;
  if ((c >> 3) == 30) return 4;
  return 1;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string strip(const std::string& s, const Value& chars, bool left, bool right, Interpreter& in) {
  std::string set = " \t\n\r\v\f";
  if (!chars.isNone()) set = in.str(chars);
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && set.find(s[b]) != std::string::npos) ++b;
  if (right)
    while (e > b && set.find(s[e - 1]) != std::string::npos) --e;
  return s.substr(b, e - b);
}

ValueList split(const std::string& s, const Value& sepValue, int64_t maxsplit, Interpreter& in) {
  ValueList out;
  if (sepValue.isNone()) {
    size_t i = 0;
    int64_t splits = 0;
    while (i < s.size()) {
      while (i < s.size() && isSpace(s[i])) ++i;
      if (i >= s.size()) break;
      if (maxsplit >= 0 && splits == maxsplit) {
        size_t e = s.size();
        while (e > i && isSpace(s[e - 1])) --e;
        out.push_back(makeStr(s.substr(i, e - i)));
        break;
      }
      size_t j = i;
      while (j < s.size() && !isSpace(s[j])) ++j;
      out.push_back(makeStr(s.substr(i, j - i)));
      ++splits;
      i = j;
    }
    return out;
  }
  const std::string sep = in.str(sepValue);
  if (sep.empty()) throwValueError("empty separator");
  size_t start = 0;
  int64_t splits = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    if (pos == std::string::npos || (maxsplit >= 0 && splits == maxsplit)) break;
    out.push_back(makeStr(s.substr(start, pos - start)));
    start = pos + sep.size();
    ++splits;
  }
  out.push_back(makeStr(s.substr(start)));
  return out;
}

const std::string& requireStr(const Value& v, const char* method) {
  auto* s = v.as<StrObject>();
  if (!s) throwTypeError(std::string(method) + " arg must be str, not " + v.typeName());
  return s->value;
}

bool matchesAffix(const std::string& s, const Value& affix, bool prefix, const char* method) {
  auto test = [&](const std::string& a) {
    if (a.size() > s.size()) return false;
    return prefix ? s.compare(0, a.size(), a) == 0 : s.compare(s.size() - a.size(), a.size(), a) == 0;
  };
  if (auto* t = affix.as<TupleObject>()) {
    return std::any_of(t->items.begin(), t->items.end(), [&](const Value& v) { return test(requireStr(v, method)); });
  }
  return test(requireStr(affix, method));
}

}  // namespace

int64_t utf8Length(const std::string& s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); i += charLen(static_cast<unsigned char>(s[i]))) ++n;
  return n;
}

std::vector<std::string> utf8Chars(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = std::min(charLen(static_cast<unsigned char>(s[i])), s.size() - i);
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string utf8Slice(const std::string& s, int64_t start, int64_t stop, int64_t step) {
  const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  std::string out;
  if (ascii && step == 1) return stop > start ? s.substr(static_cast<size_t>(start), static_cast<size_t>(stop - start)) : "";
  const std::vector<std::string> chars = utf8Chars(s);
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out += chars[static_cast<size_t>(i)];
  return out;
}

std::optional<Value> stringMethod(Interpreter& in, std::shared_ptr<StrObject> self, const std::string& name) {
  (void)in;
  const std::string& s = self->value;
  auto method = [&](const std::string& spec, std::function<Value(Interpreter&, ValueList&)> fn) {
    return std::optional<Value>(makeBuiltin("str." + name, spec, std::move(fn)));
  };
  if (name == "replace")
    return method("old, new, count=-1", [self](Interpreter& in2, ValueList& a) {
      const std::string& from = requireStr(a[0], "replace()");
      const std::string& to = requireStr(a[1], "replace()");
      int64_t count = in2.toIndex(a[2], "count");
      std::string out;
      const std::string& src = self->value;
      if (from.empty()) {
        // Python inserts `to` between every character (and at both ends).
        const auto chars = utf8Chars(src);
        for (size_t i = 0; i <= chars.size(); ++i) {
          if (count < 0 || static_cast<int64_t>(i) < count) out += to;
          if (i < chars.size()) out += chars[i];
        }
        return makeStr(out);
      }
      size_t pos = 0;
      while (count != 0) {
        const size_t hit = src.find(from, pos);
        if (hit == std::string::npos) break;
        out += src.substr(pos, hit - pos) + to;
        pos = hit + from.size();
        if (count > 0) --count;
      }
      return makeStr(out + src.substr(pos));
    });
  if (name == "split")
    return method("sep=None, maxsplit=-1", [self](Interpreter& in2, ValueList& a) {
      return makeList(split(self->value, a[0], in2.toIndex(a[1], "maxsplit"), in2));
    });
  if (name == "strip" || name == "lstrip" || name == "rstrip")
    return method("chars=None", [self, name](Interpreter& in2, ValueList& a) {
      return makeStr(strip(self->value, a[0], name != "rstrip", name != "lstrip", in2));
    });
  if (name == "join")
    return method("iterable", [self](Interpreter& in2, ValueList& a) {
      std::string out;
      const ValueList items = in2.toList(a[0]);
      for (size_t i = 0; i < items.size(); ++i) {
        auto* item = items[i].as<StrObject>();
        if (!item) {
          throwTypeError("sequence item " + std::to_string(i) + ": expected str instance, " + items[i].typeName() + " found");
        }
        if (i) out += self->value;
        out += item->value;
      }
      return makeStr(out);
    });
  if (name == "startswith" || name == "endswith")
    return method("prefix", [self, name](Interpreter&, ValueList& a) {
      const bool prefix = name == "startswith";
      return Value::boolean(matchesAffix(self->value, a[0], prefix, prefix ? "startswith" : "endswith"));
    });
  if (name == "upper" || name == "lower")
    return method("", [self, name](Interpreter&, ValueList&) {
      std::string out = self->value;
      for (char& c : out) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80) c = static_cast<char>(name == "upper" ? std::toupper(u) : std::tolower(u));
      }
      return makeStr(out);
    });
  if (name == "format")
    return std::optional<Value>(makeBuiltin("str.format", [self](Interpreter& in2, CallArgs& args) {
      return makeStr(strFormat(in2, self->value, args));
    }));
  if (name == "find" || name == "index" || name == "count")
    return method("sub", [self, name](Interpreter&, ValueList& a) {
      const std::string& sub = requireStr(a[0], name.c_str());
      if (name == "count") {
        if (sub.empty()) return Value::integer(utf8Length(self->value) + 1);
        int64_t n = 0;
        for (size_t pos = self->value.find(sub); pos != std::string::npos; pos = self->value.find(sub, pos + sub.size())) ++n;
        return Value::integer(n);
      }
      const size_t pos = self->value.find(sub);
      if (pos == std::string::npos) {
        if (name == "index") throwValueError("substring not found");
        return Value::integer(-1);
      }
      return Value::integer(utf8Length(self->value.substr(0, pos)));
    });
  if (name == "isdigit" || name == "isalpha" || name == "isspace" || name == "isalnum")
    return method("", [self, name](Interpreter&, ValueList&) {
      const std::string& v = self->value;
      if (v.empty()) return Value::boolean(false);
      return Value::boolean(std::all_of(v.begin(), v.end(), [&](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        if (name == "isdigit") return std::isdigit(c) != 0;
        if (name == "isalpha") return std::isalpha(c) != 0;
        if (name == "isspace") return std::isspace(c) != 0;
        return std::isalnum(c) != 0;
      }));
    });
  if (name == "center" || name == "ljust" || name == "rjust")
    return method("width, fillchar=' '", [self, name](Interpreter& in2, ValueList& a) {
      FormatSpec spec;
      spec.width = static_cast<int>(in2.toIndex(a[0], "width"));
      spec.fillText = in2.str(a[1]);
      spec.align = name == "center" ? '^' : name == "ljust" ? '<' : '>';
      return makeStr(applyPadding(self->value, spec, spec.align));
    });
  if (name == "zfill")
    return method("width", [self](Interpreter& in2, ValueList& a) {
      return makeStr(formatStr(self->value, ">0" + std::to_string(in2.toIndex(a[0], "width"))));
    });
  if (name == "splitlines")
    return method("", [self](Interpreter&, ValueList&) {
      ValueList out;
      size_t start = 0;
      const std::string& v = self->value;
      while (start < v.size()) {
        size_t nl = v.find('\n', start);
        if (nl == std::string::npos) nl = v.size();
        out.push_back(makeStr(v.substr(start, nl - start)));
        start = nl + 1;
      }
      return makeList(out);
    });
  (void)s;
  return std::nullopt;
}

// ----------------------------------------------------------------------------- str.format

std::string strFormat(Interpreter& in, const std::string& fmt, const CallArgs& args) {
  std::string out;
  size_t autoIndex = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      throwValueError("Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    // Find the matching '}' (specs may nest one level: {x:{w}}).
    size_t depth = 1, j = i + 1;
    for (; j < fmt.size() && depth; ++j) {
      if (fmt[j] == '{') ++depth;
      else if (fmt[j] == '}') --depth;
    }
    if (depth) throwValueError("Single '{' encountered in format string");
    const std::string field = fmt.substr(i + 1, j - i - 2);
    i = j - 1;
    std::string spec;
    char conversion = 0;
    std::string ref = field;
    if (const size_t colon = field.find(':'); colon != std::string::npos) {
      spec = strFormat(in, field.substr(colon + 1), args);
      ref = field.substr(0, colon);
    }
    if (const size_t bang = ref.find('!'); bang != std::string::npos) {
      conversion = bang + 1 < ref.size() ? ref[bang + 1] : 0;
      ref = ref.substr(0, bang);
    }
    // The argument: positional (auto or explicit index) or keyword, then .attr / [key] parts.
    size_t end = ref.find_first_of(".[");
    const std::string head = ref.substr(0, end);
    Value v;
    if (head.empty()) {
      if (autoIndex >= args.positional.size()) {
        throwError("IndexError", "Replacement index " + std::to_string(autoIndex) + " out of range for positional args tuple");
      }
      v = args.positional[autoIndex++];
    } else if (std::all_of(head.begin(), head.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
      const size_t idx = std::stoul(head);
      if (idx >= args.positional.size()) {
        throwError("IndexError", "Replacement index " + head + " out of range for positional args tuple");
      }
      v = args.positional[idx];
    } else {
      const Value* kw = args.keyword(head);
      if (!kw) throwError("KeyError", pythonStrRepr(head));
      v = *kw;
    }
    while (end != std::string::npos && end < ref.size()) {
      if (ref[end] == '.') {
        const size_t next = ref.find_first_of(".[", end + 1);
        v = in.getAttr(v, ref.substr(end + 1, next == std::string::npos ? std::string::npos : next - end - 1));
        end = next;
      } else {
        const size_t close = ref.find(']', end);
        const std::string key = ref.substr(end + 1, close - end - 1);
        const bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        v = in.getItem(v, numeric ? Value::integer(std::stoll(key)) : makeStr(key));
        end = close + 1 < ref.size() ? close + 1 : std::string::npos;
      }
    }
    if (conversion == 'r' || conversion == 'a') v = makeStr(in.repr(v));
    else if (conversion == 's') v = makeStr(in.str(v));
    out += in.format(v, spec);
  }
  return out;
}

// ----------------------------------------------------------------------------- printf-style %

Value percentFormat(Interpreter& in, const std::string& fmt, const Value& args) {
  ValueList values;
  if (auto* t = args.as<TupleObject>()) values = t->items;
  else values.push_back(args);
  size_t next = 0;
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (++i >= fmt.size()) throwValueError("incomplete format");
    if (fmt[i] == '%') {
      out += '%';
      continue;
    }
    // flags, width, precision -> a format-spec for the mini-language.
    std::string flags;
    while (i < fmt.size() && std::string("-+ 0#").find(fmt[i]) != std::string::npos) flags += fmt[i++];
    std::string width, precision;
    while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) width += fmt[i++];
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) precision += fmt[i++];
      if (precision.empty()) precision = "0";
    }
    if (i >= fmt.size()) throwValueError("incomplete format");
    const char conv = fmt[i];
    if (next >= values.size()) throwTypeError("not enough arguments for format string");
    const Value& v = values[next++];
    std::string spec;
    if (flags.find('-') != std::string::npos) spec += '<';
    if (flags.find('+') != std::string::npos) spec += '+';
    else if (flags.find(' ') != std::string::npos) spec += ' ';
    if (flags.find('#') != std::string::npos) spec += '#';
    if (flags.find('0') != std::string::npos && flags.find('-') == std::string::npos) spec += '0';
    spec += width;
    switch (conv) {
      case 's': out += formatStr(in.str(v), (flags.find('-') != std::string::npos ? "<" : ">") + width + (precision.empty() ? "" : "." + precision)); break;
      case 'r': out += formatStr(in.repr(v), (flags.find('-') != std::string::npos ? "<" : ">") + width); break;
      case 'd': case 'i': case 'u':
        out += formatInt(v.isFloat() ? static_cast<int64_t>(v.asFloat()) : in.toIndex(v, "%d format"), spec + "d");
        break;
      case 'x': case 'X': case 'o':
        out += formatInt(in.toIndex(v, "%x format"), spec + conv);
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
        out += formatFloat(in.toFloat(v, "%f format"), spec + (precision.empty() ? "" : "." + precision) + conv);
        break;
      default:
        throwValueError(std::string("unsupported format character '") + conv + "'");
    }
  }
  if (next < values.size()) throwTypeError("not all arguments converted during string formatting");
  return makeStr(out);
}

}  // namespace tilescope::host
