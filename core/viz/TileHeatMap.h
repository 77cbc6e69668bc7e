#pragma once
// One tile of values drawn as a heat map with its numbers (when the cells are big enough), in the
// tile's 2-D view (core/viz/ProgramTiles view2d): the building block of the Dot and Reduce views.
// Colours span the tile's own finite range; -inf/inf/nan cells are grey and say so.
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "core/sim/Tile.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

struct HeatMapBox {
  double x = 0, y = 0, cell = 0;
  int64_t rows = 1, cols = 1;  // shown rows (at most kMaxHeatMapCells cells) and columns
  double width() const { return static_cast<double>(cols) * cell; }
  double height() const { return static_cast<double>(rows) * cell; }
};

inline constexpr int64_t kMaxHeatMapCells = 4096;  // larger tiles show their first rows

// The cell size that fits a tile of this shape into `side` pixels (3 to `maxCell` pixels a cell).
double heatMapCell(const ir::Shape& shape, double side, double maxCell = 26);

// The smallest and largest finite values of a tile ({0, 0} when there is none).
std::pair<double, double> finiteRange(const sim::Tile& tile);

// Draws `tile` with its top left at (x, y); cells listed in `outlined` (flat indices) get a thick
// highlight frame. `caption` goes above the map. Colours span `range` when given (so a max's result
// gets its input's colour), else the tile's own finite range.
HeatMapBox drawHeatMap(Scene& scene, const sim::Tile& tile, double x, double y, double cell, const std::string& caption,
                       const std::set<int64_t>& outlined = {}, const std::pair<double, double>* range = nullptr);

// "fp32 [16, 16]", "fp32 scalar"
std::string tileShapeText(ir::DType dtype, const ir::Shape& shape);

}  // namespace tilescope::viz
