#pragma once
// The program grid coloured by a GPU run's program timing (core/gpu/runtime/ProgramTiming): by duration (a
// ramp from the shortest program to the longest) or by the SM each program ran on (a hue per SM),
// with a legend of swatches. The grid is the timing's own (GPU runs record no trace).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/viz/GridScene.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

enum class TimingColoring : uint8_t { Duration, Sm };

struct LegendSwatch {
  Color color;
  std::string label;  // "1.5 us", "SM 3 (12 programs)"
};

// Colours by linear program id over the timing's grid; programs the timing lacks stay grey.
ProgramColors timingColors(const gpu::LaunchTiming& timing, TimingColoring coloring);
// Duration: five swatches from the shortest to the longest; SM: one per SM used, in SM order
// (at most 24, then one "... N more SMs").
std::vector<LegendSwatch> timingLegend(const gpu::LaunchTiming& timing, TimingColoring coloring);
// The grid coloured by timing, its legend's swatches drawn below it.
Scene timingGridScene(const gpu::LaunchTiming& timing, TimingColoring coloring, const GridViewOptions& options);
// "SM 5, 3.2 us (0.1 us to 3.3 us)" for a program of the timing; "" when the timing lacks it.
std::string programTimingText(const gpu::LaunchTiming& timing, const std::array<int64_t, 3>& pid);

}  // namespace tilescope::viz
