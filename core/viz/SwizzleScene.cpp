#include "core/viz/SwizzleScene.h"

#include <algorithm>
#include <cmath>

#include "core/viz/Palette.h"
#include "core/viz/Swizzle.h"
#include "core/viz/TraceTileOrder.h"

namespace tilescope::viz {

namespace {

constexpr double kMargin = 12;

// One numbered grid with its path; returns its width.
double drawOrder(Scene& s, double x, double y, const std::vector<std::vector<int64_t>>& order, int64_t window,
                 const std::string& caption, const std::vector<std::string>& notes) {
  const int64_t rows = static_cast<int64_t>(order.size());
  const int64_t cols = rows ? static_cast<int64_t>(order[0].size()) : 0;
  const int64_t count = rows * cols;
  const double cell = std::clamp(std::floor(360.0 / static_cast<double>(std::max<int64_t>(1, std::max(rows, cols)))), 6.0, 40.0);
  s.add(SceneText{x, y - 8, caption, 12, {}, TextAlign::Left, true});
  for (int64_t m = 0; m < rows; ++m)
    for (int64_t n = 0; n < cols; ++n) {
      const int64_t p = order[m][n];
      SceneRect r;
      r.x = x + static_cast<double>(n) * cell;
      r.y = y + static_cast<double>(m) * cell;
      r.w = r.h = cell;
      r.fill = p < 0 ? palette::kNeverWritten : palette::ramp(count > 1 ? 0.15 + 0.85 * static_cast<double>(p) / static_cast<double>(count - 1) : 0.5);
      r.hatched = p < 0;
      r.stroke = p >= 0 && p < window ? palette::kHighlight : Color{255, 255, 255, 255};
      r.strokeWidth = p >= 0 && p < window ? 3 : 1;
      s.add(r);
      if (cell >= 16 && p >= 0)
        s.add(SceneText{r.x + cell / 2, r.y + cell / 2 + 4, std::to_string(p), std::min(12.0, cell / 2.4), palette::textOn(r.fill),
                        TextAlign::Center});
    }
  // The path through the tile centres in processing order.
  const auto tiles = tilesInOrder(order);
  for (size_t i = 1; i < tiles.size() && cell >= 10; ++i) {
    if (tiles[i - 1].first < 0 || tiles[i].first < 0) continue;
    auto centre = [&](const std::pair<int64_t, int64_t>& t) {
      return std::pair<double, double>{x + (static_cast<double>(t.second) + 0.5) * cell, y + (static_cast<double>(t.first) + 0.5) * cell};
    };
    const auto [x1, y1] = centre(tiles[i - 1]);
    const auto [x2, y2] = centre(tiles[i]);
    // Shorten the segment so the numbers stay readable.
    const double dx = x2 - x1, dy = y2 - y1, len = std::hypot(dx, dy);
    const double cut = std::min(cell * 0.28, len / 3);
    s.add(SceneLine{x1 + dx / len * cut, y1 + dy / len * cut, x2 - dx / len * cut, y2 - dy / len * cut, {0, 0, 0, 140}, 1.2, true});
  }
  double ny = y + static_cast<double>(rows) * cell + 18;
  for (const std::string& n : notes) {
    s.add(SceneText{x, ny, n, 11});
    ny += 16;
  }
  return std::max(static_cast<double>(cols) * cell, 300.0);
}

}  // namespace

Scene swizzleScene(const SwizzleViewOptions& o) {
  Scene s;
  s.add(SceneText{kMargin, kMargin + 14,
                  "processing order of a " + std::to_string(o.rows) + "x" + std::to_string(o.cols) + " grid of output tiles (" +
                      std::to_string(o.kBlocks) + " blocks along K); outlined: the first " + std::to_string(o.window) + " programs",
                  14, {}, TextAlign::Left, true});
  const double top = kMargin + 56;
  double x = kMargin;
  double width = 0;
  for (int64_t group : {int64_t{0}, o.group}) {
    const auto order = processingOrder(o.rows, o.cols, group);
    const BlockLoads loads = distinctBlocksLoaded(order, o.window, o.kBlocks);
    const std::string caption = group > 0 ? "grouped ordering, group size " + std::to_string(group) : "row-major ordering";
    const std::string note = "first " + std::to_string(o.window) + " programs load " + std::to_string(loads.total()) +
                             " distinct blocks (" + std::to_string(loads.aBlocks) + " of A, " + std::to_string(loads.bBlocks) + " of B)";
    width = drawOrder(s, x, top, order, o.window, caption, {note});
    x += width + 40;
  }
  const double cell = std::clamp(std::floor(360.0 / static_cast<double>(std::max<int64_t>(1, std::max(o.rows, o.cols)))), 6.0, 40.0);
  s.setSize(x, top + static_cast<double>(o.rows) * cell + 44);
  s.fitTextWidth();
  return s;
}

Scene swizzleSceneFromTrace(const sim::LaunchTrace& trace, int64_t window) {
  Scene s;
  const TraceTileOrder order = traceTileOrder(trace);
  s.add(SceneText{kMargin, kMargin + 14,
                  trace.kernelName + "  output tiles in the order the programs made them (position = pid_0 * num_programs(1) + pid_1)",
                  14, {}, TextAlign::Left, true});
  if (!order.error.empty()) {
    s.add(SceneText{kMargin, kMargin + 40, order.error, 12, palette::kConflict});
    s.setSize(0, 70);
    s.fitTextWidth();
    return s;
  }
  std::vector<std::string> notes;
  std::string loads = "first " + std::to_string(window) + " programs load";
  int64_t total = 0;
  const auto blocks = traceBlockLoads(trace, window);
  for (size_t i = 0; i < blocks.size(); ++i) {
    loads += (i ? ", " : " ") + std::to_string(blocks[i].blocks) + " blocks of " + blocks[i].name;
    total += blocks[i].blocks;
  }
  notes.push_back(blocks.empty() ? "the kernel loads nothing" : loads + " (" + std::to_string(total) + " distinct)");
  const std::string caption = order.name + ": tiles of " + std::to_string(order.tileRows) + "x" + std::to_string(order.tileCols);
  const double top = kMargin + 56;
  const double w = drawOrder(s, kMargin, top, order.order, window, caption, notes);
  const int64_t rows = static_cast<int64_t>(order.order.size());
  const int64_t cols = rows ? static_cast<int64_t>(order.order[0].size()) : 0;
  const double cell = std::clamp(std::floor(360.0 / static_cast<double>(std::max<int64_t>(1, std::max(rows, cols)))), 6.0, 40.0);
  s.setSize(w + 2 * kMargin, top + static_cast<double>(rows) * cell + 44);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
