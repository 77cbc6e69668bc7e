#include "core/viz/ReduceScene.h"

#include <algorithm>
#include <set>

#include "core/sim/Grid.h"
#include "core/viz/ComputeOps.h"
#include "core/viz/Palette.h"
#include "core/viz/ProgramTiles.h"
#include "core/viz/TileHeatMap.h"

namespace tilescope::viz {

namespace {

constexpr double kMargin = 12;
constexpr double kSide = 420;
constexpr double kGap = 40;  // between the input and the result (room for the arrow's label)
const Color kNote{80, 80, 80, 255};
const Color kArrow{0xd6, 0x27, 0x28, 255};

// The same elements in another shape (a result column beside the input's rows).
sim::Tile reshaped(const sim::Tile& t, ir::Shape shape) {
  if (t.hasFloatStorage()) return sim::Tile::fromFloats(t.dtype(), std::move(shape), {t.floats(), static_cast<size_t>(t.numel())});
  return sim::Tile::fromInts(t.dtype(), std::move(shape), {t.ints(), static_cast<size_t>(t.numel())});
}

std::string what(const sim::ReduceEvent& r) {
  const std::string name = std::string("tl.") + sim::reduceKindName(r.kind);
  const int64_t rank = static_cast<int64_t>(r.inputShape.size());
  if (r.axis < 0 || rank <= 1) return name + " over all " + std::to_string(r.input ? r.input->numel() : 0) + " elements: one result";
  if (rank == 2 && r.axis == 1) return name + " over axis 1: each row gives one result, drawn beside it";
  if (rank == 2 && r.axis == 0) return name + " over axis 0: each column gives one result, drawn under it";
  return name + " over axis " + std::to_string(r.axis) + " of a rank-" + std::to_string(rank) +
         " tile (shown with its leading dimensions folded into rows)";
}

}  // namespace

Scene reduceScene(const sim::LaunchTrace& trace, const Pid& pid, size_t reduceIndex, std::string* error) {
  Scene s;
  const sim::ProgramTrace* program = trace.findProgram(pid);
  if (!program) {
    if (error) *error = "program " + sim::pidString(pid) + " is not in the trace";
    return s;
  }
  const std::vector<ComputeOp> ops = computeOps(trace, *program, false);
  if (ops.empty()) {
    if (error) *error = "program " + sim::pidString(pid) + " computed no reduction" +
                        (program->truncated ? " before the trace's size cap cut it short" : "");
    return s;
  }
  const ComputeOp& op = ops[std::min(reduceIndex, ops.size() - 1)];
  const auto& r = std::get<sim::ReduceEvent>(program->compute[op.index]);
  s.add(SceneText{kMargin, kMargin + 14, trace.kernelName + "  pid " + sim::pidString(pid) + "  " + op.title, 14, {}, TextAlign::Left, true});
  s.add(SceneText{kMargin, kMargin + 32, what(r), 11, kNote});
  const std::vector<int64_t> winners = reductionWinners(r);
  if (!winners.empty())
    s.add(SceneText{kMargin, kMargin + 48,
                    r.kind == sim::ReduceKind::ArgMax || r.kind == sim::ReduceKind::ArgMin
                        ? "framed: the element each result points at (ties: the first index)"
                        : "framed: the element each result came from (the first, on ties)",
                    11, kNote});
  if (!r.input || !r.result) {
    s.add(SceneText{kMargin, kMargin + 72, "tiles not recorded: more than " + std::to_string(sim::kMaxComputeTileElements) + " elements",
                    12, palette::kConflict});
    s.setSize(0, kMargin + 90);
    s.fitTextWidth();
    return s;
  }
  const int64_t rank = static_cast<int64_t>(r.inputShape.size());
  const bool alongColumns = r.axis < 0 || rank <= 1 || (rank == 2 && r.axis == 1);  // arrow left to right
  const bool alongRows = rank == 2 && r.axis == 0;                                   // arrow top to bottom
  const double cell = heatMapCell(r.inputShape, kSide, 36);  // small tiles (a softmax row) drawn large
  const double x0 = kMargin + (alongRows ? 28 : 0);
  const double y0 = kMargin + 100;
  const std::set<int64_t> framed(winners.begin(), winners.end());
  // A max/min/sum keeps the input's units: input and result share one colour scale (widened to the
  // result for a sum); argmax/argmin results are indices, on a scale of their own.
  const bool indices = r.kind == sim::ReduceKind::ArgMax || r.kind == sim::ReduceKind::ArgMin;
  std::pair<double, double> scale = finiteRange(*r.input);
  if (!indices) {
    const auto own = finiteRange(*r.result);
    scale = {std::min(scale.first, own.first), std::max(scale.second, own.second)};
  }
  const HeatMapBox in = drawHeatMap(s, *r.input, x0, y0, cell, "input  " + tileShapeText(r.input->dtype(), r.inputShape), framed, &scale);
  const std::string axisLabel = r.axis < 0 ? "all elements" : "axis " + std::to_string(r.axis) + " (reduced)";
  double right = in.x + in.width(), bottom = in.y + in.height();
  const std::pair<double, double>* resultRange = indices ? nullptr : &scale;
  const std::string resultCaption = "result  " + tileShapeText(r.result->dtype(), r.resultShape);
  if (alongColumns) {
    // Arrow over the input's width, pointing at the result.
    const double ay = in.y + in.height() + 14;
    s.add(SceneLine{in.x, ay, in.x + in.width() + kGap - 8, ay, kArrow, 2, true});
    s.add(SceneText{in.x, ay + 16, axisLabel, 11, kArrow, TextAlign::Left, true});
    const double rx = in.x + in.width() + kGap;
    const bool perRow = r.axis >= 0 && rank == 2;
    const sim::Tile column = reshaped(*r.result, perRow ? ir::Shape{r.result->numel(), 1} : ir::Shape{1, 1});
    const HeatMapBox out = drawHeatMap(s, column, rx, in.y, in.cell, "", {}, resultRange);
    s.add(SceneText{rx, in.y - 22, resultCaption, 12, {}, TextAlign::Left, true});
    right = out.x + out.width() + 8;
    bottom = std::max(bottom, ay + 20);
  } else if (alongRows) {
    const double ax = in.x - 14;
    s.add(SceneLine{ax, in.y, ax, in.y + in.height() + kGap - 8, kArrow, 2, true});
    s.add(SceneText{in.x, in.y + in.height() + 14, axisLabel, 11, kArrow, TextAlign::Left, true});
    const double ry = in.y + in.height() + kGap + 8;
    const sim::Tile row = reshaped(*r.result, ir::Shape{1, r.result->numel()});
    const HeatMapBox out = drawHeatMap(s, row, in.x, ry, in.cell, resultCaption, {}, resultRange);
    bottom = out.y + out.height();
  } else {
    s.add(SceneText{in.x, in.y + in.height() + 16, axisLabel, 11, kArrow, TextAlign::Left, true});
    const double ry = in.y + in.height() + kGap + 16;
    const HeatMapBox out = drawHeatMap(s, *r.result, in.x, ry, heatMapCell(r.resultShape, kSide), resultCaption, {}, resultRange);
    right = std::max(right, out.x + out.width());
    bottom = out.y + out.height();
  }
  s.setSize(right + kMargin, bottom + kMargin + 8);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
