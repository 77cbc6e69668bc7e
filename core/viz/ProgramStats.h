#pragma once
// Per-program numbers that the program grid colours by: memory operations, lanes masked off,
// bytes moved, and the output element each program stored first (which output tile it made).
#include <array>
#include <cstdint>
#include <vector>

#include "core/sim/Trace.h"

namespace tilescope::viz {

struct ProgramStats {
  std::array<int64_t, 3> pid{0, 0, 0};
  int64_t linearId = 0;
  int64_t loads = 0;
  int64_t stores = 0;          // stores and atomics
  int64_t activeLanes = 0;
  int64_t maskedLanes = 0;
  int64_t bytesMoved = 0;      // active lanes times the element size, loads and stores
  int32_t storedTensor = 0;    // tensor of the first store (0: none)
  int64_t storedElement = -1;  // smallest active offset of the first store (-1: no active lane)
};

// One entry per traced program, in trace order.
std::vector<ProgramStats> programStats(const sim::LaunchTrace& trace);

}  // namespace tilescope::viz
