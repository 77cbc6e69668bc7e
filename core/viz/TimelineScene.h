#pragma once
// The SM timeline of a GPU launch run with program timing (core/gpu/runtime/ProgramTiming): one row per SM,
// each program a bar from its start to its end. Programs that ran on one SM at the same time (several
// CTAs resident together) get lanes of their own inside the SM's row, so no bar hides another.
#include <cstdint>
#include <vector>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

struct TimelineBar {
  size_t program = 0;  // index into LaunchTiming::programs (the linear program id)
  size_t row = 0;      // SM row, SMs in increasing id order
  size_t lane = 0;     // within the row: 0 .. lanes of the row - 1
};

struct TimelineLayout {
  std::vector<int64_t> sms;       // the SM of each row
  std::vector<size_t> lanes;      // lanes per row
  std::vector<TimelineBar> bars;  // one per program, in program order
};

// Lanes are given greedily in start order: a program takes the lowest lane whose last bar ended.
TimelineLayout timelineLayout(const gpu::LaunchTiming& launch);

enum class TimelineColoring { Program, Duration };

struct TimelineOptions {
  double plotWidth = 900;  // pixels for the launch's whole time span
  TimelineColoring coloring = TimelineColoring::Program;
  int64_t selectedProgram = -1;  // linear id outlined, -1 for none
};

Scene timelineScene(const gpu::LaunchTiming& launch, const TimelineOptions& options = {});

}  // namespace tilescope::viz
