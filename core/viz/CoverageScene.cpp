#include "core/viz/CoverageScene.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/viz/Palette.h"
#include "core/viz/ProgramTiles.h"
#include "core/viz/TraceCoverage.h"

namespace tilescope::viz {

namespace {
constexpr double kMargin = 12;
constexpr int64_t kMaxCells = 262144;
}  // namespace

Scene coverageScene(const sim::LaunchTrace& trace) {
  const TraceCoverage cov = traceCoverage(trace);
  const sim::Grid grid{trace.grid[0], trace.grid[1], trace.grid[2]};
  Scene s;
  double y = kMargin + 14;
  double right = 560;
  s.add(SceneText{kMargin, y, trace.kernelName + "  write coverage of each output tensor", 14, {}, TextAlign::Left, true});
  y += 18;
  // Legend.
  const struct {
    Color fill;
    bool hatched;
    const char* text;
  } legend[] = {{palette::categorical(0), false, "written (colour of the writing program, as in the grid)"},
                {palette::kNeverWritten, true, "never written"},
                {palette::kConflict, false, "written by several programs with different values"}};
  for (const auto& l : legend) {
    SceneRect r{kMargin, y, 12, 12, l.fill, palette::kGridLine, 0.5, l.hatched};
    s.add(r);
    s.add(SceneText{kMargin + 18, y + 10, l.text, 11});
    y += 16;
  }
  if (!cov.note.empty()) {
    s.add(SceneText{kMargin, y + 10, "note: " + cov.note, 11, palette::kConflict});
    y += 16;
  }
  if (cov.tensors.empty()) {
    s.add(SceneText{kMargin, y + 20, "the kernel stored to no tensor", 12});
    y += 26;
  }
  for (const OutputCoverage& t : cov.tensors) {
    y += 28;
    std::string shape;
    for (size_t d = 0; d < t.summary.shape.size(); ++d) shape += (d ? ", " : "") + std::to_string(t.summary.shape[d]);
    s.add(SceneText{kMargin, y, (t.summary.argName.empty() ? t.summary.tensorName : t.summary.argName) + " [" + shape + "]", 13,
                    {}, TextAlign::Left, true});
    y += 8;
    const int64_t elements = t.summary.elements;
    if (elements > kMaxCells) {
      s.add(SceneText{kMargin, y + 14, "too many elements to draw (" + std::to_string(elements) + ")", 11});
      y += 20;
    } else if (elements > 0) {
      auto [rows, cols] = view2d(t.summary.shape);
      if (rows == 1 && cols > 64) {
        rows = (cols + 63) / 64;
        cols = 64;
      }
      const double cell = std::clamp(std::floor(640.0 / static_cast<double>(std::max(rows, cols))), 2.0, 32.0);
      for (int64_t e = 0; e < elements; ++e) {
        SceneRect r;
        r.x = kMargin + static_cast<double>(e % cols) * cell;
        r.y = y + static_cast<double>(e / cols) * cell;
        r.w = r.h = cell;
        const int64_t w = t.writer[e];
        r.fill = w < 0 ? palette::kNeverWritten : t.conflicting[e] ? palette::kConflict : palette::categorical(w);
        r.hatched = w < 0;
        r.stroke = palette::kGridLine;
        r.strokeWidth = 0.5;
        s.add(r);
        if (cell >= 20 && w >= 0) {
          const auto pid = grid.pidOf(w);
          const std::string label = grid.y > 1 || grid.z > 1 ? std::to_string(pid[0]) + "," + std::to_string(pid[1]) : std::to_string(pid[0]);
          s.add(SceneText{r.x + cell / 2, r.y + cell / 2 + 4, (t.writes[e] > 1 ? "*" : "") + label, std::min(11.0, cell / 2.4),
                          palette::textOn(r.fill), TextAlign::Center});
        }
      }
      right = std::max(right, kMargin + static_cast<double>(cols) * cell + kMargin);
      y += static_cast<double>(rows) * cell;
    }
    // The report's sentence, one line per clause.
    sim::CoverageReport one;
    one.tensors.push_back(t.summary);
    std::string text = one.render();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::string clause;
    std::istringstream in(text);
    while (std::getline(in, clause, ';')) {
      y += 16;
      if (clause.size() > 1 && clause[0] == ' ') clause.erase(0, 1);
      s.add(SceneText{kMargin, y, clause, 11, t.summary.neverWritten || t.summary.conflicting ? palette::kConflict : Color{0, 110, 0, 255}});
    }
    if (t.summary.writtenByMany) {
      y += 16;
      s.add(SceneText{kMargin, y, "* written by more than one program", 11, {80, 80, 80, 255}});
    }
  }
  s.setSize(right, y + kMargin + 8);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
