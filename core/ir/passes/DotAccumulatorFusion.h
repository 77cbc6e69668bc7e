#pragma once
// The pass `fuse-dot-accumulator`: `acc + tl.dot(a, b)` (and `tl.dot(a, b) + acc`, so also
// `acc += tl.dot(a, b)`) becomes `tl.dot(a, b, acc)`, as Triton's TTIR combine pass rewrites it.
// The products are then accumulated into acc directly (one rounding per k step) instead of into a
// fresh zero accumulator that is rounded and added to acc afterwards, so the rewrite changes results
// in the last bit: it is part of the kernel's semantics, and both backends run it (lowerSemantics).
// Triton's conditions: the dot has no accumulator or a zero one (a splat of 0), for floats it has no
// max_num_imprecise_acc, and the other operand has the dot's type. When both operands are such dots,
// the right one takes the left one as its accumulator (Triton looks at the right operand first).
// A dot bound to a name first (`d = tl.dot(a, b)`, then `acc += d`) is left alone.
#include "core/ir/Kernel.h"

namespace tilescope::ir::passes {

Kernel fuseDotAccumulator(const Kernel& kernel);

}  // namespace tilescope::ir::passes
