#include "core/ir/Constant.h"

#include <charconv>
#include <cmath>

namespace tilescope::ir {

std::string pythonFloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  // Shortest representation that round-trips, as Python's repr does.
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  // Python writes 1e+20 and 1e-05; to_chars writes 1e+20 and 1e-05 too.
  return s;
}

std::string Constant::repr() const {
  struct Visitor {
    std::string operator()(NoneValue) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return pythonFloatRepr(d); }
    std::string operator()(const std::string& s) const {
      std::string out = "'";
      for (char c : s) {
        if (c == '\'' || c == '\\') out += '\\';
        if (c == '\n') {
          out += "\\n";
          continue;
        }
        out += c;
      }
      return out + "'";
    }
    std::string operator()(DType t) const { return "tl." + std::string(dtypePythonName(t)); }
  };
  return std::visit(Visitor{}, value_);
}

}  // namespace tilescope::ir
