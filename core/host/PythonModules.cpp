#include "core/host/PythonModules.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/host/Containers.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"

extern char** environ;

namespace tilescope::host {

namespace {

namespace fs = std::filesystem;

// os.environ: a str -> str mapping backed by the interpreter's environment.
class EnvironObject : public Object {
public:
  std::string typeName() const override { return "_Environ"; }
  std::string repr(Interpreter& in) const override {
    std::string out = "environ({";
    bool first = true;
    for (const auto& [k, v] : in.environ()) {
      out += (first ? "" : ", ") + pythonStrRepr(k) + ": " + pythonStrRepr(v);
      first = false;
    }
    return out + "})";
  }
  std::optional<Value> getItem(Interpreter& in, const Value& index) override {
    auto it = in.environ().find(in.str(index));
    if (it == in.environ().end()) throwError("KeyError", in.repr(index));
    return makeStr(it->second);
  }
  bool setItem(Interpreter& in, const Value& index, const Value& value) override {
    auto* s = value.as<StrObject>();
    if (!s) throwTypeError("str expected, not " + value.typeName());
    in.environ()[in.str(index)] = s->value;
    return true;
  }
  std::optional<bool> contains(Interpreter& in, const Value& item) override { return in.environ().count(in.str(item)) > 0; }
  std::optional<int64_t> length(Interpreter& in) const override { return static_cast<int64_t>(in.environ().size()); }
  std::optional<Value> getAttr(Interpreter&, const std::string& name) override {
    if (name == "get")
      return makeBuiltin("environ.get", "key, default=None", [](Interpreter& in, ValueList& a) {
        auto it = in.environ().find(in.str(a[0]));
        return it == in.environ().end() ? a[1] : makeStr(it->second);
      });
    if (name == "keys" || name == "items" || name == "values")
      return makeBuiltin("environ." + name, "", [name](Interpreter& in, ValueList&) {
        ValueList out;
        for (const auto& [k, v] : in.environ()) {
          if (name == "keys") out.push_back(makeStr(k));
          else if (name == "values") out.push_back(makeStr(v));
          else out.push_back(makeTuple({makeStr(k), makeStr(v)}));
        }
        return makeList(out);
      });
    if (name == "setdefault")
      return makeBuiltin("environ.setdefault", "key, value", [](Interpreter& in, ValueList& a) {
        auto [it, inserted] = in.environ().emplace(in.str(a[0]), in.str(a[1]));
        return makeStr(it->second);
      });
    return std::nullopt;
  }
};

Value makeModule(const std::string& name) { return makeObject<NamespaceObject>(name); }

void add(const Value& module, const std::string& name, Value v) { module.as<NamespaceObject>()->attrs[name] = std::move(v); }

Value mathModule(Interpreter&) {
  Value m = makeModule("math");
  add(m, "pi", Value::real(M_PI));
  add(m, "e", Value::real(M_E));
  add(m, "inf", Value::real(INFINITY));
  add(m, "nan", Value::real(NAN));
  add(m, "tau", Value::real(2 * M_PI));
  auto unary = [&](const std::string& name, double (*fn)(double), bool positiveOnly = false) {
    add(m, name, makeBuiltin("math." + name, "x", [name, fn, positiveOnly](Interpreter& in, ValueList& a) {
      const double x = in.toFloat(a[0], ("math." + name + "()").c_str());
      if (positiveOnly && x <= 0.0 && !(name == "sqrt" && x == 0.0)) throwValueError("math domain error");
      return Value::real(fn(x));
    }));
  };
  unary("sqrt", [](double x) { return std::sqrt(x); });
  unary("exp", [](double x) { return std::exp(x); });
  unary("log2", [](double x) { return std::log2(x); }, true);
  unary("log10", [](double x) { return std::log10(x); }, true);
  unary("sin", [](double x) { return std::sin(x); });
  unary("cos", [](double x) { return std::cos(x); });
  unary("tan", [](double x) { return std::tan(x); });
  unary("tanh", [](double x) { return std::tanh(x); });
  unary("fabs", [](double x) { return std::fabs(x); });
  unary("erf", [](double x) { return std::erf(x); });
  add(m, "log", makeBuiltin("math.log", "x, base=None", [](Interpreter& in, ValueList& a) {
    const double x = in.toFloat(a[0], "math.log()");
    if (x <= 0.0) throwValueError("math domain error");
    if (a[1].isNone()) return Value::real(std::log(x));
    return Value::real(std::log(x) / std::log(in.toFloat(a[1], "math.log()")));
  }));
  auto rounding = [&](const std::string& name, double (*fn)(double)) {
    add(m, name, makeBuiltin("math." + name, "x", [fn](Interpreter& in, ValueList& a) {
      if (a[0].isIntLike()) return Value::integer(a[0].asInt());
      const double r = fn(in.toFloat(a[0], "math"));
      if (std::isnan(r)) throwValueError("cannot convert float NaN to integer");
      if (std::isinf(r)) throwError("OverflowError", "cannot convert float infinity to integer");
      return Value::integer(static_cast<int64_t>(r));
    }));
  };
  rounding("ceil", [](double x) { return std::ceil(x); });
  rounding("floor", [](double x) { return std::floor(x); });
  rounding("trunc", [](double x) { return std::trunc(x); });
  add(m, "pow", makeBuiltin("math.pow", "x, y", [](Interpreter& in, ValueList& a) {
    return Value::real(std::pow(in.toFloat(a[0], "math.pow()"), in.toFloat(a[1], "math.pow()")));
  }));
  add(m, "isclose", makeBuiltin("math.isclose", "a, b, *, rel_tol=1e-09, abs_tol=0.0", [](Interpreter& in, ValueList& a) {
    const double x = in.toFloat(a[0], "isclose"), y = in.toFloat(a[1], "isclose");
    const double tol = std::max(in.toFloat(a[2], "isclose") * std::max(std::fabs(x), std::fabs(y)), in.toFloat(a[3], "isclose"));
    return Value::boolean(x == y || std::fabs(x - y) <= tol);
  }));
  for (const char* name : {"isnan", "isinf", "isfinite"}) {
    const std::string n = name;
    add(m, n, makeBuiltin("math." + n, "x", [n](Interpreter& in, ValueList& a) {
      const double x = in.toFloat(a[0], "math");
      return Value::boolean(n == "isnan" ? std::isnan(x) : n == "isinf" ? std::isinf(x) : std::isfinite(x));
    }));
  }
  add(m, "gcd", makeBuiltin("math.gcd", "a, b", [](Interpreter& in, ValueList& a) {
    int64_t x = std::llabs(in.toIndex(a[0], "gcd")), y = std::llabs(in.toIndex(a[1], "gcd"));
    while (y) {
      const int64_t t = x % y;
      x = y;
      y = t;
    }
    return Value::integer(x);
  }));
  add(m, "prod", makeBuiltin("math.prod", "iterable, *, start=1", [](Interpreter& in, ValueList& a) {
    Value r = a[1];
    for (const Value& v : in.toList(a[0])) r = in.binary(BinOp::Mul, r, v);
    return r;
  }));
  return m;
}

Value osModule(Interpreter&) {
  Value m = makeModule("os");
  add(m, "environ", makeObject<EnvironObject>());
  add(m, "getenv", makeBuiltin("os.getenv", "key, default=None", [](Interpreter& in, ValueList& a) {
    auto it = in.environ().find(in.str(a[0]));
    return it == in.environ().end() ? a[1] : makeStr(it->second);
  }));
  add(m, "sep", makeStr("/"));
  return m;
}

Value functoolsModule(Interpreter&) {
  Value m = makeModule("functools");
  add(m, "partial", makeBuiltin("functools.partial", [](Interpreter&, CallArgs& args) -> Value {
    if (args.positional.empty()) throwTypeError("type 'partial' takes at least one argument");
    if (!args.positional[0].isObject() || !args.positional[0].object()->callable()) throwTypeError("the first argument must be callable");
    auto p = std::make_shared<PartialObject>();
    p->func = args.positional[0];
    p->bound.positional.assign(args.positional.begin() + 1, args.positional.end());
    p->bound.keywords = args.keywords;
    return Value(p);
  }));
  add(m, "reduce", makeBuiltin("functools.reduce", "function, iterable, *initial", [](Interpreter& in, ValueList& a) {
    ValueList items = in.toList(a[1]);
    auto& init = a[2].as<TupleObject>()->items;
    size_t i = 0;
    Value acc;
    if (!init.empty()) acc = init[0];
    else if (items.empty()) throwTypeError("reduce() of empty iterable with no initial value");
    else acc = items[i++];
    for (; i < items.size(); ++i) acc = in.call(a[0], ValueList{acc, items[i]});
    return acc;
  }));
  return m;
}

Value timeModule(Interpreter&) {
  Value m = makeModule("time");
  auto seconds = [](auto clock) {
    return std::chrono::duration<double>(clock.time_since_epoch()).count();
  };
  add(m, "time", makeBuiltin("time.time", "", [seconds](Interpreter&, ValueList&) { return Value::real(seconds(std::chrono::system_clock::now())); }));
  add(m, "perf_counter", makeBuiltin("time.perf_counter", "", [seconds](Interpreter&, ValueList&) {
    return Value::real(seconds(std::chrono::steady_clock::now()));
  }));
  // Sleeps in slices so that the notebook's stop button (KeyboardInterrupt) still works.
  add(m, "sleep", makeBuiltin("time.sleep", "secs", [](Interpreter& in, ValueList& a) {
    if (!a[0].isNumber()) throwTypeError("time.sleep() takes a number of seconds");
    const double secs = a[0].asFloat();
    if (!(secs >= 0)) throwValueError("sleep length must be non-negative");
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(secs, 1e9)));
    while (Clock::now() < until) {
      in.checkCancelled();
      std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(20), until - Clock::now()));
    }
    return Value();
  }));
  return m;
}

