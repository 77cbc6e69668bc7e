#pragma once
// The Reduce view: one reduction (tl.sum/max/min/argmax/argmin/xor_sum, tl.reduce) of one program -
// the input tile as a heat map with the reduced axis marked by an arrow, and the result beside it,
// each result element next to the row (axis 1, 1-D) or under the column (axis 0) it came from. For
// max/min/argmax/argmin the element each slice picked is framed (core/viz/ComputeOps
// reductionWinners).
#include <cstddef>
#include <string>

#include "core/sim/Trace.h"
#include "core/viz/GridLayout.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

// `reduceIndex` counts the program's reductions in execution order (clamped). Empty scene and
// `error` set when the program was not traced or reduced nothing.
Scene reduceScene(const sim::LaunchTrace& trace, const Pid& pid, size_t reduceIndex, std::string* error);

}  // namespace tilescope::viz
