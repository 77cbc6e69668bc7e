#pragma once
// Two compilations of a kernel (two specializations, or the kernel before and after an edit) side by
// side: what each needs per program and what it runs, one row per figure, for the Compiled view's
// diff.
#include <string>
#include <vector>

#include "core/compiled/CompiledView.h"

namespace tilescope::compiled {

struct ComparisonRow {
  std::string figure;  // "registers (ptxas)", "occupancy", "wmma.mma.sync...": what the row shows
  std::string left, right;  // "-" where that side has no such figure
  bool differs() const { return left != right; }
};

std::vector<ComparisonRow> compareViews(const CompiledView& left, const CompiledView& right);

}  // namespace tilescope::compiled
