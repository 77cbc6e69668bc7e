#pragma once
// The variable inspector as pictures: every named tile of one program (offs, mask, x, acc, a, b,
// ...) as a small heat map with its numbers, at one step of the program's loop. The steps are the
// iterations of the loop whose counter (the scalar variable bound most often) drives it - a
// matmul's K loop - and step k shows each variable as it was at the end of iteration k, so the A,
// B and accumulator tiles of each K step can be walked through. Without a loop there is one step:
// each variable's last value. Pointer tiles show element offsets into their tensor; booleans T/F.
#include <cstdint>

#include "core/sim/Trace.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

// The number of steps (loop iterations; 1 without a loop); 0 when the program was not traced.
int64_t bindingSteps(const sim::LaunchTrace& trace, const std::array<int64_t, 3>& pid);

Scene variablesScene(const sim::LaunchTrace& trace, const std::array<int64_t, 3>& pid, int64_t step);

}  // namespace tilescope::viz
