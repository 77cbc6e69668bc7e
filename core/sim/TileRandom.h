#pragma once
// tl.randint / tl.randint4x / tl.rand / tl.randn over a tile of offsets (see Philox.h for how Triton
// wires seed and offset into the generator). The offset's width picks the 32- or 64-bit generator.
#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::tileops {

// `seed` is an integer scalar, `offset` an integer scalar or tile; the result has `resultType`
// (u32/u64 for Int and Int4x, fp32 for Uniform and Normal) and the offset's shape.
Tile random(ir::RandKind kind, const Tile& seed, const Tile& offset, int rounds, int component,
            const ir::Type& resultType);

}  // namespace tilescope::sim::tileops
