#include "core/host/Operators.h"

#include <cmath>

#include "core/host/PyError.h"
#include "core/base/FloorDivMod.h"

namespace tilescope::host {

namespace {

[[noreturn]] void overflow(int64_t a, std::string_view op, int64_t b) {
  throwError("OverflowError", "integer overflow: " + std::to_string(a) + " " + std::string(op) + " " + std::to_string(b) +
                                  " does not fit in 64 bits (tilescope's Python ints are 64-bit)");
}

std::optional<Value> intOp(BinOp op, int64_t a, int64_t b, bool bothBool) {
  int64_t r = 0;
  switch (op) {
    case BinOp::Add:
      if (__builtin_add_overflow(a, b, &r)) overflow(a, "+", b);
      return Value::integer(r);
    case BinOp::Sub:
      if (__builtin_sub_overflow(a, b, &r)) overflow(a, "-", b);
      return Value::integer(r);
    case BinOp::Mul:
      if (__builtin_mul_overflow(a, b, &r)) overflow(a, "*", b);
      return Value::integer(r);
    case BinOp::Div:
      if (b == 0) throwError("ZeroDivisionError", "division by zero");
      return Value::real(static_cast<double>(a) / static_cast<double>(b));
    case BinOp::FloorDiv:
    case BinOp::Mod: {
      if (b == 0) throwError("ZeroDivisionError", "integer division or modulo by zero");
      if (op == BinOp::FloorDiv && a == INT64_MIN && b == -1) overflow(a, "//", b);
      const auto [q, m] = util::floorDivMod<int64_t>(a, b);
      return Value::integer(op == BinOp::FloorDiv ? q : m);
    }
    case BinOp::Pow: {
      if (b < 0) {
        if (a == 0) throwError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return Value::real(std::pow(static_cast<double>(a), static_cast<double>(b)));
      }
      int64_t result = 1, base = a, e = b;
      while (e > 0) {
        if (e & 1)
          if (__builtin_mul_overflow(result, base, &result)) overflow(a, "**", b);
        e >>= 1;
        if (e > 0 && __builtin_mul_overflow(base, base, &base)) overflow(a, "**", b);
      }
      return Value::integer(result);
    }
    case BinOp::And: return bothBool ? Value::boolean(a & b) : Value::integer(a & b);
    case BinOp::Or: return bothBool ? Value::boolean(a | b) : Value::integer(a | b);
    case BinOp::Xor: return bothBool ? Value::boolean(a ^ b) : Value::integer(a ^ b);
    case BinOp::LShift:
      if (b < 0) throwValueError("negative shift count");
      if (a != 0 && (b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b)))) overflow(a, "<<", b);
      return Value::integer(a == 0 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << b));
    case BinOp::RShift:
      if (b < 0) throwValueError("negative shift count");
      return Value::integer(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
    case BinOp::MatMul: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Value> floatOp(BinOp op, double a, double b) {
  switch (op) {
    case BinOp::Add: return Value::real(a + b);
    case BinOp::Sub: return Value::real(a - b);
    case BinOp::Mul: return Value::real(a * b);
    case BinOp::Div:
      if (b == 0.0) throwError("ZeroDivisionError", "float division by zero");
      return Value::real(a / b);
    case BinOp::FloorDiv:
    case BinOp::Mod: {
      if (b == 0.0) throwError("ZeroDivisionError", op == BinOp::Mod ? "float modulo" : "float floor division by zero");
      const auto [floordiv, mod] = util::floorDivMod<double>(a, b);
      return Value::real(op == BinOp::Mod ? mod : floordiv);
    }
    case BinOp::Pow:
      if (a == 0.0 && b < 0) throwError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      if (a < 0 && b != std::floor(b)) {
        throwValueError("negative number raised to a fractional power gives a complex number, which tilescope does not support");
      }
      return Value::real(std::pow(a, b));
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<Value> Operators::numeric(BinOp op, const Value& a, const Value& b) {
  if (!a.isNumber() || !b.isNumber()) return std::nullopt;
  if (a.isIntLike() && b.isIntLike()) return intOp(op, a.asInt(), b.asInt(), a.isBool() && b.isBool());
  return floatOp(op, a.asFloat(), b.asFloat());
}

std::optional<bool> Operators::compareNumbers(CmpOp op, const Value& a, const Value& b) {
  if (!a.isNumber() || !b.isNumber()) return std::nullopt;
  if (a.isIntLike() && b.isIntLike()) {
    const int64_t x = a.asInt(), y = b.asInt();
    switch (op) {
      case CmpOp::Eq: return x == y;
      case CmpOp::Ne: return x != y;
      case CmpOp::Lt: return x < y;
      case CmpOp::Le: return x <= y;
      case CmpOp::Gt: return x > y;
      case CmpOp::Ge: return x >= y;
    }
  }
  const double x = a.asFloat(), y = b.asFloat();
  switch (op) {
    case CmpOp::Eq: return x == y;
    case CmpOp::Ne: return x != y;
    case CmpOp::Lt: return x < y;
    case CmpOp::Le: return x <= y;
    case CmpOp::Gt: return x > y;
    case CmpOp::Ge: return x >= y;
  }
  return std::nullopt;
}

std::optional<Value> Operators::unaryNumber(lang::UnaryOp op, const Value& v) {
  if (!v.isNumber()) return std::nullopt;
  switch (op) {
    case lang::UnaryOp::Not: return Value::boolean(v.isFloat() ? v.asFloat() == 0.0 : v.asInt() == 0);
    case lang::UnaryOp::Pos: return v.isBool() ? Value::integer(v.asInt()) : v;
    case lang::UnaryOp::Neg:
      if (v.isFloat()) return Value::real(-v.asFloat());
      if (v.asInt() == INT64_MIN) overflow(0, "-", v.asInt());
      return Value::integer(-v.asInt());
    case lang::UnaryOp::Invert:
      if (v.isFloat()) return std::nullopt;
      return Value::integer(~v.asInt());
  }
  return std::nullopt;
}

}  // namespace tilescope::host
