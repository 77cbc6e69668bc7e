#include "core/viz/DotScene.h"

#include <algorithm>

#include "core/sim/Grid.h"
#include "core/viz/ComputeOps.h"
#include "core/viz/Palette.h"
#include "core/viz/TileHeatMap.h"

namespace tilescope::viz {

namespace {

constexpr double kMargin = 12;
constexpr double kSide = 288;  // pixels for the longest side of each tile
const Color kNote{80, 80, 80, 255};

// One operand: its heat map, or a line saying why it is missing. Returns the box it used.
HeatMapBox operand(Scene& s, const sim::TileRef& tile, double x, double y, double cell, const std::string& caption,
                   const std::pair<double, double>* range = nullptr) {
  if (tile) return drawHeatMap(s, *tile, x, y, cell, caption, {}, range);
  s.add(SceneText{x, y - 6, caption, 12, {}, TextAlign::Left, true});
  s.add(SceneText{x, y + 14, "not recorded: more than " + std::to_string(sim::kMaxComputeTileElements) + " elements", 11, palette::kConflict});
  HeatMapBox box;
  box.x = x;
  box.y = y;
  box.cell = 20;
  box.cols = 12;
  return box;
}

}  // namespace

Scene dotScene(const sim::LaunchTrace& trace, const Pid& pid, size_t dotIndex, std::string* error) {
  Scene s;
  const sim::ProgramTrace* program = trace.findProgram(pid);
  if (!program) {
    if (error) *error = "program " + sim::pidString(pid) + " is not in the trace";
    return s;
  }
  const std::vector<ComputeOp> dots = computeOps(trace, *program, true);
  if (dots.empty()) {
    if (error) *error = "program " + sim::pidString(pid) + " computed no tl.dot" +
                        (program->truncated ? " before the trace's size cap cut it short" : "");
    return s;
  }
  const ComputeOp& op = dots[std::min(dotIndex, dots.size() - 1)];
  const auto& d = std::get<sim::DotEvent>(program->compute[op.index]);
  s.add(SceneText{kMargin, kMargin + 14, trace.kernelName + "  pid " + sim::pidString(pid) + "  " + op.title, 14, {}, TextAlign::Left, true});
  s.add(SceneText{kMargin, kMargin + 32, dotKRange(d, op.steps), 11, kNote});
  const std::optional<DotAccumulator> acc = dotAccumulator(*program, d);
  const std::string accName = acc && !acc->name.empty() ? acc->name : "acc";
  s.add(SceneText{kMargin, kMargin + 48,
                  !acc ? std::string("result = A @ B")
                       : acc->name.empty() ? "result = acc + A @ B  (tl.dot's acc=, accumulated in the result's dtype)"
                                           : accName + " = " + accName + " + A @ B  (" + accName + " += tl.dot(...))",
                  11, kNote});

  // One cell size for all four, so A's columns line up with B's rows in length.
  const ir::Shape all = {std::max(d.aShape.empty() ? 1 : d.aShape.front(), d.bShape.empty() ? 1 : d.bShape.front()),
                         std::max(d.aShape.empty() ? 1 : d.aShape.back(), d.bShape.empty() ? 1 : d.bShape.back())};
  const double cell = heatMapCell(all, kSide);
  const int64_t bk = d.aShape.empty() ? 1 : d.aShape.back();
  const std::string kCols = "k " + std::to_string(d.step * bk) + ".." + std::to_string(d.step * bk + bk - 1);
  const auto dtypeOf = [](const sim::TileRef& t, ir::DType fallback) { return t ? t->dtype() : fallback; };
  const ir::DType resultType = dtypeOf(d.result, ir::DType::FP32);

  double y = kMargin + 80;
  const HeatMapBox a = operand(s, d.a, kMargin, y, cell, "A  " + tileShapeText(dtypeOf(d.a, resultType), d.aShape) + "  columns " + kCols);
  const double bx = kMargin + std::max(a.width(), 240.0) + 36;
  s.add(SceneText{bx - 22, y + a.height() / 2 + 6, "@", 18, {}, TextAlign::Center, true});
  const HeatMapBox b = operand(s, d.b, bx, y, cell, "B  " + tileShapeText(dtypeOf(d.b, resultType), d.bShape) + "  rows " + kCols);
  y += std::max(a.height(), b.height()) + 44;
  double right = std::max(a.x + a.width(), b.x + b.width());
  double bottom = y;
  if (acc) {
    // Before and after on one colour scale, so the step's growth shows.
    std::pair<double, double> scale{0, 0};
    if (acc->before && acc->after) {
      const auto b = finiteRange(*acc->before), a = finiteRange(*acc->after);
      scale = {std::min(b.first, a.first), std::max(b.second, a.second)};
    }
    const auto* shared = acc->before && acc->after ? &scale : nullptr;
    const HeatMapBox in = operand(s, acc->before, kMargin, y, cell, accName + " before  " + tileShapeText(dtypeOf(acc->before, resultType), d.resultShape), shared);
    s.add(SceneText{bx - 22, y + in.height() / 2 + 6, "\u2192", 18, {}, TextAlign::Center, true});
    const HeatMapBox out = operand(s, acc->after, bx, y, cell, accName + " after  " + tileShapeText(dtypeOf(acc->after, resultType), d.resultShape), shared);
    right = std::max(right, out.x + out.width());
    bottom = y + std::max(in.height(), out.height());
  } else {
    const HeatMapBox r = operand(s, d.result, kMargin, y, cell, "result  " + tileShapeText(resultType, d.resultShape));
    right = std::max(right, r.x + r.width());
    bottom = y + r.height();
  }
  s.setSize(right + kMargin, bottom + kMargin + 8);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
