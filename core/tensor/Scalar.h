#pragma once
// A Python number as host code hands it to tensor operations: bool, int or float. torch treats
// such "wrapped numbers" as weak in type promotion (int tensor + 2.5 -> float32, not float64), so the kind
// is kept alongside the value.
#include <concepts>
#include <cstdint>
#include <string>

#include "core/ir/DType.h"

namespace tilescope::host {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Float };

  Scalar() : kind_(Kind::Int), i_(0) {}
  Scalar(bool v) : kind_(Kind::Bool), b_(v) {}
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Scalar(I v) : kind_(Kind::Int), i_(static_cast<int64_t>(v)) {}
  template <std::floating_point F>
  Scalar(F v) : kind_(Kind::Float), d_(static_cast<double>(v)) {}

  Kind kind() const { return kind_; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isInt() const { return kind_ == Kind::Int; }
  bool isFloat() const { return kind_ == Kind::Float; }

  bool toBool() const;
  int64_t toInt() const;  // floats truncate toward zero, like int()
  double toDouble() const;

  // The dtype torch gives a wrapped number before weak promotion: bool, int64 or float64.
  ir::DType naturalDType() const;

  // Python's repr: "True", "3", "1.5", "1e-05", "inf".
  std::string repr() const;

  bool operator==(const Scalar& other) const;

 private:
  Kind kind_;
  union {
    bool b_;
    int64_t i_;
    double d_;
  };
};

}  // namespace tilescope::host
