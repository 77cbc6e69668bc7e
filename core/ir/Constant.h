#pragma once
// A compile-time Python value as the IR keeps it: the folded value of a constexpr kernel parameter
// and literal arguments of host calls. (The checker's richer constexpr values - tuples, functions,
// modules - live in lang::ConstValue and never reach the IR.)
#include <cstdint>
#include <string>
#include <variant>

#include "core/ir/DType.h"

namespace tilescope::ir {

struct NoneValue {
  friend bool operator==(NoneValue, NoneValue) { return true; }
};

class Constant {
public:
  using Storage = std::variant<NoneValue, bool, int64_t, double, std::string, DType>;

  Constant() = default;  // None
  Constant(bool v) : value_(v) {}
  Constant(int64_t v) : value_(v) {}
  Constant(int v) : value_(int64_t{v}) {}
  Constant(double v) : value_(v) {}
  Constant(std::string v) : value_(std::move(v)) {}
  Constant(const char* v) : value_(std::string(v)) {}
  Constant(DType v) : value_(v) {}

  bool isNone() const { return std::holds_alternative<NoneValue>(value_); }
  bool isBool() const { return std::holds_alternative<bool>(value_); }
  bool isInt() const { return std::holds_alternative<int64_t>(value_); }
  bool isFloat() const { return std::holds_alternative<double>(value_); }
  bool isString() const { return std::holds_alternative<std::string>(value_); }
  bool isDType() const { return std::holds_alternative<DType>(value_); }

  bool asBool() const { return std::get<bool>(value_); }
  int64_t asInt() const { return std::get<int64_t>(value_); }
  double asFloat() const { return std::get<double>(value_); }
  const std::string& asString() const { return std::get<std::string>(value_); }
  DType asDType() const { return std::get<DType>(value_); }
  const Storage& storage() const { return value_; }

  // Python's repr: None, True, 1024, 0.5, 'text', tl.float16.
  std::string repr() const;

  friend bool operator==(const Constant& a, const Constant& b) { return a.value_ == b.value_; }

private:
  Storage value_;
};

// Python's repr of a float: shortest round-trip digits, always with a '.', "inf", "nan".
std::string pythonFloatRepr(double v);

}  // namespace tilescope::ir
