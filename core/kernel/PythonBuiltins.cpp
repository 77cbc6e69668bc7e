// Python builtins Triton allows inside kernels (min, max, float, int, bool, len, abs, print) and the
// host-side triton.* helpers that work on constexprs (triton.cdiv, triton.next_power_of_2).
#include <cmath>
#include <cstdlib>

#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

// min()/max(): Python semantics on constexprs; Triton maps them to tl.minimum/maximum otherwise.
Value minMaxBuiltin(ExprChecker& ec, const BoundArgs& a, bool isMax) {
  ValueList items = a.rest();
  std::vector<SourceRange> ranges = a.restRanges();
  if (items.size() == 1 && items[0].isTuple()) {
    ValueList inner = items[0].elements;
    ranges.assign(inner.size(), ranges[0]);
    items = std::move(inner);
  }
  if (items.empty()) ec.error(a.callRange(), a.name() + "() expected at least 1 argument, got 0");
  Value acc = items[0];
  for (size_t i = 1; i < items.size(); ++i) acc = ec.minMax(isMax, acc, items[i], false, a.callRange());
  return acc;
}

Value hostOnly(ExprChecker& ec, const BoundArgs& a) {
  ec.error(a.callRange(), a.name() + " runs on the host; it cannot be used inside a @triton.jit function");
}

}  // namespace

