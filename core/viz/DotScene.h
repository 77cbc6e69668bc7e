#pragma once
// The Dot view: one tl.dot execution of one program - its A [M, K] and B [K, N] tiles, the
// accumulator going in and the result coming out [M, N] - as heat maps with their numbers, labelled
// with the K step and the K range it covers (core/viz/ComputeOps). Walking the steps of a K loop
// shows the accumulator grow block by block.
#include <cstddef>
#include <string>

#include "core/sim/Trace.h"
#include "core/viz/GridLayout.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

// `dotIndex` counts the program's dots in execution order (clamped). Empty scene and `error` set
// when the program was not traced or computed no dot.
Scene dotScene(const sim::LaunchTrace& trace, const Pid& pid, size_t dotIndex, std::string* error);

}  // namespace tilescope::viz
