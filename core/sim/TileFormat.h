#pragma once
// Text of tiles as NumPy prints arrays (what users of the Triton interpreter see), so that
// `print`/`tl.device_print` output and the variable inspector read like the seed tutorials:
//   ints    [0 1 2]   [ 1  2 10]      (common width, right-aligned)
//   bools   [ True False]
//   floats  [1.  2.5]  [1.0e-05 1.0e+00]   (NumPy's "maxprec" mode, 8 digits at most, shortest
//           digits that identify the value in the tile's own dtype; scientific notation when the
//           magnitudes span more than 1e3, or reach 1e8, or go below 1e-4)
//   2-D     [[1 2]\n [3 4]]
// Tiles of more than 1000 elements are summarised with "..." and 3 edge items per axis, like
// NumPy. Unlike NumPy we never wrap long 1-D rows, so a 1-D print stays on one line.
// Scalars print like Python/NumPy scalars: 3, 0.5, 1.0, True, nan, 1e-05.
#include <string>

#include "core/sim/Tile.h"

namespace tilescope::sim {

struct TileFormatOptions {
  bool hex = false;         // ints as 0x.. (two's complement at the dtype's width), floats' bits
  int threshold = 1000;     // summarise above this many elements
  int edgeItems = 3;
  // The interpreter's scalars are 1-element arrays; with this set a scalar prints as "[3]" (what
  // the seeds show for f-strings such as f'pid = {pid}').
  bool scalarAsArray = false;
};

std::string formatTile(const Tile& t, const TileFormatOptions& options = {});

// One scalar value of a float dtype as Python's repr would print it (shortest digits that read
// back to the same value of `t`).
std::string formatFloatScalar(ir::DType t, double v);

}  // namespace tilescope::sim
