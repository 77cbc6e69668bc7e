#include "core/viz/TilesScene.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/sim/Grid.h"
#include "core/viz/Palette.h"
#include "core/viz/ProgramTiles.h"

namespace tilescope::viz {

namespace {

constexpr double kMargin = 12;
constexpr int64_t kWrapLanes = 32;
constexpr int64_t kMaxTensorCells = 4096;  // larger tensors show the rows around this op's elements

struct Panel {
  double x = 0, y = 0;
  int64_t rows = 1, cols = 1;
  double cell = 30;
  double width() const { return static_cast<double>(cols) * cell; }
  double height() const { return static_cast<double>(rows) * cell; }
};

// Display rows/columns of a tile: its 2-D view, long single rows wrapped.
std::pair<int64_t, int64_t> displayShape(int64_t rows, int64_t cols) {
  if (rows == 1 && cols > kWrapLanes) return {(cols + kWrapLanes - 1) / kWrapLanes, kWrapLanes};
  return {rows, cols};
}

// Draws one tile: cell i gets fill(i), label(i) (when it fits) and hatching when hatched(i).
// Cells first .. first + count - 1 (a window of whole rows when first > 0).
void drawTile(Scene& s, const Panel& p, const std::string& caption, int64_t count, const std::function<Color(int64_t)>& fill,
              const std::function<std::string(int64_t)>& label, const std::function<bool(int64_t)>& hatched, int64_t first = 0) {
  s.add(SceneText{p.x, p.y - 6, caption, 12, {}, TextAlign::Left, true});
  const bool text = p.cell >= 18;
  for (int64_t i = first; i < first + count; ++i) {
    SceneRect r;
    r.x = p.x + static_cast<double>((i - first) % p.cols) * p.cell;
    r.y = p.y + static_cast<double>((i - first) / p.cols) * p.cell;
    r.w = r.h = p.cell;
    r.fill = fill(i);
    r.stroke = palette::kGridLine;
    r.strokeWidth = 0.5;
    r.hatched = hatched(i);
    s.add(r);
    if (text) {
      const std::string t = label(i);
      const double size = std::min(11.0, p.cell * 1.5 / std::max<double>(3.0, static_cast<double>(t.size())));
      s.add(SceneText{r.x + p.cell / 2, r.y + p.cell / 2 + size / 3, t, size, palette::textOn(r.fill), TextAlign::Center});
    }
  }
}

}  // namespace

Scene tilesScene(const sim::LaunchTrace& trace, const Pid& pid, size_t opIndex, std::string* error) {
  const sim::ProgramTrace* program = trace.findProgram(pid);
  if (!program) {
    if (error) *error = "program " + sim::pidString(pid) + " is not in the trace (" + trace.policy + ")";
    return {};
  }
  const std::vector<MemoryOp> ops = memoryOps(trace, *program);
  if (opIndex >= ops.size()) {
    if (error)
      *error = "program " + sim::pidString(pid) + " made " + std::to_string(ops.size()) + " memory operation" +
               (ops.size() == 1 ? "" : "s") + "; there is no operation " + std::to_string(opIndex);
    return {};
  }
  const MemoryOp& op = ops[opIndex];
  const int64_t lanes = static_cast<int64_t>(op.offsets.size());
  const auto [rows, cols] = displayShape(op.rows, op.cols);

  Scene s;
  const std::string title = trace.kernelName + "  pid " + sim::pidString(pid) + "  operation " + std::to_string(opIndex + 1) +
                            " of " + std::to_string(ops.size()) + ": " + op.title();
  s.add(SceneText{kMargin, kMargin + 14, title, 14, {}, TextAlign::Left, true});
  std::string shapeText = "lanes: " + std::to_string(lanes) + " (" + std::to_string(op.activeLanes) + " active, " +
                          std::to_string(op.maskedLanes) + " masked off)";
  s.add(SceneText{kMargin, kMargin + 32, shapeText, 11, {80, 80, 80, 255}});

  Panel p;
  p.rows = rows;
  p.cols = cols;
  p.cell = std::clamp(std::floor(420.0 / static_cast<double>(std::max(cols, rows))), 4.0, 40.0);
  p.x = kMargin;
  p.y = kMargin + 62;

  int64_t lo = 0, hi = 0;
  if (lanes) {
    lo = *std::min_element(op.offsets.begin(), op.offsets.end());
    hi = *std::max_element(op.offsets.begin(), op.offsets.end());
  }
  auto scaled = [](double v, double a, double b) { return b > a ? (v - a) / (b - a) : 0.0; };
  drawTile(
      s, p, "offsets", lanes, [&](int64_t i) { return palette::heat(0.15 + 0.6 * scaled(static_cast<double>(op.offsets[i]), static_cast<double>(lo), static_cast<double>(hi))); },
      [&](int64_t i) { return std::to_string(op.offsets[i]); }, [](int64_t) { return false; });
  p.x += p.width() + 24;
  drawTile(
      s, p, "mask", lanes, [&](int64_t i) { return op.mask[i] ? palette::kActive : palette::kMasked; },
      [&](int64_t i) { return std::string(op.mask[i] ? "T" : "F"); }, [&](int64_t i) { return !op.mask[i]; });
  double right = p.x + p.width();
  if (op.hasValues) {
    p.x += p.width() + 24;
    double vlo = 0, vhi = 0;
    bool first = true;
    for (int64_t i = 0; i < lanes; ++i)
      if (std::isfinite(op.values[i])) {
        vlo = first ? op.values[i] : std::min(vlo, op.values[i]);
        vhi = first ? op.values[i] : std::max(vhi, op.values[i]);
        first = false;
      }
    drawTile(
        s, p, op.kind == sim::MemOpKind::Load ? "values loaded" : "values stored", lanes,
        [&](int64_t i) { return palette::ramp(0.2 + 0.8 * scaled(op.values[i], vlo, vhi)); },
        [&](int64_t i) { return formatNumber(op.values[i], op.floatValues); }, [&](int64_t i) { return !op.mask[i]; });
    right = p.x + p.width();
  }
  double bottom = p.y + p.height();

  // The addressed tensor, this operation's elements highlighted.
  int64_t elements = 1;
  for (int64_t d : op.tensorShape) elements *= d;
  if (op.tensorId != 0 && elements > 0) {
    auto [trows, tcols] = view2d(op.tensorShape);
    if (trows == 1 && tcols > 64) {
      trows = (tcols + 63) / 64;
      tcols = 64;
    }
    // A large tensor: only the rows this operation touches (at most 64 of them, one row of context).
    int64_t firstRow = 0, rowCount = trows;
    if (elements > kMaxTensorCells) {
      int64_t lo = elements, hi = -1;
      for (int64_t i = 0; i < lanes; ++i)
        if (op.offsets[i] >= 0 && op.offsets[i] < elements) {
          lo = std::min(lo, op.offsets[i]);
          hi = std::max(hi, op.offsets[i]);
        }
      firstRow = hi < 0 ? 0 : std::max<int64_t>(0, lo / tcols - 1);
      const int64_t lastRow = hi < 0 ? 0 : std::min(trows - 1, hi / tcols + 1);
      rowCount = std::min<int64_t>(64, lastRow - firstRow + 1);
    }
    const int64_t first = firstRow * tcols;
    const int64_t count = std::min(elements - first, rowCount * tcols);
    std::vector<uint8_t> touched(static_cast<size_t>(count), 0);  // 1 active lane, 2 masked-off lane
    for (int64_t i = 0; i < lanes; ++i) {
      const int64_t e = op.offsets[i] - first;
      if (e < 0 || e >= count) continue;
      if (op.mask[i]) touched[e] = 1;
      else if (!touched[e]) touched[e] = 2;
    }
    Panel t;
    t.rows = rowCount;
    t.cols = tcols;
    t.cell = std::clamp(std::floor(640.0 / static_cast<double>(std::max(tcols, rowCount))), 2.0, 30.0);
    t.x = kMargin;
    t.y = bottom + 40;
    std::string caption = "tensor " + (op.argName.empty() ? op.tensorName : op.argName) + " shape [";
    for (size_t d = 0; d < op.tensorShape.size(); ++d) caption += (d ? ", " : "") + std::to_string(op.tensorShape[d]);
    caption += "]";
    if (count < elements) caption += " elements " + std::to_string(first) + ".." + std::to_string(first + count - 1);
    caption += ": elements this operation addresses (orange: active lanes, hatched: masked-off lanes)";
    drawTile(
        s, t, caption, count,
        [&](int64_t i) { return touched[i - first] == 1 ? palette::kHighlight : Color{0xf2, 0xf2, 0xf2, 255}; },
        [&](int64_t i) { return std::to_string(i); }, [&](int64_t i) { return touched[i - first] == 2; }, first);
    right = std::max(right, t.x + t.width());
    bottom = t.y + t.height();
    // Offsets outside the tensor (masked lanes past the end) are listed, since they have no cell.
    int64_t outside = 0;
    for (int64_t i = 0; i < lanes; ++i) outside += op.offsets[i] < 0 || op.offsets[i] >= elements;
    if (outside) {
      s.add(SceneText{kMargin, bottom + 18,
                      std::to_string(outside) + " lane" + (outside == 1 ? "" : "s") + " point outside the tensor" +
                          (op.activeLanes == lanes ? "" : " (masked off)"),
                      11, palette::kConflict});
      bottom += 22;
    }
  }
  s.setSize(std::max(right + kMargin, 560.0), bottom + kMargin + 8);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
