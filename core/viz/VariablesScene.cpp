#include "core/viz/VariablesScene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <variant>

#include "core/sim/DeviceAddress.h"
#include "core/sim/Grid.h"
#include "core/viz/Palette.h"
#include "core/viz/ProgramTiles.h"

namespace tilescope::viz {

namespace {

constexpr double kMargin = 12;
constexpr int64_t kMaxCells = 4096;  // larger tiles show their first rows

struct Binding {
  int line = 0;
  sim::TileRef value;
  size_t sequence = 0;  // position among the program's bindings
};

// Each variable's bindings in order, variables in order of first binding.
std::vector<std::pair<std::string, std::vector<Binding>>> bindings(const sim::LaunchTrace& trace, const sim::ProgramTrace& p) {
  std::vector<std::pair<std::string, std::vector<Binding>>> out;
  std::map<std::string, size_t> index;
  size_t sequence = 0;
  for (const sim::TraceEvent& ev : p.events) {
    const auto* b = std::get_if<sim::BindEvent>(&ev);
    if (!b || !b->value) continue;
    auto [it, inserted] = index.emplace(b->name, out.size());
    if (inserted) out.push_back({b->name, {}});
    const int line = b->location < trace.locations.size() ? trace.locations[b->location].line : 0;
    out[it->second].second.push_back({line, b->value, sequence++});
  }
  return out;
}

// The loop counter that defines the steps: the scalar variable bound most often (more than once);
// -1 when there is none (no loop: one step, the whole program).
int clockOf(const std::vector<std::pair<std::string, std::vector<Binding>>>& vars) {
  int clock = -1;
  size_t most = 1;
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i].second.front().value->isScalar() && vars[i].second.size() > most) {
      most = vars[i].second.size();
      clock = static_cast<int>(i);
    }
  return clock;
}

}  // namespace

int64_t bindingSteps(const sim::LaunchTrace& trace, const std::array<int64_t, 3>& pid) {
  const sim::ProgramTrace* p = trace.findProgram(pid);
  if (!p) return 0;
  const auto vars = bindings(trace, *p);
  const int clock = clockOf(vars);
  return clock < 0 ? 1 : static_cast<int64_t>(vars[clock].second.size());
}

Scene variablesScene(const sim::LaunchTrace& trace, const std::array<int64_t, 3>& pid, int64_t step) {
  Scene s;
  const sim::ProgramTrace* p = trace.findProgram(pid);
  s.add(SceneText{kMargin, kMargin + 14, trace.kernelName + "  pid " + sim::pidString(pid) + "  named tiles", 14, {}, TextAlign::Left, true});
  if (!p) {
    s.add(SceneText{kMargin, kMargin + 40, "program " + sim::pidString(pid) + " is not in the trace", 12, palette::kConflict});
    s.setSize(0, 70);
    s.fitTextWidth();
    return s;
  }
  const auto vars = bindings(trace, *p);
  const int clock = clockOf(vars);
  const int64_t steps = clock < 0 ? 1 : static_cast<int64_t>(vars[clock].second.size());
  const int64_t k = std::clamp<int64_t>(step, 0, steps - 1);
  // Step k ends where the loop counter is bound for the (k+1)-th time: each variable shows its last
  // binding before that, i.e. its value at the end of iteration k.
  const size_t end = clock < 0 || k + 1 >= steps ? SIZE_MAX : vars[clock].second[static_cast<size_t>(k + 1)].sequence;
  s.add(SceneText{kMargin, kMargin + 32,
                  clock < 0 ? std::string("the program's last value of each variable")
                            : "end of loop step " + std::to_string(k + 1) + " of " + std::to_string(steps) + " (loop variable " +
                                  vars[clock].first + ")",
                  11, {80, 80, 80, 255}});
  double y = kMargin + 60;
  double right = 0;
  for (const auto& [name, list] : vars) {
    if (list.front().sequence >= end) continue;  // not bound yet at this step
    size_t which = 0;
    while (which + 1 < list.size() && list[which + 1].sequence < end) ++which;
    const sim::Tile& t = *list[which].value;
    const auto [rows, cols] = view2d(t.shape());
    const int64_t shownRows = std::min(rows, std::max<int64_t>(1, kMaxCells / std::max<int64_t>(1, cols)));
    const int64_t cells = std::min(t.numel(), shownRows * cols);
    // Values as numbers for the heat map: pointers as element offsets into their tensor.
    std::vector<double> v(static_cast<size_t>(cells));
    const int elem = sim::elementBytes(t.dtype());
    for (int64_t i = 0; i < cells; ++i)
      v[i] = t.isPointer() ? static_cast<double>(sim::DeviceAddress::byteOffset(t.asInt(i)) / elem) : t.asDouble(i);
    double lo = 0, hi = 0;
    bool first = true;
    for (double x : v)
      if (std::isfinite(x)) {
        lo = first ? x : std::min(lo, x);
        hi = first ? x : std::max(hi, x);
        first = false;
      }
    std::string caption = name + "  " + std::string(ir::dtypeName(t.dtype())) + (t.isPointer() ? " pointer (element offsets)" : "") + " [";
    for (size_t d = 0; d < t.shape().size(); ++d) caption += (d ? ", " : "") + std::to_string(t.shape()[d]);
    caption += "]  line " + std::to_string(list[which].line) + ", binding " + std::to_string(which + 1) + " of " + std::to_string(list.size());
    if (cells < t.numel()) caption += ", first " + std::to_string(shownRows) + " rows";
    s.add(SceneText{kMargin, y, caption, 12, {}, TextAlign::Left, true});
    y += 6;
    const double cell = std::clamp(std::floor(480.0 / static_cast<double>(std::max(cols, shownRows))), 3.0, 30.0);
    const bool isBool = ir::isBool(t.dtype());
    for (int64_t i = 0; i < cells; ++i) {
      SceneRect r;
      r.x = kMargin + static_cast<double>(i % cols) * cell;
      r.y = y + static_cast<double>(i / cols) * cell;
      r.w = r.h = cell;
      r.fill = isBool ? (v[i] != 0 ? palette::kActive : palette::kMasked)
                      : palette::ramp(hi > lo ? 0.15 + 0.85 * (v[i] - lo) / (hi - lo) : 0.5);
      r.hatched = isBool && v[i] == 0;
      r.stroke = {255, 255, 255, 255};
      r.strokeWidth = 0.5;
      s.add(r);
      if (cell >= 18) {
        const std::string text = isBool ? std::string(v[i] != 0 ? "T" : "F") : formatNumber(v[i], t.hasFloatStorage() && !t.isPointer());
        const double size = std::min(10.0, cell * 1.5 / std::max<double>(3.0, static_cast<double>(text.size())));
        s.add(SceneText{r.x + cell / 2, r.y + cell / 2 + size / 3, text, size, palette::textOn(r.fill), TextAlign::Center});
      }
    }
    right = std::max(right, kMargin + static_cast<double>(cols) * cell);
    y += static_cast<double>(cells / cols + (cells % cols != 0)) * cell + 30;
  }
  s.setSize(right + kMargin, y);
  s.fitTextWidth();
  return s;
}

}  // namespace tilescope::viz
