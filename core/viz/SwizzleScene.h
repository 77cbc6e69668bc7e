#pragma once
// The swizzle-order view: the output-tile grid numbered in processing order with the path drawn,
// row-major and grouped side by side, the first W programs' tiles outlined and how many distinct A
// and B blocks they load. From a trace, the same picture of what the kernel really did.
#include <cstdint>

#include "core/sim/Trace.h"
#include "core/viz/Scene.h"

namespace tilescope::viz {

struct SwizzleViewOptions {
  int64_t rows = 9, cols = 9;  // output tiles
  int64_t group = 3;
  int64_t window = 9;          // W: the programs counted as running together
  int64_t kBlocks = 9;         // blocks along K each tile reads
};

Scene swizzleScene(const SwizzleViewOptions& options);
// The kernel's own order (traceTileOrder) and its block loads (traceBlockLoads) for W programs.
Scene swizzleSceneFromTrace(const sim::LaunchTrace& trace, int64_t window);

}  // namespace tilescope::viz
