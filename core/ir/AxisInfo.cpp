#include "core/ir/AxisInfo.h"

#include <algorithm>

namespace tilescope::ir {

int64_t AxisInfo::divisibilityAt(int64_t run) const {
  // Run starts when run >= contiguity, else run starts plus multiples of `run`.
  return run >= contiguity ? divisibility : std::min(divisibility, run);
}

std::string AxisInfo::str() const {
  auto value = [](int64_t v) { return v >= kUnbounded ? std::string("max") : std::to_string(v); };
  return "contiguity " + value(contiguity) + ", constancy " + value(constancy) + ", divisibility " + value(divisibility);
}

}  // namespace tilescope::ir
