#include "core/viz/TimingColors.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/sim/Grid.h"
#include "core/viz/Palette.h"

namespace tilescope::viz {

namespace {

constexpr size_t kMaxSmSwatches = 24;

sim::Grid gridOf(const gpu::LaunchTiming& t) { return {t.grid[0], t.grid[1], t.grid[2]}; }

uint64_t durationOf(const gpu::ProgramTime& p) { return p.endNs > p.startNs ? p.endNs - p.startNs : 0; }

std::string microseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, ns < 10000 ? "%.2f us" : "%.1f us", ns / 1000.0);
  return text;
}

struct DurationRange {
  uint64_t shortest = 0, longest = 0;
  double at(uint64_t d) const { return longest > shortest ? static_cast<double>(d - shortest) / static_cast<double>(longest - shortest) : 0; }
};

DurationRange durationRange(const gpu::LaunchTiming& timing) {
  DurationRange r{UINT64_MAX, 0};
  for (const gpu::ProgramTime& p : timing.programs) {
    r.shortest = std::min(r.shortest, durationOf(p));
    r.longest = std::max(r.longest, durationOf(p));
  }
  if (timing.programs.empty()) r.shortest = 0;
  return r;
}

std::map<int64_t, int64_t> programsPerSm(const gpu::LaunchTiming& timing) {
  std::map<int64_t, int64_t> count;
  for (const gpu::ProgramTime& p : timing.programs) ++count[p.sm];
  return count;
}

}  // namespace

ProgramColors timingColors(const gpu::LaunchTiming& timing, TimingColoring coloring) {
  const sim::Grid grid = gridOf(timing);
  const int64_t n = std::max<int64_t>(0, grid.count());
  ProgramColors pc;
  pc.byLinearId.assign(static_cast<size_t>(n), palette::kUntraced);
  pc.hatched.assign(static_cast<size_t>(n), 0);
  pc.traced.assign(static_cast<size_t>(n), 0);
  const DurationRange range = durationRange(timing);
  int64_t timed = 0;
  for (const gpu::ProgramTime& p : timing.programs) {
    if (p.pid[0] >= grid.x || p.pid[1] >= grid.y || p.pid[2] >= grid.z || p.pid[0] < 0 || p.pid[1] < 0 || p.pid[2] < 0) continue;
    const int64_t id = grid.linearOf({p.pid[0], p.pid[1], p.pid[2]});
    pc.byLinearId[static_cast<size_t>(id)] = coloring == TimingColoring::Duration ? palette::ramp(range.at(durationOf(p))) : palette::categorical(p.sm);
    pc.traced[static_cast<size_t>(id)] = 1;
    ++timed;
  }
  if (coloring == TimingColoring::Duration)
    pc.legend = "colour by duration on the GPU: dark " + microseconds(static_cast<double>(range.shortest)) + " to yellow " +
                microseconds(static_cast<double>(range.longest));
  else
    pc.legend = "colour by the SM each program ran on (" + std::to_string(timing.smCount()) + " SMs)";
  if (timed < n) pc.legend += "; grey: no timing";
  return pc;
}

std::vector<LegendSwatch> timingLegend(const gpu::LaunchTiming& timing, TimingColoring coloring) {
  std::vector<LegendSwatch> out;
  if (timing.programs.empty()) return out;
  if (coloring == TimingColoring::Duration) {
    const DurationRange range = durationRange(timing);
    for (int i = 0; i <= 4; ++i) {
      const double t = i / 4.0;
      const double ns = static_cast<double>(range.shortest) + t * static_cast<double>(range.longest - range.shortest);
      out.push_back({palette::ramp(t), microseconds(ns)});
      if (range.longest == range.shortest) break;  // one duration: one swatch
    }
    return out;
  }
  const std::map<int64_t, int64_t> perSm = programsPerSm(timing);
  for (const auto& [sm, programs] : perSm) {
    if (out.size() == kMaxSmSwatches) {
      out.push_back({palette::kUntraced, "... " + std::to_string(perSm.size() - kMaxSmSwatches) + " more SMs"});
      break;
    }
    out.push_back({palette::categorical(sm), "SM " + std::to_string(sm) + " (" + std::to_string(programs) + ")"});
  }
  return out;
}

Scene timingGridScene(const gpu::LaunchTiming& timing, TimingColoring coloring, const GridViewOptions& options) {
  const std::array<int64_t, 3> grid{timing.grid[0], timing.grid[1], timing.grid[2]};
  const std::string title = timing.kernel + "  grid " + sim::pidString(grid) + "  GPU launch " + std::to_string(timing.launch) + ", " +
                            std::to_string(timing.programs.size()) + " programs timed";
  Scene s = gridScene(grid, title, timingColors(timing, coloring), options);
  // Swatches in rows of up to six below the grid.
  const double top = s.height() + 4, swatch = 14, column = 130;
  const std::vector<LegendSwatch> legend = timingLegend(timing, coloring);
  for (size_t i = 0; i < legend.size(); ++i) {
    const double x = 12 + static_cast<double>(i % 6) * column, y = top + static_cast<double>(i / 6) * (swatch + 8);
    SceneRect r;
    r.x = x, r.y = y, r.w = swatch, r.h = swatch;
    r.fill = legend[i].color;
    r.stroke = palette::kGridLine;
    r.strokeWidth = 0.5;
    s.add(r);
    s.add(SceneText{x + swatch + 5, y + swatch - 3, legend[i].label, 11});
  }
  const double rows = static_cast<double>((legend.size() + 5) / 6);
  s.setSize(std::max(s.width(), 12 + std::min<double>(6, static_cast<double>(legend.size())) * column), top + rows * (swatch + 8) + 8);
  s.fitTextWidth();
  return s;
}

std::string programTimingText(const gpu::LaunchTiming& timing, const std::array<int64_t, 3>& pid) {
  for (const gpu::ProgramTime& p : timing.programs)
    if (p.pid[0] == pid[0] && p.pid[1] == pid[1] && p.pid[2] == pid[2])
      return "SM " + std::to_string(p.sm) + ", " + microseconds(static_cast<double>(durationOf(p))) + " (" +
             microseconds(static_cast<double>(p.startNs)) + " to " + microseconds(static_cast<double>(p.endNs)) + ")";
  return "";
}

}  // namespace tilescope::viz
