#pragma once
// The pass `assign-blocked-layouts`: every tile value gets a layout. Values that assign-layouts kept
// in tensor-core registers keep theirs; every other tile var gets the blocked layout
// (ir::LayoutKind::Blocked, core/ir/Layout.h), and the kernel's `blockedVectorWidths` gives the
// vector width for the tiles of each numel, which temporaries without a var use too. The width is
// chosen once per numel for the whole kernel, so reshapes and expand_dims, which keep numel, move
// no data.
#include <vector>

#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel assignBlockedLayouts(const ir::Kernel& kernel);

// The vector width for the tiles of `numel` elements, given the shapes of all of them in a kernel:
// the largest of 8 (only where no load or store of such a tile has elements wider than 2 bytes, so
// an access stays within 16 bytes), 4, 2, 1 that divides numel and the last dimension of every
// shape, and leaves no thread without elements (numel >= threads * vec).
int chooseVectorWidth(int64_t numel, const std::vector<ir::Shape>& shapes, int threads, int widestAccessBytes = 4);

}  // namespace tilescope::gpu::passes
