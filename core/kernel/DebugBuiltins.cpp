// Debugging and compiler hints: tl.device_print, static_print, static_assert, device_assert,
// debug_barrier, assume, multiple_of, max_contiguous, max_constancy.
#include "core/kernel/BuiltinRegistry.h"

namespace tilescope::lang {

namespace {

std::string staticText(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Const: return v.constant.str();
    case Value::Kind::Tensor: return v.expr.type().str();
    case Value::Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < v.elements.size(); ++i) s += (i ? ", " : "") + staticText(v.elements[i]);
      return s + (v.elements.size() == 1 ? ",)" : ")");
    }
    default: return v.describe();
  }
}

Value hint(ExprChecker& ec, const BoundArgs& a, ir::HintKind kind) {
  const Value& input = a.get("input");
  std::vector<int64_t> values;
  const Value& vv = a.get("values");
  if (vv.isTuple()) {
    for (const Value& v : vv.elements) values.push_back(ec.requireConstInt(v, a.range("values"), a.name() + " values"));
  } else {
    values.push_back(ec.requireConstInt(vv, a.range("values"), a.name() + " values"));
  }
  for (int64_t v : values)
    if (v <= 0) ec.error(a.range("values"), a.name() + " values must be positive");
  // A hint on a constexpr has nothing to annotate (Triton only hints tensors).
  if (input.isConst()) return input;
  ir::Expr x = builtin::tensorArg(ec, a, "input");
  const size_t want = kind == ir::HintKind::MultipleOf ? std::max<size_t>(1, x.type().rank()) : x.type().rank();
  if (values.size() != want)
    ec.error(a.range("values"), a.name() + " needs " + std::to_string(want) + " value" + (want == 1 ? "" : "s") +
                                    " for " + x.type().str() + ", got " + std::to_string(values.size()));
  return Value::ofTensor(ir::Hint::make(kind, x, std::move(values), a.callRange()));
}

}  // namespace

void registerDebugBuiltins(BuiltinRegistry& r) {
  r.add("tl.device_print", "prefix, *args, hex=False", [](ExprChecker& ec, const BoundArgs& a) {
    const std::string prefix = ec.requireConstString(a.get("prefix"), a.range("prefix"), "tl.device_print prefix");
    std::vector<ir::Expr> args;
    for (size_t i = 0; i < a.rest().size(); ++i) args.push_back(ec.tensorOf(a.rest()[i], a.restRanges()[i], "a tl.device_print argument"));
    const bool hex = a.given("hex") && ec.requireConstBool(a.get("hex"), a.range("hex"), "hex");
    ec.emitter().emit(ir::Print::make(prefix, std::move(args), hex, true, a.callRange()));
    return Value::ofConst(ConstValue::none());
  });
  r.add("tl.static_print", "*values, sep=None, end=None, file=None, flush=False", [](ExprChecker& ec, const BoundArgs& a) {
    std::string text;
    for (size_t i = 0; i < a.rest().size(); ++i) text += (i ? " " : "") + staticText(a.rest()[i]);
    ec.ctx().note(a.callRange(), "static_print: " + text);
    return Value::ofConst(ConstValue::none());
  });
  r.add("tl.static_assert", "cond, msg=''", [](ExprChecker& ec, const BoundArgs& a) {
    const Value& cond = a.get("cond");
    if (!cond.isConst())
      ec.error(a.range("cond"), "tl.static_assert needs a constexpr condition, but " + builtin::describeArg(a, "cond") +
                                    "; use tl.device_assert for runtime checks");
    if (!cond.constant.truthy()) {
      std::string msg = a.given("msg") ? ec.requireConstString(a.get("msg"), a.range("msg"), "the message") : "";
      ec.error(a.callRange(), "static_assert failed" + (msg.empty() ? std::string() : ": " + msg));
    }
    return Value::ofConst(ConstValue::none());
  });
  r.add("tl.device_assert", "cond, msg='', mask=None", [](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr cond = ec.toBool(builtin::tensorArg(ec, a, "cond"), a.range("cond"));
    const std::string msg = a.given("msg") ? ec.requireConstString(a.get("msg"), a.range("msg"), "the message") : "";
    if (a.given("mask")) {
      // Lanes outside the mask pass: cond | ~mask.
      ir::Expr mask = ec.toBool(builtin::tensorArg(ec, a, "mask"), a.range("mask"));
      auto [c, m] = ec.broadcastPair(cond, mask, a.callRange());
      cond = ir::Binary::make(ir::BinaryOp::Or, c, ir::Unary::make(ir::UnaryOp::Invert, m, a.callRange()), a.callRange());
    }
    ec.emitter().emit(ir::Assert::make(cond, msg, a.callRange()));
    return Value::ofConst(ConstValue::none());
  });
  // A promise to the compiler (Triton turns it into llvm.assume): checked for type, then dropped;
  // nothing tilescope generates relies on it.
  r.add("tl.assume", "cond", [](ExprChecker& ec, const BoundArgs& a) {
    const Value& cond = a.get("cond");
    if (cond.isConst()) {
      if (!cond.constant.truthy()) ec.error(a.range("cond"), "tl.assume of a condition that is always false");
    } else {
      ec.toBool(builtin::tensorArg(ec, a, "cond"), a.range("cond"));
    }
    return Value::ofConst(ConstValue::none());
  });
  r.add("tl.debug_barrier", "", [](ExprChecker& ec, const BoundArgs& a) {
    ec.emitter().emit(ir::Barrier::make(a.callRange()));
    return Value::ofConst(ConstValue::none());
  });
  r.add("tl.multiple_of", "input, values", [](ExprChecker& ec, const BoundArgs& a) { return hint(ec, a, ir::HintKind::MultipleOf); });
  r.add("tl.max_contiguous", "input, values",
        [](ExprChecker& ec, const BoundArgs& a) { return hint(ec, a, ir::HintKind::MaxContiguous); });
  r.add("tl.max_constancy", "input, values",
        [](ExprChecker& ec, const BoundArgs& a) { return hint(ec, a, ir::HintKind::MaxConstancy); });
}

}  // namespace tilescope::lang
