#pragma once
// Reductions and scans over tiles.
//
// Order of operations (it decides float rounding): Sum/Max/Min/XorSum combine pairwise as a tree
// over the reduced axis (element i with element i + ceil(len/2), repeated), rounding to the dtype
// after every combine, like the GPU's tree of shuffles (whose exact order depends on the layout, so
// fp32 sums may differ from the GPU in the last bits; the tolerance is n * 2^-24 relative to the
// sum of magnitudes). Max/Min ignore NaN (maxnum), as tl.max/tl.min do; an all-NaN slice gives
// NaN. ArgMax/ArgMin walk the axis in order with Triton's combine rule (a strictly greater value,
// or an equal one at a lower index when tie-breaking left, wins). Scans walk the axis in order
// (backwards with `reverse`) and round after every step.
#include <optional>

#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::tileops {

Tile reduce(ir::ReduceOp op, const Tile& t, std::optional<int> axis, bool keepDims, bool tieBreakLeft,
            const ir::Type& resultType);
Tile scan(ir::ScanOp op, const Tile& t, int axis, bool reverse);

}  // namespace tilescope::sim::tileops
