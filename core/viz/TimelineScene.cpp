#include "core/viz/TimelineScene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "core/viz/Palette.h"

namespace tilescope::viz {

namespace {
constexpr double kLeft = 64, kTop = 48, kLane = 12, kRowGap = 3;

// A tick step of 1, 2 or 5 times a power of ten giving at most about 8 ticks.
double tickStep(double span) {
  if (span <= 0) return 1;
  const double raw = span / 8;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

std::string microseconds(double ns) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", ns / 1000.0);
  return buffer;
}
}  // namespace

TimelineLayout timelineLayout(const gpu::LaunchTiming& launch) {
  TimelineLayout layout;
  std::map<int64_t, size_t> rowOf;
  for (const gpu::ProgramTime& p : launch.programs) rowOf.emplace(p.sm, 0);
  for (auto& [sm, row] : rowOf) {
    row = layout.sms.size();
    layout.sms.push_back(sm);
  }
  layout.lanes.assign(layout.sms.size(), 0);
  layout.bars.resize(launch.programs.size());
  std::vector<size_t> order(launch.programs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return launch.programs[a].startNs < launch.programs[b].startNs; });
  std::vector<std::vector<uint64_t>> laneEnds(layout.sms.size());  // per row: when each lane is free again
  for (size_t i : order) {
    const gpu::ProgramTime& p = launch.programs[i];
    const size_t row = rowOf[p.sm];
    std::vector<uint64_t>& ends = laneEnds[row];
    size_t lane = 0;
    while (lane < ends.size() && ends[lane] > p.startNs) ++lane;
    if (lane == ends.size()) ends.push_back(0);
    ends[lane] = p.endNs;
    layout.bars[i] = {i, row, lane};
  }
  for (size_t r = 0; r < laneEnds.size(); ++r) layout.lanes[r] = laneEnds[r].size();
  return layout;
}

Scene timelineScene(const gpu::LaunchTiming& launch, const TimelineOptions& options) {
  const TimelineLayout layout = timelineLayout(launch);
  const double span = static_cast<double>(std::max<uint64_t>(launch.spanNs(), 1));
  const double scale = options.plotWidth / span;
  std::vector<double> rowTop(layout.sms.size() + 1, kTop);
  for (size_t r = 0; r < layout.sms.size(); ++r) rowTop[r + 1] = rowTop[r] + static_cast<double>(layout.lanes[r]) * kLane + kRowGap;
  const double plotBottom = rowTop.back();
  Scene s(kLeft + options.plotWidth + 24, plotBottom + 44);

  char title[256];
  std::snprintf(title, sizeof title, "%s, launch %lld: %zu programs on %zu SMs in %s us", launch.kernel.c_str(),
                static_cast<long long>(launch.launch), launch.programs.size(), layout.sms.size(), microseconds(span).c_str());
  s.add(SceneText{kLeft, 20, title, 13, {}, TextAlign::Left, true});
  s.add(SceneText{kLeft, 36, "one row per SM; each bar is a program from its start to its end", 10, {90, 90, 90, 255}});

  // Time axis with grid lines.
  const double step = tickStep(span);
  for (double t = 0; t <= span + step * 1e-9; t += step) {
    const double x = kLeft + t * scale;
    s.add(SceneLine{x, kTop, x, plotBottom, {0xe0, 0xe0, 0xe0, 255}, 1});
    s.add(SceneText{x, plotBottom + 16, microseconds(t), 10, {60, 60, 60, 255}, TextAlign::Center});
  }
  s.add(SceneLine{kLeft, plotBottom, kLeft + options.plotWidth, plotBottom, {60, 60, 60, 255}, 1});
  s.add(SceneText{kLeft + options.plotWidth / 2, plotBottom + 34, "time since the launch's first program start (us)", 11, {},
                  TextAlign::Center});

  for (size_t r = 0; r < layout.sms.size(); ++r) {
    const double mid = (rowTop[r] + rowTop[r + 1] - kRowGap) / 2;
    s.add(SceneText{kLeft - 6, mid + 4, "SM " + std::to_string(layout.sms[r]), 10, {}, TextAlign::Right});
  }

  uint64_t longest = 1, shortest = UINT64_MAX;
  for (const gpu::ProgramTime& p : launch.programs) {
    longest = std::max(longest, p.endNs - p.startNs);
    shortest = std::min(shortest, p.endNs - p.startNs);
  }
  for (const TimelineBar& bar : layout.bars) {
    const gpu::ProgramTime& p = launch.programs[bar.program];
    SceneRect rect;
    rect.x = kLeft + static_cast<double>(p.startNs) * scale;
    rect.w = std::max(1.0, static_cast<double>(p.endNs - p.startNs) * scale);
    rect.y = rowTop[bar.row] + static_cast<double>(bar.lane) * kLane;
    rect.h = kLane - 1;
    const double duration = static_cast<double>(p.endNs - p.startNs);
    rect.fill = options.coloring == TimelineColoring::Duration
                    ? palette::ramp(longest > shortest ? (duration - static_cast<double>(shortest)) / static_cast<double>(longest - shortest) : 0.5)
                    : palette::categorical(static_cast<int64_t>(bar.program));
    const bool selected = static_cast<int64_t>(bar.program) == options.selectedProgram;
    rect.stroke = selected ? palette::kSelection : Color{255, 255, 255, 255};
    rect.strokeWidth = selected ? 2 : 0.5;
    s.add(rect);
    const std::string label = std::to_string(bar.program);
    if (rect.w >= 7.0 * static_cast<double>(label.size()) + 4)
      s.add(SceneText{rect.x + rect.w / 2, rect.y + kLane - 3, label, 9, palette::textOn(rect.fill), TextAlign::Center});
  }
  return s;
}

}  // namespace tilescope::viz
