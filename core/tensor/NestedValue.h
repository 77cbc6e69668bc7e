#pragma once
// The result of tensor.tolist(): a Python number or a (nested) list of them.
#include <string>
#include <variant>
#include <vector>

#include "core/tensor/Scalar.h"

namespace tilescope::host {

struct NestedValue {
  std::variant<Scalar, std::vector<NestedValue>> value;

  bool isList() const { return std::holds_alternative<std::vector<NestedValue>>(value); }
  const Scalar& scalar() const { return std::get<Scalar>(value); }
  const std::vector<NestedValue>& list() const { return std::get<std::vector<NestedValue>>(value); }

  // Python's repr: "[[1, 2], [3, 4]]", "[0.5, 1.0]", "True".
  std::string repr() const {
    if (!isList()) return scalar().repr();
    std::string out = "[";
    const auto& items = list();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += items[i].repr();
    }
    return out + "]";
  }
};

}  // namespace tilescope::host