void registerPythonBuiltins(BuiltinRegistry& r) {
  r.add("min", "*args", [](ExprChecker& ec, const BoundArgs& a) { return minMaxBuiltin(ec, a, false); });
  r.add("max", "*args", [](ExprChecker& ec, const BoundArgs& a) { return minMaxBuiltin(ec, a, true); });
  r.add("float", "x=0.0", [](ExprChecker& ec, const BoundArgs& a) {
    if (!a.has("x")) return Value::ofConst(ConstValue::floating(0.0));
    const Value& v = a.get("x");
    if (v.isConst() && v.constant.isString()) {
      std::string s = v.constant.asString();
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      while (!s.empty() && s.front() == ' ') s.erase(s.begin());
      while (!s.empty() && s.back() == ' ') s.pop_back();
      const bool neg = !s.empty() && s.front() == '-';
      const std::string body = (neg || (!s.empty() && s.front() == '+')) ? s.substr(1) : s;
      if (body == "inf" || body == "infinity") return Value::ofConst(ConstValue::floating(neg ? -INFINITY : INFINITY));
      if (body == "nan") return Value::ofConst(ConstValue::floating(NAN));
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      if (end && *end == '\0' && !s.empty()) return Value::ofConst(ConstValue::floating(d));
      ec.error(a.range("x"), "could not convert string to float: '" + v.constant.asString() + "'");
    }
    if (v.isNumber()) return Value::ofConst(ConstValue::floating(v.constant.toDouble()));
    ec.error(a.range("x"), "float() works on constexprs only; convert a tensor with x.to(tl.float32)");
  });
  r.add("int", "x=0", [](ExprChecker& ec, const BoundArgs& a) {
    if (!a.has("x")) return Value::ofConst(ConstValue::integer(0));
    const Value& v = a.get("x");
    if (v.isConst() && v.constant.isFloat()) {
      const double d = v.constant.asFloat();
      if (!std::isfinite(d) || std::fabs(d) > 9.2e18) ec.error(a.range("x"), "cannot convert " + v.constant.repr() + " to an integer");
      return Value::ofConst(ConstValue::integer(static_cast<int64_t>(d)));
    }
    if (v.isConst() && v.constant.isIntegral()) return Value::ofConst(ConstValue::integer(v.constant.toInt()));
    if (v.isConst() && v.constant.isString()) {
      char* end = nullptr;
      const long long n = std::strtoll(v.constant.asString().c_str(), &end, 10);
      if (end && *end == '\0' && !v.constant.asString().empty()) return Value::ofConst(ConstValue::integer(n));
      ec.error(a.range("x"), "invalid literal for int(): '" + v.constant.asString() + "'");
    }
    ec.error(a.range("x"), "int() works on constexprs only; convert a tensor with x.to(tl.int32)");
  });
  r.add("bool", "x=False", [](ExprChecker& ec, const BoundArgs& a) {
    if (!a.has("x")) return Value::ofConst(ConstValue::boolean(false));
    const Value& v = a.get("x");
    if (v.isConst()) return Value::ofConst(ConstValue::boolean(v.constant.truthy()));
    if (v.isTuple()) return Value::ofConst(ConstValue::boolean(!v.elements.empty()));
    ec.error(a.range("x"), "bool() works on constexprs only; compare a tensor instead, e.g. x != 0");
  });
  r.add("len", "obj", [](ExprChecker& ec, const BoundArgs& a) {
    const Value& v = a.get("obj");
    if (v.isTuple()) return Value::ofConst(ConstValue::integer(static_cast<int64_t>(v.elements.size())));
    if (v.isConst() && v.constant.isString()) return Value::ofConst(ConstValue::integer(static_cast<int64_t>(v.constant.asString().size())));
    ec.error(a.range("obj"), "len() needs a tuple, not " + v.describe() + (v.isTensor() ? "; use x.shape[0]" : ""));
  });
  r.add("abs", "x", [](ExprChecker& ec, const BoundArgs& a) {
    const Value& v = a.get("x");
    if (v.isNumber()) {
      if (v.constant.isFloat()) return Value::ofConst(ConstValue::floating(std::fabs(v.constant.asFloat())));
      const int64_t n = v.constant.toInt();
      return Value::ofConst(ConstValue::integer(n < 0 ? -n : n));
    }
    ir::Expr x = builtin::tensorArg(ec, a, "x");
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::Abs, {x}, a.callRange()));
  });
  r.add("range", "*args", hostOnly);  // only as a for-loop iterable; see FunctionChecker
  r.add("print", "*args, sep=None, end=None, file=None, flush=False", [](ExprChecker& ec, const BoundArgs& a) {
    for (const char* kw : {"sep", "end", "file"})
      if (a.given(kw)) ec.error(a.range(kw), std::string("print() inside a kernel does not support '") + kw + "'");
    const ValueList& items = a.rest();
    bool hasFormat = false;
    for (const Value& v : items) hasFormat |= v.kind == Value::Kind::Format;
    if (hasFormat) {
      // f-strings with runtime fields: the interpreter formats them like Python on the host.
      std::vector<ir::HostArg> args;
      for (size_t i = 0; i < items.size(); ++i) {
        const Value& v = items[i];
        if (v.kind == Value::Kind::Format) args.push_back(ir::HostArg::ofFormat(v.parts));
        else if (v.isTensor()) args.push_back(ir::HostArg::ofValue(v.expr));
        else if (v.isConst()) args.push_back(ir::HostArg::ofConstant(v.constant.toIR()));
        else ec.error(a.restRanges()[i], "cannot print " + v.describe());
      }
      ec.emitter().emit(ir::HostCall::make("print", std::move(args), {}, a.callRange()));
      return Value::ofConst(ConstValue::none());
    }
    std::string prefix;
    std::vector<ir::Expr> args;
    for (size_t i = 0; i < items.size(); ++i) {
      const Value& v = items[i];
      if (i == 0 && v.isConst() && v.constant.isString()) {
        prefix = v.constant.asString();
        continue;
      }
      args.push_back(ec.tensorOf(v, a.restRanges()[i], "a print() argument"));
    }
    ec.emitter().emit(ir::Print::make(prefix, std::move(args), false, false, a.callRange()));
    return Value::ofConst(ConstValue::none());
  });
  r.add("triton.cdiv", "x, y", [](ExprChecker& ec, const BoundArgs& a) {
    const int64_t x = ec.requireConstInt(a.get("x"), a.range("x"), "triton.cdiv's x (use tl.cdiv for tensors)");
    const int64_t y = ec.requireConstInt(a.get("y"), a.range("y"), "triton.cdiv's y (use tl.cdiv for tensors)");
    if (y == 0) ec.error(a.range("y"), "triton.cdiv by zero");
    std::string err;
    auto v = foldBinary(ConstOp::FloorDiv, ConstValue::integer(x + y - 1), ConstValue::integer(y), err);
    return Value::ofConst(*v);
  });
  r.add("triton.next_power_of_2", "n", [](ExprChecker& ec, const BoundArgs& a) {
    const int64_t n = ec.requireConstInt(a.get("n"), a.range("n"), "triton.next_power_of_2's argument");
    return Value::ofConst(ConstValue::integer(ir::nextPowerOf2(n)));
  });
  for (const char* name : {"triton.jit", "triton.autotune", "triton.heuristics", "triton.Config"}) r.add(name, "*args", hostOnly);
}

}  // namespace tilescope::lang
