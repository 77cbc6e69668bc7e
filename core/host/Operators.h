#pragma once
// Arithmetic and comparison of Python numbers (bool, 64-bit int, float) with Python's semantics:
// floor division and modulo round toward negative infinity, int overflow is an OverflowError (Python's
// ints are unbounded; ours are 64-bit), division by zero is ZeroDivisionError with Python's wording.
#include <optional>

#include "core/host/Value.h"

namespace tilescope::host {

class Operators {
public:
  // nullopt when the operand types are not both numbers or the op does not apply (e.g. 1.5 & 2).
  static std::optional<Value> numeric(BinOp op, const Value& a, const Value& b);
  static std::optional<bool> compareNumbers(CmpOp op, const Value& a, const Value& b);
  static std::optional<Value> unaryNumber(lang::UnaryOp op, const Value& v);
};

}  // namespace tilescope::host
