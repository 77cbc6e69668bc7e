#pragma once
// A compile-time (constexpr) Python scalar as the checker folds it: None, bool, int, float, str, or
// a Triton dtype (possibly a pointer type: `ptr.dtype` is pointer_type<fp16>). Arithmetic follows
// Python's rules (floor division, modulo with the divisor's sign, int/int true division to float),
// not Triton's tensor rules: constexprs are plain Python values in Triton too.
// Tuples of constants are checker Values (see Value.h), not ConstValues.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "core/ir/Constant.h"
#include "core/ir/DType.h"

namespace tilescope::lang {

struct DTypeValue {
  ir::DType dtype = ir::DType::FP32;
  bool isPointer = false;  // pointer_type<dtype>
  friend bool operator==(const DTypeValue&, const DTypeValue&) = default;
};

class ConstValue {
public:
  using Storage = std::variant<ir::NoneValue, bool, int64_t, double, std::string, DTypeValue>;

  ConstValue() = default;  // None
  static ConstValue none() { return ConstValue(); }
  static ConstValue boolean(bool v) { return ConstValue(Storage(v)); }
  static ConstValue integer(int64_t v) { return ConstValue(Storage(v)); }
  static ConstValue floating(double v) { return ConstValue(Storage(v)); }
  static ConstValue string(std::string v) { return ConstValue(Storage(std::move(v))); }
  static ConstValue dtype(ir::DType t, bool pointer = false) { return ConstValue(Storage(DTypeValue{t, pointer})); }

  bool isNone() const { return std::holds_alternative<ir::NoneValue>(v_); }
  bool isBool() const { return std::holds_alternative<bool>(v_); }
  bool isInt() const { return std::holds_alternative<int64_t>(v_); }
  bool isFloat() const { return std::holds_alternative<double>(v_); }
  bool isString() const { return std::holds_alternative<std::string>(v_); }
  bool isDType() const { return std::holds_alternative<DTypeValue>(v_); }
  // bool, int or float: usable in arithmetic (Python's numbers.Number).
  bool isNumber() const { return isBool() || isInt() || isFloat(); }
  // bool or int (Python bools are ints).
  bool isIntegral() const { return isBool() || isInt(); }

  bool asBool() const { return std::get<bool>(v_); }
  int64_t asInt() const { return std::get<int64_t>(v_); }
  double asFloat() const { return std::get<double>(v_); }
  const std::string& asString() const { return std::get<std::string>(v_); }
  const DTypeValue& asDType() const { return std::get<DTypeValue>(v_); }
  // bool/int as int64 (True -> 1).
  int64_t toInt() const { return isBool() ? (asBool() ? 1 : 0) : asInt(); }
  // Any number as double.
  double toDouble() const;

  // Python truthiness (None, 0, 0.0, '' are false; dtypes are true).
  bool truthy() const;
  // Python's type name: "NoneType", "bool", "int", "float", "str", "dtype".
  std::string typeName() const;
  // Python's repr(): None, True, 3, 0.5, 'text', triton.language.float16, pointer<fp16>.
  std::string repr() const;
  // Python's str(): like repr but strings unquoted; dtypes as Triton prints them ("fp16").
  std::string str() const;

  // The IR's view of this value (for kernel parameters and host-call arguments).
  ir::Constant toIR() const;

  friend bool operator==(const ConstValue& a, const ConstValue& b);

private:
  explicit ConstValue(Storage v) : v_(std::move(v)) {}
  Storage v_;
};

// Python operator semantics on two constants. Returns nullopt with `error` set when Python would
// raise (division by zero, int64 overflow, unsupported operand types).
enum class ConstOp { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr, BitXor };
std::optional<ConstValue> foldBinary(ConstOp op, const ConstValue& a, const ConstValue& b, std::string& error);

enum class ConstCmp { Eq, Ne, Lt, Le, Gt, Ge };
std::optional<ConstValue> foldCompare(ConstCmp op, const ConstValue& a, const ConstValue& b, std::string& error);

// -x, +x, ~x, not x
enum class ConstUnary { Neg, Pos, Invert, Not };
std::optional<ConstValue> foldUnary(ConstUnary op, const ConstValue& a, std::string& error);

}  // namespace tilescope::lang
