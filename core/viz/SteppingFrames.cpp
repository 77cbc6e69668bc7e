#include "core/viz/SteppingFrames.h"

#include <algorithm>

#include "core/sim/Grid.h"
#include "core/viz/ProgramTiles.h"
#include "core/viz/TilesScene.h"

namespace tilescope::viz {

namespace {

constexpr double kCaptionHeight = 24;

// The scene with the caption line added below it, so a slide says where in the stepping it is.
Scene withCaption(Scene scene, const std::string& caption) {
  const double y = scene.height() + 16;
  scene.setSize(scene.width(), scene.height() + kCaptionHeight);
  scene.add(SceneText{12, y, caption, 12, {60, 60, 60, 255}});
  scene.fitTextWidth();
  return scene;
}

}  // namespace

std::optional<SteppingFrames> SteppingFrames::make(const sim::LaunchTrace& trace, SteppingOptions options, std::string* error) {
  auto fail = [error](std::string message) -> std::optional<SteppingFrames> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  SteppingFrames frames(trace, std::move(options));
  SteppingOptions& o = frames.options_;
  if (o.unit == SteppingUnit::Ops) {
    if (o.view == SteppingView::Grid)
      return fail("stepping through memory operations shows the tiles view; use the tiles view (the grid does not change between operations)");
    const sim::ProgramTrace* program = trace.findProgram(o.program);
    if (!program) return fail("program " + sim::pidString(o.program) + " is not in the trace (" + trace.policy + ")");
    frames.opCount_ = memoryOps(trace, *program).size();
    if (frames.opCount_ == 0) return fail("program " + sim::pidString(o.program) + " made no memory operation to step through");
    return frames;
  }
  if (o.programs.empty())
    for (const sim::ProgramTrace& p : trace.programs) o.programs.push_back(p.pid);
  if (o.programs.empty()) return fail("the trace holds no program to step through (" + trace.policy + ")");
  for (const Pid& pid : o.programs)
    if (!trace.findProgram(pid)) return fail("program " + sim::pidString(pid) + " is not in the trace (" + trace.policy + ")");
  return frames;
}

size_t SteppingFrames::count() const { return options_.unit == SteppingUnit::Ops ? opCount_ : options_.programs.size(); }

std::string SteppingFrames::caption(size_t index) const {
  const std::string step = "step " + std::to_string(index + 1) + " of " + std::to_string(count()) + ": ";
  if (options_.unit == SteppingUnit::Ops) {
    const std::vector<MemoryOp> ops = memoryOps(*trace_, *trace_->findProgram(options_.program));
    return step + "pid " + sim::pidString(options_.program) + ", " + ops[index].title();
  }
  return step + "pid " + sim::pidString(options_.programs[index]);
}

Scene SteppingFrames::frame(size_t index) const {
  if (index >= count()) return {};
  if (options_.unit == SteppingUnit::Ops)
    return withCaption(tilesScene(*trace_, options_.program, index, nullptr), caption(index));
  const Pid& pid = options_.programs[index];
  if (options_.view == SteppingView::Grid) {
    GridViewOptions g;
    g.coloring = options_.coloring;
    g.selected = pid;
    g.slice = pid[2];
    return withCaption(gridScene(*trace_, g), caption(index));
  }
  const size_t ops = memoryOps(*trace_, *trace_->findProgram(pid)).size();
  if (ops == 0) {
    Scene empty(420, 40);
    empty.add(SceneText{12, 26, trace_->kernelName + "  pid " + sim::pidString(pid) + ": no memory operation", 14, {}, TextAlign::Left, true});
    return withCaption(std::move(empty), caption(index));
  }
  return withCaption(tilesScene(*trace_, pid, std::min(options_.op, ops - 1), nullptr), caption(index));
}

}  // namespace tilescope::viz