Value sysModule(Interpreter&) {
  Value m = makeModule("sys");
  add(m, "stdout", makeObject<NamespaceObject>("stdout", "TextIOWrapper"));
  add(m, "stderr", makeObject<NamespaceObject>("stderr", "TextIOWrapper"));
  add(m, "version", makeStr("3.11 (tilescope host interpreter)"));
  return m;
}

Value debuggerModule(Interpreter&) {
  Value m = makeModule("IPython.core.debugger");
  add(m, "set_trace", makeBuiltin("set_trace", [](Interpreter& in, CallArgs&) {
    if (in.noteOnce("set_trace")) {
      in.writeStdout("set_trace(): interactive breakpoints are not available in tilescope; step through the programs of a "
                     "launch in the visualizer instead (program stepping)\n");
    }
    return Value();
  }));
  return m;
}

Value tritonUtilModule(Interpreter& in) {
  const std::optional<std::string> path = findHostResource("triton_util.py");
  if (!path) {
    throw PyError("ModuleNotFoundError", "No module named 'triton_util': tilescope ships it as resources/host/triton_util.py, "
                                         "which was not found (set TILESCOPE_RESOURCE_DIR to the resources folder)");
  }
  std::ifstream f(*path);
  std::stringstream text;
  text << f.rdbuf();
  // A module has its own globals: run the source in a fresh namespace and export what it defines.
  auto scope = std::make_shared<Scope>();
  scope->assign("__name__", makeStr("triton_util"));
  in.runModule(std::make_shared<lang::SourceFile>(*path, text.str()), scope);
  auto module = std::make_shared<NamespaceObject>("triton_util");
  for (const auto& [k, v] : scope->variables()) module->attrs[k] = v;
  return Value(module);
}

}  // namespace

