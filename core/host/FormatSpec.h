#pragma once
// Python's format-specification mini-language ([[fill]align][sign][z][#][0][width][,|_][.prec][type])
// for int, float, bool and str: what f'{x:.3f}', f'{n:>5}' and format() produce.
#include <cstdint>
#include <optional>
#include <string>

namespace tilescope::host {

struct FormatSpec {
  char fill = ' ';
  std::string fillText = " ";  // the fill character (may be a multi-byte UTF-8 character)
  char align = 0;              // '<' '>' '^' '=' or 0 (type's default)
  char sign = '-';             // '+' '-' ' '
  bool alternate = false;      // '#'
  bool zeroPad = false;        // '0' before the width
  int width = -1;
  char grouping = 0;           // ',' or '_'
  int precision = -1;
  char type = 0;

  // ValueError "Invalid format specifier '...' for object of type 'x'" on malformed specs.
  static FormatSpec parse(const std::string& spec, const char* typeName);
};

std::string formatInt(int64_t value, const std::string& spec, const char* typeName = "int");
std::string formatFloat(double value, const std::string& spec);
std::string formatStr(const std::string& value, const std::string& spec);
// Pads already-converted text according to the spec's fill/align/width (default alignment given).
std::string applyPadding(const std::string& text, const FormatSpec& spec, char defaultAlign);

}  // namespace tilescope::host
