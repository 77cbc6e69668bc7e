#pragma once
// The pass `find-induction-tiles`: the kernel's induction tiles (core/ir/InductionTile.h: mutable
// tiles advanced only by scalars), recorded in its `inductionTiles` table and printed after the IR
// as `induction tiles { ... }`. The axis analysis gives such a tile the facts of its initial value
// (the divisibility its steps share); the CUDA emitter keeps it as the initial value plus one scalar
// offset register. The tile's initial value and steps are index-pure (RecomputedValues.h).
#include <map>

#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel recordInductionTiles(const ir::Kernel& kernel);

// The kernel's induction tiles, by var id.
std::map<int, ir::InductionTile> findInductionTiles(const ir::Kernel& kernel);

}  // namespace tilescope::gpu::passes
