#include "core/kernel/ConstValue.h"

#include <cmath>
#include <limits>

#include "core/base/FloorDivMod.h"

namespace tilescope::lang {

namespace {

bool addOverflows(int64_t a, int64_t b, int64_t& out) { return __builtin_add_overflow(a, b, &out); }
bool subOverflows(int64_t a, int64_t b, int64_t& out) { return __builtin_sub_overflow(a, b, &out); }
bool mulOverflows(int64_t a, int64_t b, int64_t& out) { return __builtin_mul_overflow(a, b, &out); }

}  // namespace

double ConstValue::toDouble() const {
  if (isFloat()) return asFloat();
  return static_cast<double>(toInt());
}

bool ConstValue::truthy() const {
  if (isNone()) return false;
  if (isBool()) return asBool();
  if (isInt()) return asInt() != 0;
  if (isFloat()) return asFloat() != 0.0;
  if (isString()) return !asString().empty();
  return true;
}

std::string ConstValue::typeName() const {
  if (isNone()) return "NoneType";
  if (isBool()) return "bool";
  if (isInt()) return "int";
  if (isFloat()) return "float";
  if (isString()) return "str";
  return asDType().isPointer ? "pointer_type" : "dtype";
}

std::string ConstValue::repr() const {
  if (isDType()) {
    const DTypeValue& d = asDType();
    if (d.isPointer) return "pointer<" + std::string(ir::dtypeName(d.dtype)) + ">";
    return "triton.language." + std::string(ir::dtypePythonName(d.dtype));
  }
  return toIR().repr();
}

std::string ConstValue::str() const {
  if (isString()) return asString();
  if (isDType()) {
    const DTypeValue& d = asDType();
    const std::string n(ir::dtypeName(d.dtype));
    return d.isPointer ? "pointer<" + n + ">" : n;
  }
  return repr();
}

ir::Constant ConstValue::toIR() const {
  if (isNone()) return ir::Constant();
  if (isBool()) return ir::Constant(asBool());
  if (isInt()) return ir::Constant(asInt());
  if (isFloat()) return ir::Constant(asFloat());
  if (isString()) return ir::Constant(asString());
  return ir::Constant(asDType().dtype);
}

bool operator==(const ConstValue& a, const ConstValue& b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) return a.toDouble() == b.toDouble();
    return a.toInt() == b.toInt();
  }
  return a.v_ == b.v_;
}

std::optional<ConstValue> foldBinary(ConstOp op, const ConstValue& a, const ConstValue& b, std::string& error) {
  auto unsupported = [&](const char* sym) -> std::optional<ConstValue> {
    error = "unsupported operand types for " + std::string(sym) + ": '" + a.typeName() + "' and '" + b.typeName() + "'";
    return std::nullopt;
  };
  auto overflow = [&]() -> std::optional<ConstValue> {
    error = "integer overflow in a constexpr expression (tilescope folds constexpr ints in 64 bits)";
    return std::nullopt;
  };
  if (a.isString() && b.isString() && op == ConstOp::Add) return ConstValue::string(a.asString() + b.asString());
  if (a.isString() && b.isIntegral() && op == ConstOp::Mul) {
    std::string out;
    for (int64_t i = 0; i < b.toInt(); ++i) out += a.asString();
    return ConstValue::string(out);
  }
  static const char* const kSyms[] = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"};
  const char* sym = kSyms[static_cast<int>(op)];
  if (!a.isNumber() || !b.isNumber()) return unsupported(sym);

  const bool bothIntegral = a.isIntegral() && b.isIntegral();
  switch (op) {
    case ConstOp::BitAnd:
    case ConstOp::BitOr:
    case ConstOp::BitXor: {
      if (!bothIntegral) return unsupported(sym);
      const int64_t x = a.toInt(), y = b.toInt();
      const int64_t r = op == ConstOp::BitAnd ? (x & y) : op == ConstOp::BitOr ? (x | y) : (x ^ y);
      // bool op bool stays bool in Python.
      if (a.isBool() && b.isBool()) return ConstValue::boolean(r != 0);
      return ConstValue::integer(r);
    }
    case ConstOp::LShift:
    case ConstOp::RShift: {
      if (!bothIntegral) return unsupported(sym);
      const int64_t x = a.toInt(), y = b.toInt();
      if (y < 0) {
        error = "negative shift count";
        return std::nullopt;
      }
      if (op == ConstOp::RShift) return ConstValue::integer(y >= 64 ? (x < 0 ? -1 : 0) : (x >> y));
      if (y >= 63 || (x != 0 && (std::llabs(x) >> (63 - y)) != 0)) return overflow();
      return ConstValue::integer(x * (int64_t{1} << y));
    }
    default: break;
  }

  if (op == ConstOp::TrueDiv) {
    if (b.toDouble() == 0.0) {
      error = "division by zero in a constexpr expression";
      return std::nullopt;
    }
    return ConstValue::floating(a.toDouble() / b.toDouble());
  }

  if (bothIntegral) {
    const int64_t x = a.toInt(), y = b.toInt();
    int64_t r = 0;
    switch (op) {
      case ConstOp::Add:
        if (addOverflows(x, y, r)) return overflow();
        return ConstValue::integer(r);
      case ConstOp::Sub:
        if (subOverflows(x, y, r)) return overflow();
        return ConstValue::integer(r);
      case ConstOp::Mul:
        if (mulOverflows(x, y, r)) return overflow();
        return ConstValue::integer(r);
      case ConstOp::FloorDiv:
      case ConstOp::Mod:
        if (y == 0) {
          error = std::string(op == ConstOp::Mod ? "modulo" : "integer division") + " by zero in a constexpr expression";
          return std::nullopt;
        }
        if (op == ConstOp::FloorDiv && x == std::numeric_limits<int64_t>::min() && y == -1) return overflow();
        {
          const auto [q, m] = util::floorDivMod<int64_t>(x, y);
          return ConstValue::integer(op == ConstOp::FloorDiv ? q : m);
        }
      case ConstOp::Pow: {
        if (y < 0) return ConstValue::floating(std::pow(static_cast<double>(x), static_cast<double>(y)));
        int64_t acc = 1;
        for (int64_t i = 0; i < y; ++i) {
          if (mulOverflows(acc, x, acc)) return overflow();
          if (acc == 0 || acc == 1) break;  // further multiplications change nothing (x is 0 or 1)
        }
        if (acc == 1 && x == -1) acc = (y % 2 == 0) ? 1 : -1;
        return ConstValue::integer(acc);
      }
      default: break;
    }
  }
  const double x = a.toDouble(), y = b.toDouble();
  switch (op) {
    case ConstOp::Add: return ConstValue::floating(x + y);
    case ConstOp::Sub: return ConstValue::floating(x - y);
    case ConstOp::Mul: return ConstValue::floating(x * y);
    case ConstOp::FloorDiv:
      if (y == 0) {
        error = "float floor division by zero in a constexpr expression";
        return std::nullopt;
      }
      return ConstValue::floating(util::floorDivMod<double>(x, y).quotient);
    case ConstOp::Mod:
      if (y == 0) {
        error = "float modulo by zero in a constexpr expression";
        return std::nullopt;
      }
      return ConstValue::floating(util::floorDivMod<double>(x, y).remainder);
    case ConstOp::Pow: return ConstValue::floating(std::pow(x, y));
    default: return unsupported(sym);
  }
}

