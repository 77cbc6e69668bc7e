#pragma once
// What one traced program did, as the offsets/mask view shows it: its memory operations in order,
// each with the addressed tensor, the offsets tile, the mask tile (every lane, masked-off ones
// included) and the values when they were recorded; and its named variables' last values (the
// variable inspector). Tiles of any rank are shown as 2-D: a scalar is 1x1, a 1-D tile one row, and
// an N-D tile folds its leading dimensions into rows.
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/Trace.h"

namespace tilescope::viz {

struct MemoryOp {
  size_t eventIndex = 0;  // index into ProgramTrace::events
  sim::MemOpKind kind = sim::MemOpKind::Load;
  std::string location;   // "file:line:col"
  std::string file;       // the source file ("<cell:ID>" for a notebook cell)
  int line = 0;
  std::string argName;     // the kernel parameter holding the tensor ("" if none)
  int32_t tensorId = 0;
  std::string tensorName;
  std::vector<int64_t> tensorShape;
  ir::Shape shape;         // the access's own shape
  int64_t rows = 1;        // the 2-D view of the access
  int64_t cols = 1;
  std::vector<int64_t> offsets;  // one per lane, row-major
  std::vector<bool> mask;        // one per lane (true: active)
  bool hasValues = false;
  bool floatValues = false;
  std::vector<double> values;    // one per lane when recorded
  int64_t activeLanes = 0;
  int64_t maskedLanes = 0;

  std::string title() const;  // "load x_ptr (copy_k.py:6:9)"
};

std::vector<MemoryOp> memoryOps(const sim::LaunchTrace& trace, const sim::ProgramTrace& program);

struct NamedTile {
  std::string name;
  int line = 0;
  sim::TileRef value;
};
// Each named variable's last value in the program, in order of first binding.
std::vector<NamedTile> namedTiles(const sim::LaunchTrace& trace, const sim::ProgramTrace& program);

// Rows and columns of the 2-D view of a tile of this shape.
std::pair<int64_t, int64_t> view2d(const ir::Shape& shape);

// numpy-style text of a tile: "[4 5]", "[[0 1]\n [2 3]]"; elements right-aligned to the widest.
std::string formatTile(const std::vector<std::string>& elements, const ir::Shape& shape);
std::string formatOffsets(const MemoryOp& op);
std::string formatMask(const MemoryOp& op);    // "[True False]"
std::string formatValues(const MemoryOp& op);  // "" when no values were recorded
std::string formatNumber(double v, bool isFloat);

}  // namespace tilescope::viz
