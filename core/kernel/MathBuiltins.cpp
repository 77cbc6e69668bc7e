// Elementwise math: tl.exp & co (with Triton's dtype lists), fdiv, div_rn, fma, umulhi, maximum,
// minimum, where, clamp, and the jit-library functions cdiv and swizzle2d lowered to the integer
// arithmetic of Triton's own implementation.
#include <limits>

#include "core/kernel/BuiltinRegistry.h"
#include "core/kernel/Emitter.h"

namespace tilescope::lang {

namespace {

using builtin::tensorArg;

ir::Expr mathOperand(ExprChecker& ec, const BoundArgs& a, const std::string& param, ir::MathFn fn) {
  ir::Expr x = tensorArg(ec, a, param);
  if (x.type().isPointer()) ec.error(a.range(param), a.name() + " needs values, not pointers (" + x.type().str() + ")");
  if (std::string err = ir::mathDTypeError(fn, x.type().dtype()); !err.empty()) ec.error(a.range(param), err);
  return x;
}

void addUnaryMath(BuiltinRegistry& r, const std::string& name, ir::MathFn fn) {
  r.add(name, "x", [fn](ExprChecker& ec, const BoundArgs& a) {
    ir::Expr x = mathOperand(ec, a, "x", fn);
    return Value::ofTensor(ir::MathCall::make(fn, {x}, a.callRange()));
  });
}

// Promotes several operands to their common dtype and shape (Triton's binary_op_type_legalization).
std::vector<ir::Expr> legalize(ExprChecker& ec, const BoundArgs& a, const std::vector<std::string>& params, bool divOrMod) {
  ir::Operand acc = ec.operandOf(a.get(params[0]), a.range(params[0]), a.name() + " " + params[0]);
  for (size_t i = 1; i < params.size(); ++i) {
    ir::Operand next = ec.operandOf(a.get(params[i]), a.range(params[i]), a.name() + " " + params[i]);
    if (acc.isPointer || next.isPointer) ec.error(a.callRange(), a.name() + " needs values, not pointers");
    auto dt = ir::computationDType(acc, next, divOrMod);
    if (!dt) ec.error(a.callRange(), dt.error());
    const bool bothLiteral = acc.isLiteral && next.isLiteral;
    acc = ir::Operand::tensor(*dt);
    acc.isLiteral = bothLiteral;
  }
  std::vector<ir::Expr> out;
  ir::Shape shape;
  for (const std::string& p : params) {
    out.push_back(ec.tensorAs(a.get(p), acc.dtype, a.range(p), a.name() + " " + p));
    auto s = ir::broadcastShapes(shape, out.back().type().shape());
    if (!s) ec.error(a.callRange(), s.error());
    shape = *s;
  }
  for (ir::Expr& e : out) e = Emitter::broadcastTo(e, shape, a.callRange());
  return out;
}

bool propagateNanArg(ExprChecker& ec, const BoundArgs& a) {
  if (!a.given("propagate_nan")) return false;
  const Value& v = a.get("propagate_nan");
  if (v.isConst() && v.constant.isString()) {
    if (v.constant.asString() == "PropagateNan.ALL") return true;
    if (v.constant.asString() == "PropagateNan.NONE") return false;
  }
  ec.error(a.range("propagate_nan"), "propagate_nan must be tl.PropagateNan.ALL or tl.PropagateNan.NONE");
}

// cdiv(x, div) = (x + div - 1) // div, on constexprs with Python semantics, else on tensors.
Value cdiv(ExprChecker& ec, const Value& x, const Value& div, SourceRange r) {
  const Value one = Value::ofConst(ConstValue::integer(1));
  Value t = ec.binary(ir::BinaryOp::Add, x, div, r);
  t = ec.binary(ir::BinaryOp::Sub, t, one, r);
  return ec.binary(ir::BinaryOp::Div, t, div, r);
}

// Binds a tensor intermediate to a named Let so the IR mirrors Triton's swizzle2d source.
Value named(ExprChecker& ec, const std::string& name, const Value& v, SourceRange r) {
  if (!v.isTensor()) return v;
  ir::Expr ref = ec.emitter().let(name, v.expr, r);
  ec.ctx().letValues[ref.as<ir::VarRef>()->var.get()] = v.expr;
  return Value::ofTensor(ref);
}

Value swizzle2d(ExprChecker& ec, const BoundArgs& a) {
  const SourceRange r = a.callRange();
  for (const char* p : {"i", "j", "size_i", "size_j", "size_g"}) {
    const Value& v = a.get(p);
    const bool integral = (v.isConst() && v.constant.isIntegral()) || (v.isTensor() && v.expr.type().isInt());
    if (!integral) ec.error(a.range(p), "tl.swizzle2d needs integer arguments; " + builtin::describeArg(a, p));
  }
  using ir::BinaryOp;
  const Value &i = a.get("i"), &j = a.get("j"), &sizeI = a.get("size_i"), &sizeJ = a.get("size_j");
  Value sizeG = a.get("size_g");
  // Same steps as triton.language.standard.swizzle2d.
  Value ij = named(ec, "ij", ec.binary(BinaryOp::Add, ec.binary(BinaryOp::Mul, i, sizeJ, r), j, r), r);
  Value sizeGJ = named(ec, "size_gj", ec.binary(BinaryOp::Mul, sizeG, sizeJ, r), r);
  Value groupId = named(ec, "group_id", ec.binary(BinaryOp::Div, ij, sizeGJ, r), r);
  Value offI = named(ec, "off_i", ec.binary(BinaryOp::Mul, groupId, sizeG, r), r);
  sizeG = named(ec, "size_g", ec.minMax(false, ec.binary(BinaryOp::Sub, sizeI, offI, r), sizeG, false, r), r);
  ij = named(ec, "ij", ec.binary(BinaryOp::Mod, ij, sizeGJ, r), r);
  Value newI = ec.binary(BinaryOp::Add, offI, ec.binary(BinaryOp::Mod, ij, sizeG, r), r);
  Value newJ = ec.binary(BinaryOp::Div, ij, sizeG, r);
  return Value::ofTuple({newI, newJ});
}

// libdevice's classification functions (isnan, isinf, isfinited, finitef, signbit): int32 0 or 1
// of an fp32/fp64 operand, composed of comparisons as CUDA defines them.
void addClassification(BuiltinRegistry& r, const std::string& name, bool fp32Only, bool fp64Only) {
  r.add("libdevice." + name, "arg0", [name, fp32Only, fp64Only](ExprChecker& ec, const BoundArgs& a) {
    const ir::Expr x = tensorArg(ec, a, "arg0");
    const ir::DType t = x.type().dtype();
    const bool ok = x.type().isPointer() ? false : fp32Only ? t == ir::DType::FP32 : fp64Only ? t == ir::DType::FP64 : t == ir::DType::FP32 || t == ir::DType::FP64;
    if (!ok)
      ec.error(a.range("arg0"), "libdevice." + name + " expects " + (fp32Only ? "fp32" : fp64Only ? "fp64" : "fp32 or fp64") + " (got " +
                                    x.type().str() + ")");
    const SourceRange r = a.callRange();
    const Value v = Value::ofTensor(x);
    const Value inf = Value::ofConst(ConstValue::floating(std::numeric_limits<double>::infinity()));
    const Value absV = Value::ofTensor(ir::MathCall::make(ir::MathFn::Abs, {x}, r));
    Value b;
    if (name == "isnan") b = ec.compare(ir::BinaryOp::Ne, v, v, r);
    else if (name == "isinf") b = ec.compare(ir::BinaryOp::Eq, absV, inf, r);
    else if (name == "signbit") {
      const ir::DType bits = t == ir::DType::FP32 ? ir::DType::I32 : ir::DType::I64;
      b = ec.compare(ir::BinaryOp::Lt, Value::ofTensor(ir::Cast::make(x, bits, false, true, ir::RoundingMode::None, r)),
                     Value::ofConst(ConstValue::integer(0)), r);
    } else {
      b = ec.compare(ir::BinaryOp::Lt, absV, inf, r);  // isfinited, finitef: NaN is not finite
    }
    return Value::ofTensor(Emitter::cast(ec.tensorOf(b, r, name), ir::DType::I32, r));
  });
}

}  // namespace

void registerMathBuiltins(BuiltinRegistry& r) {
  using ir::MathFn;
  const std::pair<const char*, MathFn> unary[] = {
      {"tl.exp", MathFn::Exp},     {"tl.exp2", MathFn::Exp2},       {"tl.log", MathFn::Log},     {"tl.log2", MathFn::Log2},
      {"tl.sqrt", MathFn::Sqrt},   {"tl.sqrt_rn", MathFn::SqrtRn},  {"tl.rsqrt", MathFn::Rsqrt}, {"tl.abs", MathFn::Abs},
      {"tl.sin", MathFn::Sin},     {"tl.cos", MathFn::Cos},         {"tl.floor", MathFn::Floor}, {"tl.ceil", MathFn::Ceil},
      {"tl.erf", MathFn::Erf},     {"tl.sigmoid", MathFn::Sigmoid}, {"tl.math.tanh", MathFn::Tanh},
  };
  for (const auto& [name, fn] : unary) addUnaryMath(r, name, fn);

  // libdevice's own functions, reached as libdevice.<name> only (Builtins.cpp's libdeviceNames).
  for (int f = static_cast<int>(MathFn::Acos); f <= static_cast<int>(MathFn::Rhypot); ++f) {
    const MathFn fn = static_cast<MathFn>(f);
    const std::string name = "libdevice." + std::string(ir::mathFnName(fn));
    if (ir::mathFnArity(fn) == 1) {
      addUnaryMath(r, name, fn);
      continue;
    }
    r.add(name, "x, y", [fn](ExprChecker& ec, const BoundArgs& a) {
      auto ops = legalize(ec, a, {"x", "y"}, false);
      if (std::string err = ir::mathDTypeError(fn, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
      return Value::ofTensor(ir::MathCall::make(fn, ops, a.callRange()));
    });
  }

  addClassification(r, "isnan", false, false);
  addClassification(r, "isinf", false, false);
  addClassification(r, "signbit", false, false);
  addClassification(r, "finitef", true, false);
  addClassification(r, "isfinited", false, true);
  // rcp_rn: the correctly rounded reciprocal, IEEE division in the simulator and on the GPU.
  r.add("libdevice.rcp_rn", "arg0", [](ExprChecker& ec, const BoundArgs& a) {
    const ir::Expr x = tensorArg(ec, a, "arg0");
    if (x.type().isPointer() || (x.type().dtype() != ir::DType::FP32 && x.type().dtype() != ir::DType::FP64))
      ec.error(a.range("arg0"), "libdevice.rcp_rn expects fp32 or fp64 (got " + x.type().str() + ")");
    return ec.binary(ir::BinaryOp::TrueDiv, Value::ofConst(ConstValue::floating(1.0)), Value::ofTensor(x), a.callRange());
  });
  // llrint / llround: rint / round, then the exact integer as int64.
  for (const auto& [name, fn] : {std::pair<const char*, ir::MathFn>{"llrint", ir::MathFn::Rint}, {"llround", ir::MathFn::Round}}) {
    r.add(std::string("libdevice.") + name, "arg0", [fn](ExprChecker& ec, const BoundArgs& a) {
      const ir::Expr x = mathOperand(ec, a, "arg0", fn);
      return Value::ofTensor(Emitter::cast(ir::MathCall::make(fn, {x}, a.callRange()), ir::DType::I64, a.callRange()));
    });
  }

  r.add("tl.fdiv", "x, y, ieee_rounding=False", [](ExprChecker& ec, const BoundArgs& a) {
    for (const char* p : {"x", "y"}) {
      ir::Expr e = tensorArg(ec, a, p);
      if (!e.type().isFloat()) ec.error(a.range(p), "tl.fdiv needs floating-point operands; " + builtin::describeArg(a, p));
    }
    auto ops = legalize(ec, a, {"x", "y"}, true);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::FDiv, ops, a.callRange()));
  });
  r.add("tl.div_rn", "x, y", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::DivRn, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::DivRn, ops, a.callRange()));
  });
  r.add("tl.fma", "x, y, z", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y", "z"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::Fma, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::Fma, ops, a.callRange()));
  });
  r.add("tl.umulhi", "x, y", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "y"}, false);
    if (std::string err = ir::mathDTypeError(ir::MathFn::Umulhi, ops[0].type().dtype()); !err.empty()) ec.error(a.callRange(), err);
    return Value::ofTensor(ir::MathCall::make(ir::MathFn::Umulhi, ops, a.callRange()));
  });
  r.add("tl.maximum", "x, y, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.minMax(true, a.get("x"), a.get("y"), propagateNanArg(ec, a), a.callRange());
  });
  r.add("tl.minimum", "x, y, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.minMax(false, a.get("x"), a.get("y"), propagateNanArg(ec, a), a.callRange());
  });
  r.add("tl.where", "condition, x, y", [](ExprChecker& ec, const BoundArgs& a) {
    return ec.select(a.get("condition"), a.get("x"), a.get("y"), a.callRange());
  });
  r.add("tl.clamp", "x, min, max, propagate_nan=None", [](ExprChecker& ec, const BoundArgs& a) {
    auto ops = legalize(ec, a, {"x", "min", "max"}, false);
    if (!ops[0].type().isFloat())
      ec.error(a.callRange(), "tl.clamp supports floating-point values only (got " + ops[0].type().str() +
                                  "); use tl.minimum(tl.maximum(x, lo), hi) for integers");
    const bool nan = propagateNanArg(ec, a);
    // clamp(x, lo, hi) = min(max(x, lo), hi), with the same NaN rule for both.
    ir::Expr lo = ir::Binary::make(ir::BinaryOp::Max, ops[0], ops[1], a.callRange(), nan);
    return Value::ofTensor(ir::Binary::make(ir::BinaryOp::Min, lo, ops[2], a.callRange(), nan));
  });
  // Triton 3.6's function forms of + - * (sanitize_overflow checks only in Triton's debug mode).
  for (const auto& [name, op] : {std::pair{"tl.add", ir::BinaryOp::Add}, std::pair{"tl.sub", ir::BinaryOp::Sub},
                                 std::pair{"tl.mul", ir::BinaryOp::Mul}}) {
    r.add(name, "x, y, sanitize_overflow=True", [op = op](ExprChecker& ec, const BoundArgs& a) {
      return ec.binary(op, a.get("x"), a.get("y"), a.callRange());
    });
  }
  r.add("tl.cdiv", "x, div", [](ExprChecker& ec, const BoundArgs& a) { return cdiv(ec, a.get("x"), a.get("div"), a.callRange()); });
  r.add("tl.swizzle2d", "i, j, size_i, size_j, size_g", swizzle2d);
}

}  // namespace tilescope::lang
