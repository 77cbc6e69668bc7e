#pragma once
// The pass `eliminate-dead-lets`: a Let whose var is never read nor assigned, and whose value has no
// memory effect (no load or atomic), is removed, repeatedly, so values that only fed removed Lets go
// too. A dead reduction, dot or permute otherwise costs the GPU a shared-memory round trip and
// barriers for nothing. Loads stay even when unused: they may fault, and the simulator reports their
// out-of-bounds reads, so removing them would change what a program does.
#include "core/ir/Kernel.h"

namespace tilescope::ir::passes {

Kernel eliminateDeadLets(const Kernel& kernel);

}  // namespace tilescope::ir::passes
