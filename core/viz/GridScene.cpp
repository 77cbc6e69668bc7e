#include "core/viz/GridScene.h"

#include <algorithm>
#include <cmath>

#include "core/viz/Palette.h"
#include "core/viz/ProgramStats.h"

namespace tilescope::viz {

std::optional<GridColoring> gridColoringFromName(std::string_view name) {
  if (name == "pid") return GridColoring::Pid;
  if (name == "order") return GridColoring::Order;
  if (name == "tile") return GridColoring::OutputTile;
  if (name == "bytes") return GridColoring::Bytes;
  if (name == "masked") return GridColoring::Masked;
  return std::nullopt;
}

const char* gridColoringName(GridColoring c) {
  switch (c) {
    case GridColoring::Pid: return "pid";
    case GridColoring::Order: return "order";
    case GridColoring::OutputTile: return "tile";
    case GridColoring::Bytes: return "bytes";
    case GridColoring::Masked: return "masked";
  }
  return "pid";
}

const char* gridColoringLabel(GridColoring c) {
  switch (c) {
    case GridColoring::Pid: return "by program id";
    case GridColoring::Order: return "by launch order (pid_0 fastest)";
    case GridColoring::OutputTile: return "by where in the output each program stored first (dark: start, yellow: end)";
    case GridColoring::Bytes: return "by bytes moved (loads and stores)";
    case GridColoring::Masked: return "by masked-off lanes (hatched: some lanes masked)";
  }
  return "";
}

ProgramColors programColors(const sim::LaunchTrace& trace, GridColoring coloring) {
  const sim::Grid grid{trace.grid[0], trace.grid[1], trace.grid[2]};
  const int64_t n = std::max<int64_t>(0, grid.count());
  ProgramColors pc;
  pc.byLinearId.assign(static_cast<size_t>(n), palette::kUntraced);
  pc.hatched.assign(static_cast<size_t>(n), 0);
  pc.traced.assign(static_cast<size_t>(n), 0);
  const std::vector<ProgramStats> stats = programStats(trace);
  int64_t maxBytes = 1, maxMasked = 1, maxStored = 1;
  for (const ProgramStats& s : stats) {
    maxBytes = std::max(maxBytes, s.bytesMoved);
    maxMasked = std::max(maxMasked, s.maskedLanes);
    maxStored = std::max(maxStored, s.storedElement);
  }
  for (const ProgramStats& s : stats) {
    if (s.linearId < 0 || s.linearId >= n) continue;
    Color c;
    switch (coloring) {
      case GridColoring::Pid: c = palette::categorical(s.linearId); break;
      case GridColoring::Order: c = palette::ramp(n > 1 ? static_cast<double>(s.linearId) / static_cast<double>(n - 1) : 0); break;
      case GridColoring::OutputTile:
        // A ramp over where in the output the program stored: remapped pids (swizzle2d) show as a
        // scrambled gradient, programs storing to the same place as one colour.
        c = s.storedElement < 0 ? palette::kNeverWritten
                                : palette::ramp(static_cast<double>(s.storedElement) / static_cast<double>(maxStored));
        break;
      case GridColoring::Bytes: c = palette::heat(static_cast<double>(s.bytesMoved) / static_cast<double>(maxBytes)); break;
      case GridColoring::Masked:
        c = palette::heat(static_cast<double>(s.maskedLanes) / static_cast<double>(maxMasked));
        pc.hatched[s.linearId] = s.maskedLanes > 0;
        break;
    }
    pc.byLinearId[s.linearId] = c;
    pc.traced[s.linearId] = 1;
  }
  pc.legend = std::string("colour ") + gridColoringLabel(coloring);
  if (coloring == GridColoring::Bytes) pc.legend += "; darkest = " + std::to_string(maxBytes) + " bytes";
  if (coloring == GridColoring::Masked) pc.legend += "; darkest = " + std::to_string(maxMasked) + " lanes";
  if (static_cast<int64_t>(stats.size()) < n) pc.legend += "; grey: not traced";
  return pc;
}

namespace {
constexpr double kMargin = 12;
constexpr double kTitleHeight = 40;
constexpr double kAxisWidth = 36;
}  // namespace

namespace {
GridGeometry geometryOf(const std::array<int64_t, 3>& grid, const GridViewOptions& options) {
  GridGeometry g{GridLayout(sim::Grid{grid[0], grid[1], grid[2]}, options.wrap)};
  const double side = static_cast<double>(std::max(g.layout.columns(), g.layout.rows()));
  g.cell = std::max(1.0, std::min(options.cell, std::floor(kMaxGridSide / side)));
  g.left = kMargin + kAxisWidth;
  g.top = kMargin + kTitleHeight;
  return g;
}
}  // namespace

GridGeometry gridGeometry(const sim::LaunchTrace& trace, const GridViewOptions& options) { return geometryOf(trace.grid, options); }

std::optional<Pid> GridGeometry::pidAt(double x, double y, int64_t slice) const {
  if (x < left || y < top) return std::nullopt;
  const auto column = static_cast<int64_t>((x - left) / cell);
  const auto row = static_cast<int64_t>((y - top) / cell);
  return layout.pidAt({column, row, slice});
}

Scene gridScene(const sim::LaunchTrace& trace, const GridViewOptions& options) {
  const std::string title = trace.kernelName + "  grid (" + std::to_string(trace.grid[0]) + ", " + std::to_string(trace.grid[1]) +
                            ", " + std::to_string(trace.grid[2]) + ")  " + std::to_string(trace.programs.size()) + " of " +
                            std::to_string(trace.totalPrograms) + " programs traced";
  return gridScene(trace.grid, title, programColors(trace, options.coloring), options);
}

Scene gridScene(const std::array<int64_t, 3>& grid3, const std::string& gridTitle, const ProgramColors& pc, const GridViewOptions& options) {
  const GridGeometry g = geometryOf(grid3, options);
  const GridLayout& l = g.layout;
  const double gridW = static_cast<double>(l.columns()) * g.cell, gridH = static_cast<double>(l.rows()) * g.cell;
  Scene s(std::max(g.left + gridW + kMargin, 420.0), g.top + gridH + kMargin + 22);
  std::string title = gridTitle;
  if (l.dimensions() == 3) title += "  slice pid_2 = " + std::to_string(options.slice);
  s.add(SceneText{kMargin, kMargin + 14, title, 14, {}, TextAlign::Left, true});
  s.add(SceneText{kMargin, kMargin + 32, pc.legend, 11, {80, 80, 80, 255}});
  const bool labels = g.cell >= 20;
  const sim::Grid grid = l.grid();
  for (int64_t row = 0; row < l.rows(); ++row)
    for (int64_t col = 0; col < l.columns(); ++col) {
      const std::optional<Pid> pid = l.pidAt({col, row, options.slice});
      if (!pid) continue;
      const int64_t id = grid.linearOf(*pid);
      SceneRect r;
      r.x = g.left + static_cast<double>(col) * g.cell;
      r.y = g.top + static_cast<double>(row) * g.cell;
      r.w = r.h = g.cell;
      r.fill = pc.byLinearId[id];
      r.hatched = pc.hatched[id] != 0;
      if (g.cell >= 6) r.stroke = {0xc0, 0xc0, 0xc0, 255};
      s.add(r);
      if (labels) {
        const std::string text = l.dimensions() == 1 ? std::to_string((*pid)[0])
                                                     : std::to_string((*pid)[0]) + "," + std::to_string((*pid)[1]);
        s.add(SceneText{r.x + g.cell / 2, r.y + g.cell / 2 + 4, text, std::min(11.0, g.cell / 2.6), palette::textOn(r.fill),
                        TextAlign::Center});
      }
    }
  if (options.selected) {
    const GridCell c = l.cellOf(*options.selected);
    if (c.slice == options.slice) {
      SceneRect sel;
      sel.x = g.left + static_cast<double>(c.column) * g.cell;
      sel.y = g.top + static_cast<double>(c.row) * g.cell;
      sel.w = sel.h = g.cell;
      sel.fill = {0, 0, 0, 0};
      sel.stroke = palette::kSelection;
      sel.strokeWidth = std::max(2.0, g.cell / 10);
      s.add(sel);
    }
  }
  // Axes: which pid grows along each direction.
  if (l.dimensions() == 1) {
    s.add(SceneText{g.left, g.top + gridH + 16, "pid_0 (wrapped every " + std::to_string(l.columns()) + ")", 11});
  } else {
    s.add(SceneText{g.left, g.top + gridH + 16, "pid_1 \u2192", 11});
    s.add(SceneText{kMargin, g.top + 12, "pid_0", 11});
    s.add(SceneText{kMargin + 8, g.top + 26, "\u2193", 11});
  }
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
