#include "core/viz/TileHeatMap.h"

#include <algorithm>
#include <cmath>

#include "core/viz/Palette.h"
#include "core/viz/ProgramTiles.h"

namespace tilescope::viz {

double heatMapCell(const ir::Shape& shape, double side, double maxCell) {
  const auto [rows, cols] = view2d(shape);
  return std::clamp(std::floor(side / static_cast<double>(std::max<int64_t>({rows, cols, 1}))), 3.0, std::max(3.0, maxCell));
}

std::string tileShapeText(ir::DType dtype, const ir::Shape& shape) {
  if (shape.empty()) return std::string(ir::dtypeName(dtype)) + " scalar";
  std::string s = std::string(ir::dtypeName(dtype)) + " [";
  for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

std::pair<double, double> finiteRange(const sim::Tile& tile) {
  double lo = 0, hi = 0;
  bool first = true;
  for (int64_t i = 0; i < tile.numel(); ++i) {
    const double v = tile.asDouble(i);
    if (!std::isfinite(v)) continue;
    lo = first ? v : std::min(lo, v);
    hi = first ? v : std::max(hi, v);
    first = false;
  }
  return {lo, hi};
}

HeatMapBox drawHeatMap(Scene& scene, const sim::Tile& tile, double x, double y, double cell, const std::string& caption,
                       const std::set<int64_t>& outlined, const std::pair<double, double>* range) {
  const auto [rows, cols] = view2d(tile.shape());
  HeatMapBox box;
  box.x = x;
  box.y = y;
  box.cell = cell;
  box.cols = std::max<int64_t>(1, cols);
  box.rows = std::min(rows, std::max<int64_t>(1, kMaxHeatMapCells / box.cols));
  const int64_t cells = std::min(tile.numel(), box.rows * box.cols);
  std::string text = caption;
  if (cells < tile.numel()) text += "  (first " + std::to_string(box.rows) + " rows)";
  scene.add(SceneText{x, y - 6, text, 12, {}, TextAlign::Left, true});
  const auto [lo, hi] = range ? *range : finiteRange(tile);
  const bool isFloat = tile.hasFloatStorage();
  for (int64_t i = 0; i < cells; ++i) {
    const double v = tile.asDouble(i);
    SceneRect r;
    r.x = x + static_cast<double>(i % box.cols) * cell;
    r.y = y + static_cast<double>(i / box.cols) * cell;
    r.w = r.h = cell;
    r.fill = !std::isfinite(v) ? palette::kMasked : palette::ramp(hi > lo ? 0.15 + 0.85 * (v - lo) / (hi - lo) : 0.5);
    r.stroke = {255, 255, 255, 255};
    r.strokeWidth = 0.5;
    scene.add(r);
    if (cell >= 18) {
      const std::string t = formatNumber(v, isFloat);
      const double size = std::min(10.0, cell * 1.5 / std::max<double>(3.0, static_cast<double>(t.size())));
      scene.add(SceneText{r.x + cell / 2, r.y + cell / 2 + size / 3, t, size, palette::textOn(r.fill), TextAlign::Center});
    }
  }
  for (int64_t i : outlined) {
    if (i < 0 || i >= cells) continue;
    SceneRect r;
    r.x = x + static_cast<double>(i % box.cols) * cell;
    r.y = y + static_cast<double>(i / box.cols) * cell;
    r.w = r.h = cell;
    r.fill = {0, 0, 0, 0};
    r.stroke = palette::kHighlight;
    r.strokeWidth = std::max(2.0, cell / 8);
    scene.add(r);
  }
  return box;
}

}  // namespace tilescope::viz
