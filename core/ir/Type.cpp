#include "core/ir/Type.h"

#include <limits>

namespace tilescope::ir {

std::string shapeString(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += "x";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

int64_t numElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<int64_t>::max();
  return n;
}

std::string Type::elementString() const {
  std::string e(dtypeName(dtype_));
  return pointer_ ? "ptr<" + e + ">" : e;
}

std::string Type::str() const {
  if (shape_.empty()) return elementString();
  std::string out = "tensor<";
  for (int64_t d : shape_) out += std::to_string(d) + "x";
  out += pointer_ ? "!" + elementString() : elementString();
  return out + ">";
}

}  // namespace tilescope::ir
