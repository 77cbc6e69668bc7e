#pragma once
// The pass `fold-constants`: integer arithmetic the specialization made constant, folded.
//  * add/sub/mul/and/or/xor of two integer constants -> the constant, wrapped to the dtype's width
//    (the IR's integer semantics);
//  * x + 0, 0 + x, x - 0, x * 1, 1 * x -> x, on integers and pointers (ptr + 0), scalars and tiles
//    (the constant splat to the tile).
// Constexpr parameters and strides launched as 1 leave such terms behind (`pid_m * 1`,
// `offs * stride` with stride = 1); after folding, the emitters and the axis analysis see the plain
// index. Floats are left alone (x + 0.0 is not x for x = -0.0; x * 1.0 may not round as the code says).
#include "core/ir/Kernel.h"

namespace tilescope::ir::passes {

Kernel foldConstants(const Kernel& kernel);

}  // namespace tilescope::ir::passes
