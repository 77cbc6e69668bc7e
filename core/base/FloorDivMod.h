#pragma once
// Python's `//` and `%`, written once for every place in C++ that evaluates them: the tensor
// library (torch.floor_divide / remainder), launch-site arithmetic and constexpr folding in the
// kernel checker. The quotient rounds toward minus infinity and a nonzero remainder takes the sign
// of the divisor, so a == q * b + r always holds. (Kernel tensors are different: Triton's `//` and
// `%` on tensors are C's truncating division, see sim/Numerics intDiv and the CUDA prelude.)
//
// Division by zero is the caller's to report (Python raises ZeroDivisionError, the checker gives a
// diagnostic, the tensor library an error): integers require b != 0; floats give IEEE's answer
// (a / b for the quotient, NaN for the remainder), as torch does. Signed MIN // -1 wraps to MIN; a
// caller with unbounded ints to imitate checks it first.
#include <cmath>
#include <type_traits>

namespace tilescope::util {

template <class T>
struct FloorDivMod {
  T quotient;
  T remainder;
};

template <class T>
FloorDivMod<T> floorDivMod(T a, T b) {
  static_assert(std::is_arithmetic_v<T>);
  if constexpr (std::is_floating_point_v<T>) {
    // CPython's float_divmod: exact remainder by fmod, quotient rounded from (a - mod) / b.
    T mod = std::fmod(a, b);
    if (b == 0) return {a / b, mod};
    T div = (a - mod) / b;
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) {
        mod += b;
        div -= T(1);
      }
    } else {
      mod = std::copysign(T(0), b);
    }
    T floordiv;
    if (div != 0) {
      floordiv = std::floor(div);
      if (div - floordiv > T(0.5)) floordiv += T(1);
    } else {
      floordiv = std::copysign(T(0), a / b);
    }
    return {floordiv, mod};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {a, false};  // b must be true
  } else if constexpr (std::is_unsigned_v<T>) {
    return {static_cast<T>(a / b), static_cast<T>(a % b)};
  } else {
    using U = std::make_unsigned_t<T>;
    if (b == -1) return {static_cast<T>(U(0) - static_cast<U>(a)), T(0)};  // MIN / -1 would trap
    T q = static_cast<T>(a / b);
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) {
      q = static_cast<T>(q - 1);
      r = static_cast<T>(r + b);
    }
    return {q, r};
  }
}

}  // namespace tilescope::util
