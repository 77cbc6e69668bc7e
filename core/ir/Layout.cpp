#include "core/ir/Layout.h"

namespace tilescope::ir {

std::string TileLayout::str() const {
  // A conversion's target names the default blocked layout without its parameters.
  if (kind == LayoutKind::Blocked && threads > 0) {
    std::string dims;
    for (int d : order) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return "#blocked<vec=" + std::to_string(vec) + ", threads=" + std::to_string(threads) + ", slots=" + std::to_string(slotsPerThread) +
           ", order=[" + dims + "]>";
  }
  const std::string mma = std::string("#mma<") + (warpgroup ? "wgmma m64" : "m16n8k16") + ", warps=" + std::to_string(warpsM) + "x1>";
  switch (kind) {
    case LayoutKind::Blocked: return "#blocked";
    case LayoutKind::Mma: return mma;
    case LayoutKind::RowSlice: return "#slice<dim=1, " + mma + ">";
    case LayoutKind::DotOperandA:
      if (convertedOnEntry && warpgroup) return "#dot_op<a, " + mma + "> (staged in swizzled shared memory on loop entry)";
      return "#dot_op<a, " + mma + ">" + std::string(convertedOnEntry ? " (converted on loop entry)" : "");
    case LayoutKind::SharedOperand:
      return std::string("#shared<b") + (transposed ? ", transposed" : "") + (warpgroup ? ", swizzle 128B" : "") + ", cp.async " +
             std::to_string(stages - 1) + " ahead>";
  }
  return "?";
}

}  // namespace tilescope::ir
