#pragma once
// Python's text forms of numbers, needed wherever tilescope must print exactly what Python prints
// (tensor printing, assert_close messages, tolist values shown by the interpreter).
#include <cstdint>
#include <span>
#include <string>

namespace tilescope::host {

// repr(float): shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16, else "1e-05" style.
std::string pythonFloatRepr(double value);

// str(tuple) of ints: "()", "(3,)", "(2, 3)".
std::string pythonTupleRepr(std::span<const int64_t> values);

// printf-style formatting with Python's format-spec result (they agree for 'f' and 'e' on glibc, which
// rounds exactly): formatFixed(0.5, 4) == "0.5000", formatScientific(1e-5, 4) == "1.0000e-05".
std::string formatFixed(double value, int precision);
std::string formatScientific(double value, int precision);

}  // namespace tilescope::host