std::optional<ConstValue> foldCompare(ConstCmp op, const ConstValue& a, const ConstValue& b, std::string& error) {
  if (op == ConstCmp::Eq) return ConstValue::boolean(a == b);
  if (op == ConstCmp::Ne) return ConstValue::boolean(!(a == b));
  int c = 0;
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) {
      const double x = a.toDouble(), y = b.toDouble();
      if (std::isnan(x) || std::isnan(y)) return ConstValue::boolean(false);
      c = x < y ? -1 : x > y ? 1 : 0;
    } else {
      const int64_t x = a.toInt(), y = b.toInt();
      c = x < y ? -1 : x > y ? 1 : 0;
    }
  } else if (a.isString() && b.isString()) {
    c = a.asString().compare(b.asString());
    c = c < 0 ? -1 : c > 0 ? 1 : 0;
  } else {
    static const char* const kSyms[] = {"==", "!=", "<", "<=", ">", ">="};
    error = "'" + std::string(kSyms[static_cast<int>(op)]) + "' not supported between '" + a.typeName() + "' and '" +
            b.typeName() + "'";
    return std::nullopt;
  }
  switch (op) {
    case ConstCmp::Lt: return ConstValue::boolean(c < 0);
    case ConstCmp::Le: return ConstValue::boolean(c <= 0);
    case ConstCmp::Gt: return ConstValue::boolean(c > 0);
    case ConstCmp::Ge: return ConstValue::boolean(c >= 0);
    default: return std::nullopt;
  }
}

std::optional<ConstValue> foldUnary(ConstUnary op, const ConstValue& a, std::string& error) {
  if (op == ConstUnary::Not) return ConstValue::boolean(!a.truthy());
  if (!a.isNumber()) {
    error = "bad operand type for unary operator: '" + a.typeName() + "'";
    return std::nullopt;
  }
  switch (op) {
    case ConstUnary::Pos: return a.isBool() ? ConstValue::integer(a.toInt()) : a;
    case ConstUnary::Neg:
      if (a.isFloat()) return ConstValue::floating(-a.asFloat());
      if (a.toInt() == std::numeric_limits<int64_t>::min()) {
        error = "integer overflow in a constexpr expression";
        return std::nullopt;
      }
      return ConstValue::integer(-a.toInt());
    case ConstUnary::Invert:
      if (a.isFloat()) {
        error = "bad operand type for unary ~: 'float'";
        return std::nullopt;
      }
      return ConstValue::integer(~a.toInt());
    default: return std::nullopt;
  }
}

}  // namespace tilescope::lang