std::optional<std::string> findHostResource(const std::string& name) {
  std::vector<fs::path> roots;
  if (const char* dir = std::getenv("TILESCOPE_RESOURCE_DIR")) roots.emplace_back(dir);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path bin = exe.parent_path();
    for (const char* rel : {"../resources", "../../resources", "../share/tilescope", "../../share/tilescope", "resources"})
      roots.push_back(bin / rel);
  }
  // The source tree this binary was built from.
  roots.emplace_back(TILESCOPE_SOURCE_RESOURCE_DIR);
  for (const fs::path& root : roots) {
    const fs::path candidate = root / "host" / name;
    if (fs::is_regular_file(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return std::nullopt;
}

void installPythonModules(Interpreter& in) {
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const size_t eq = kv.find('=');
    if (eq != std::string::npos) in.environ()[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  in.registerModule("math", mathModule);
  in.registerModule("os", osModule);
  in.registerModule("functools", functoolsModule);
  in.registerModule("time", timeModule);
  in.registerModule("sys", sysModule);
  in.registerModule("IPython", [](Interpreter&) { return makeModule("IPython"); });
  in.registerModule("IPython.core", [](Interpreter&) { return makeModule("IPython.core"); });
  in.registerModule("IPython.core.debugger", debuggerModule);
  in.registerModule("triton_util", tritonUtilModule);
}

}  // namespace tilescope::host
