#include "core/host/Builtins.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/host/Containers.h"
#include "core/host/FormatSpec.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"

namespace tilescope::host {

Value TypeObject::call(Interpreter& in, CallArgs& args) {
  if (!ctor) throwTypeError("cannot create '" + name + "' instances");
  return ctor(in, args);
}

std::optional<Value> TypeObject::getAttr(Interpreter&, const std::string& attr) {
  if (attr == "__name__") return makeStr(name);
  return std::nullopt;
}

bool TypeObject::isInstance(const Value& v) const {
  const std::string t = v.typeName();
  if (t == name) return true;
  return std::find(members.begin(), members.end(), t) != members.end();
}

namespace {

Value intFromString(const std::string& text, int64_t base) {
  std::string s = text;
  s.erase(0, s.find_first_not_of(" \t\n"));
  s.erase(s.find_last_not_of(" \t\n") + 1);
  std::string digits;
  for (char c : s)
    if (c != '_') digits += c;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(digits.c_str(), &end, static_cast<int>(base));
  if (digits.empty() || *end != '\0') {
    throwValueError("invalid literal for int() with base " + std::to_string(base) + ": " + pythonStrRepr(text));
  }
  if (errno == ERANGE) throwError("OverflowError", "int too large for tilescope's 64-bit ints: " + text);
  return Value::integer(v);
}

Value toInt(Interpreter& in, CallArgs& args) {
  if (args.positional.empty()) return Value::integer(0);
  const Value& v = args.positional[0];
  if (auto* s = v.as<StrObject>()) {
    const int64_t base = args.positional.size() > 1 ? in.toIndex(args.positional[1], "base") : 10;
    return intFromString(s->value, base);
  }
  if (v.isIntLike()) return Value::integer(v.asInt());
  double d = 0;
  if (v.isFloat()) {
    d = v.asFloat();
  } else if (v.isObject()) {
    auto n = v.object()->number(in);
    if (!n) throwTypeError("int() argument must be a string, a bytes-like object or a real number, not '" + v.typeName() + "'");
    if (n->isIntLike()) return Value::integer(n->asInt());
    d = n->asFloat();
  }
  if (std::isnan(d)) throwValueError("cannot convert float NaN to integer");
  if (std::isinf(d)) throwError("OverflowError", "cannot convert float infinity to integer");
  if (std::fabs(d) >= 9.2233720368547758e18) throwError("OverflowError", "int too large for tilescope's 64-bit ints");
  return Value::integer(static_cast<int64_t>(d));
}

Value toFloatValue(Interpreter& in, CallArgs& args) {
  if (args.positional.empty()) return Value::real(0.0);
  const Value& v = args.positional[0];
  if (auto* s = v.as<StrObject>()) {
    std::string t = s->value;
    t.erase(0, t.find_first_not_of(" \t\n"));
    t.erase(t.find_last_not_of(" \t\n") + 1);
    std::string lower;
    for (char c : t) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "inf" || lower == "+inf" || lower == "infinity") return Value::real(INFINITY);
    if (lower == "-inf" || lower == "-infinity") return Value::real(-INFINITY);
    if (lower == "nan" || lower == "+nan" || lower == "-nan") return Value::real(NAN);
    char* end = nullptr;
    const double d = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0') throwValueError("could not convert string to float: " + pythonStrRepr(s->value));
    return Value::real(d);
  }
  return Value::real(in.toFloat(v, "float()"));
}

// Python's round(): half to even, also with ndigits (through correctly rounded decimal text).
Value roundValue(Interpreter& in, ValueList& a) {
  const Value& x = a[0];
  if (x.isObject()) {
    CallArgs args;
    if (!a[1].isNone()) args.keywords.emplace_back("decimals", a[1]);
    return in.call(in.getAttr(x, "round"), args);
  }
  if (a[1].isNone()) {
    if (x.isIntLike()) return Value::integer(x.asInt());
    const double d = x.asFloat();
    if (!std::isfinite(d)) throwValueError(std::isnan(d) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer");
    return Value::integer(static_cast<int64_t>(std::nearbyint(d)));
  }
  const int64_t nd = in.toIndex(a[1], "ndigits");
  if (x.isIntLike()) {
    if (nd >= 0) return Value::integer(x.asInt());
    int64_t p = 1;
    for (int64_t i = 0; i < -nd && p < INT64_MAX / 10; ++i) p *= 10;
    const double q = std::nearbyint(static_cast<double>(x.asInt()) / static_cast<double>(p));
    return Value::integer(static_cast<int64_t>(q) * p);
  }
  const double d = x.asFloat();
  if (!std::isfinite(d) || nd > 300) return x;
  if (nd < 0) {
    const double p = std::pow(10.0, static_cast<double>(-nd));
    return Value::real(std::nearbyint(d / p) * p);
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(nd), d);
  return Value::real(std::strtod(buf, nullptr));
}

Value minMax(Interpreter& in, CallArgs& args, bool isMax) {
  const char* name = isMax ? "max" : "min";
  std::optional<Value> key = args.takeKeyword("key");
  std::optional<Value> dflt = args.takeKeyword("default");
  if (!args.keywords.empty()) throwTypeError(std::string(name) + "() got an unexpected keyword argument '" + args.keywords[0].first + "'");
  if (args.positional.empty()) throwTypeError(std::string(name) + " expected at least 1 argument, got 0");
  ValueList items = args.positional.size() == 1 ? in.toList(args.positional[0]) : args.positional;
  if (items.empty()) {
    if (dflt) return *dflt;
    throwValueError(std::string(name) + "() arg is an empty sequence");
  }
  Value best = items[0];
  Value bestKey = key && !key->isNone() ? in.call(*key, ValueList{best}) : best;
  for (size_t i = 1; i < items.size(); ++i) {
    const Value k = key && !key->isNone() ? in.call(*key, ValueList{items[i]}) : items[i];
    if (in.truthy(in.compare(isMax ? CmpOp::Gt : CmpOp::Lt, k, bestKey))) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

Value sortedValue(Interpreter& in, ValueList& a) {
  ValueList items = in.toList(a[0]);
  const Value key = a[1];
  ValueList keys = items;
  if (!key.isNone())
    for (Value& k : keys) k = in.call(key, ValueList{k});
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const bool reverse = in.truthy(a[2]);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return reverse ? in.truthy(in.compare(CmpOp::Lt, keys[y], keys[x])) : in.truthy(in.compare(CmpOp::Lt, keys[x], keys[y]));
  });
  ValueList out;
  for (size_t i : order) out.push_back(items[i]);
  return makeList(std::move(out));
}

Value typeValue(const std::string& name, TypeObject::Ctor ctor, std::vector<std::string> members = {}) {
  return makeObject<TypeObject>(name, std::move(ctor), std::move(members));
}

}  // namespace

Value typeOf(Interpreter& in, const Value& v) {
  const std::string name = v.typeName();
  if (Value* t = in.lookupBuiltin(name); t && t->is<TypeObject>()) return *t;
  return typeValue(name, nullptr);
}

void installBuiltins(Interpreter& in) {
  auto def = [&](const std::string& name, const std::string& spec, std::function<Value(Interpreter&, ValueList&)> fn) {
    in.setBuiltin(name, makeBuiltin(name, spec, std::move(fn)));
  };
  auto defRaw = [&](const std::string& name, BuiltinFn fn) { in.setBuiltin(name, makeBuiltin(name, std::move(fn))); };

  defRaw("print", [](Interpreter& in2, CallArgs& args) {
    std::optional<Value> sep = args.takeKeyword("sep");
    std::optional<Value> end = args.takeKeyword("end");
    args.takeKeyword("flush");
    std::optional<Value> file = args.takeKeyword("file");
    if (!args.keywords.empty()) throwTypeError("'" + args.keywords[0].first + "' is an invalid keyword argument for print()");
    const std::string sepText = sep && !sep->isNone() ? in2.str(*sep) : " ";
    std::string text;
    for (size_t i = 0; i < args.positional.size(); ++i) {
      if (i) text += sepText;
      text += in2.str(args.positional[i]);
    }
    text += end && !end->isNone() ? in2.str(*end) : "\n";
    const bool toStderr = file && file->is<NamespaceObject>() && file->as<NamespaceObject>()->name == "stderr";
    if (toStderr) in2.writeStderr(text);
    else in2.writeStdout(text);
    return Value();
  });
  def("len", "obj", [](Interpreter& in2, ValueList& a) { return Value::integer(in2.length(a[0])); });
  def("repr", "obj", [](Interpreter& in2, ValueList& a) { return makeStr(in2.repr(a[0])); });
  def("abs", "x", [](Interpreter& in2, ValueList& a) {
    const Value& x = a[0];
    if (x.isFloat()) return Value::real(std::fabs(x.asFloat()));
    if (x.isIntLike()) {
      if (x.asInt() == INT64_MIN) throwError("OverflowError", "integer overflow in abs()");
      return Value::integer(x.asInt() < 0 ? -x.asInt() : x.asInt());
    }
    if (auto m = in2.tryGetAttr(x, "abs")) return in2.call(*m, ValueList{});
    throwTypeError("bad operand type for abs(): '" + x.typeName() + "'");
  });
  defRaw("min", [](Interpreter& in2, CallArgs& args) { return minMax(in2, args, false); });
  defRaw("max", [](Interpreter& in2, CallArgs& args) { return minMax(in2, args, true); });
  def("sum", "iterable, start=0", [](Interpreter& in2, ValueList& a) {
    Value total = a[1];
    for (const Value& v : in2.toList(a[0])) total = in2.binary(BinOp::Add, total, v);
    return total;
  });
  def("round", "number, ndigits=None", roundValue);
  def("sorted", "iterable, *, key=None, reverse=False", sortedValue);
  def("any", "iterable", [](Interpreter& in2, ValueList& a) {
    for (const Value& v : in2.toList(a[0]))
      if (in2.truthy(v)) return Value::boolean(true);
    return Value::boolean(false);
  });
  def("all", "iterable", [](Interpreter& in2, ValueList& a) {
    for (const Value& v : in2.toList(a[0]))
      if (!in2.truthy(v)) return Value::boolean(false);
    return Value::boolean(true);
  });
  defRaw("zip", [](Interpreter& in2, CallArgs& args) {
    args.takeKeyword("strict");
    std::vector<ValueList> lists;
    size_t n = SIZE_MAX;
    for (const Value& v : args.positional) {
      lists.push_back(in2.toList(v));
      n = std::min(n, lists.back().size());
    }
    if (lists.empty()) n = 0;
    ValueList out;
    for (size_t i = 0; i < n; ++i) {
      ValueList row;
      for (const ValueList& l : lists) row.push_back(l[i]);
      out.push_back(makeTuple(std::move(row)));
    }
    return makeList(std::move(out));
  });
  def("enumerate", "iterable, start=0", [](Interpreter& in2, ValueList& a) {
    ValueList out;
    int64_t i = in2.toIndex(a[1], "start");
    for (const Value& v : in2.toList(a[0])) out.push_back(makeTuple({Value::integer(i++), v}));
    return makeList(std::move(out));
  });
  def("reversed", "seq", [](Interpreter& in2, ValueList& a) {
    ValueList items = in2.toList(a[0]);
    std::reverse(items.begin(), items.end());
    return makeList(std::move(items));
  });
  def("map", "function, *iterables", [](Interpreter& in2, ValueList& a) {
    std::vector<ValueList> lists;
    size_t n = SIZE_MAX;
    for (const Value& v : a[1].as<TupleObject>()->items) {
      lists.push_back(in2.toList(v));
      n = std::min(n, lists.back().size());
    }
    if (lists.empty()) throwTypeError("map() must have at least two arguments.");
    ValueList out;
    for (size_t i = 0; i < n; ++i) {
      ValueList args;
      for (const ValueList& l : lists) args.push_back(l[i]);
      out.push_back(in2.call(a[0], std::move(args)));
    }
    return makeList(std::move(out));
  });
  def("filter", "function, iterable", [](Interpreter& in2, ValueList& a) {
    ValueList out;
    for (const Value& v : in2.toList(a[1]))
      if (a[0].isNone() ? in2.truthy(v) : in2.truthy(in2.call(a[0], ValueList{v}))) out.push_back(v);
    return makeList(std::move(out));
  });
  def("isinstance", "obj, class_or_tuple", [](Interpreter& in2, ValueList& a) {
    ValueList types = a[1].is<TupleObject>() ? a[1].as<TupleObject>()->items : ValueList{a[1]};
    for (const Value& t : types) {
      if (auto* type = t.as<TypeObject>(); type && type->isInstance(a[0])) return Value::boolean(true);
      if (auto* et = t.as<ExceptionType>()) {
        if (auto* eo = a[0].as<ExceptionObject>(); eo && exceptionMatches(eo->type, et->name)) return Value::boolean(true);
      } else if (!t.is<TypeObject>()) {
        throwTypeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
      }
    }
    (void)in2;
    return Value::boolean(false);
  });
  def("callable", "obj", [](Interpreter&, ValueList& a) { return Value::boolean(a[0].isObject() && a[0].object()->callable()); });
  def("hasattr", "obj, name", [](Interpreter& in2, ValueList& a) {
    return Value::boolean(in2.tryGetAttr(a[0], in2.str(a[1])).has_value());
  });
  def("getattr", "obj, name, *default", [](Interpreter& in2, ValueList& a) {
    if (auto v = in2.tryGetAttr(a[0], in2.str(a[1]))) return *v;
    auto& d = a[2].as<TupleObject>()->items;
    if (!d.empty()) return d[0];
    return in2.getAttr(a[0], in2.str(a[1]));
  });
  def("setattr", "obj, name, value", [](Interpreter& in2, ValueList& a) {
    in2.setAttr(a[0], in2.str(a[1]), a[2]);
    return Value();
  });
  def("divmod", "a, b", [](Interpreter& in2, ValueList& a) {
    return makeTuple({in2.binary(BinOp::FloorDiv, a[0], a[1]), in2.binary(BinOp::Mod, a[0], a[1])});
  });
  def("pow", "base, exp", [](Interpreter& in2, ValueList& a) { return in2.binary(BinOp::Pow, a[0], a[1]); });
  def("format", "value, format_spec=''", [](Interpreter& in2, ValueList& a) { return makeStr(in2.format(a[0], in2.str(a[1]))); });
  def("chr", "i", [](Interpreter& in2, ValueList& a) {
    const int64_t c = in2.toIndex(a[0], "chr");
    std::string s;
    if (c < 0x80) s += static_cast<char>(c);
    else if (c < 0x800) { s += static_cast<char>(0xC0 | (c >> 6)); s += static_cast<char>(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) { s += static_cast<char>(0xE0 | (c >> 12)); s += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); s += static_cast<char>(0x80 | (c & 0x3F)); }
    else { s += static_cast<char>(0xF0 | (c >> 18)); s += static_cast<char>(0x80 | ((c >> 12) & 0x3F)); s += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); s += static_cast<char>(0x80 | (c & 0x3F)); }
    return makeStr(s);
  });
  def("ord", "c", [](Interpreter&, ValueList& a) {
    auto* s = a[0].as<StrObject>();
    if (!s || s->value.empty()) throwTypeError("ord() expected a character");
    const auto* p = reinterpret_cast<const unsigned char*>(s->value.data());
    int64_t c = p[0];
    if (c >= 0xF0) c = ((c & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    else if (c >= 0xE0) c = ((c & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    else if (c >= 0xC0) c = ((c & 0x1F) << 6) | (p[1] & 0x3F);
    return Value::integer(c);
  });
  for (const char* base : {"hex", "bin", "oct"}) {
    const std::string name = base;
    def(name, "x", [name](Interpreter& in2, ValueList& a) {
      const char t = name == "hex" ? 'x' : name == "bin" ? 'b' : 'o';
      return makeStr(formatInt(in2.toIndex(a[0], name.c_str()), std::string("#") + t));
    });
  }
  def("id", "obj", [](Interpreter&, ValueList& a) {
    return Value::integer(a[0].isObject() ? static_cast<int64_t>(reinterpret_cast<intptr_t>(a[0].object())) : a[0].asInt());
  });
  defRaw("eval", [](Interpreter& in2, CallArgs& args) -> Value {
    if (args.positional.empty()) throwTypeError("eval expected at least 1 argument, got 0");
    auto* s = args.positional[0].as<StrObject>();
    if (!s) throwTypeError("eval() arg 1 must be a string");
    return in2.evalSource(s->value, in2.currentFrame().scope);
  });
  def("type", "obj", [](Interpreter& in2, ValueList& a) { return typeOf(in2, a[0]); });
  defRaw("open", [](Interpreter&, CallArgs&) -> Value {
    throw PyError("OSError", "file I/O is not supported by tilescope's host interpreter (see docs/HOST_LANGUAGE.md)");
  });

  // Types (callable constructors, usable with isinstance).
  in.setBuiltin("int", typeValue("int", toInt, {"bool"}));
  in.setBuiltin("float", typeValue("float", toFloatValue));
  in.setBuiltin("bool", typeValue("bool", [](Interpreter& in2, CallArgs& a) {
    return Value::boolean(!a.positional.empty() && in2.truthy(a.positional[0]));
  }));
  in.setBuiltin("str", typeValue("str", [](Interpreter& in2, CallArgs& a) {
    return makeStr(a.positional.empty() ? std::string() : in2.str(a.positional[0]));
  }));
  in.setBuiltin("list", typeValue("list", [](Interpreter& in2, CallArgs& a) {
    return makeList(a.positional.empty() ? ValueList{} : in2.toList(a.positional[0]));
  }));
  in.setBuiltin("tuple", typeValue("tuple", [](Interpreter& in2, CallArgs& a) {
    return makeTuple(a.positional.empty() ? ValueList{} : in2.toList(a.positional[0]));
  }, {"Size"}));
  in.setBuiltin("dict", typeValue("dict", [](Interpreter& in2, CallArgs& a) {
    auto d = std::make_shared<DictObject>();
    if (!a.positional.empty()) {
      if (auto* other = a.positional[0].as<DictObject>()) {
        for (auto& [k, v] : other->entries()) d->set(in2, k, v);
      } else {
        for (const Value& pair : in2.toList(a.positional[0])) {
          ValueList kv = in2.toList(pair);
          if (kv.size() != 2) throwValueError("dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required");
          d->set(in2, kv[0], kv[1]);
        }
      }
    }
    for (auto& [k, v] : a.keywords) d->set(in2, makeStr(k), v);
    return Value(d);
  }));
  in.setBuiltin("range", typeValue("range", [](Interpreter& in2, CallArgs& a) -> Value {
    if (!a.keywords.empty()) throwTypeError("range() takes no keyword arguments");
    const size_t n = a.positional.size();
    if (n < 1 || n > 3) throwTypeError("range expected at most 3 arguments, got " + std::to_string(n));
    auto idx = [&](size_t i) {
      const Value& v = a.positional[i];
      if (v.isFloat()) throwTypeError("'float' object cannot be interpreted as an integer");
      return in2.toIndex(v, "range");
    };
    const int64_t start = n == 1 ? 0 : idx(0);
    const int64_t stop = n == 1 ? idx(0) : idx(1);
    const int64_t step = n == 3 ? idx(2) : 1;
    if (step == 0) throwValueError("range() arg 3 must not be zero");
    return makeObject<RangeObject>(start, stop, step);
  }));
  in.setBuiltin("object", typeValue("object", nullptr));
  in.setBuiltin("Ellipsis", makeObject<EllipsisObject>());
  for (const std::string& name : builtinExceptionNames()) in.setBuiltin(name, builtinExceptionType(name));
}

}  // namespace tilescope::host
