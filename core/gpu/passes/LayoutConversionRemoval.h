#pragma once
// The pass `remove-layout-conversions`: drops the ConvertLayout nodes (core/ir/Expr.h) that move
// nothing, as Triton's RemoveLayoutConversions does, so that the emitter prints only conversions
// that cost something:
//   - a conversion to the layout its value already has (an immutable var's layout from the
//     kernel's table, blocked when it has none; another conversion's target);
//   - a conversion of a conversion: one conversion from the first one's value;
//   - a conversion of an index-pure value (aranges, constants, scalars, splats of scalars and
//     arithmetic on them, immutable vars bound to such): every thread can compute any of its
//     elements, so the value is recomputed in the target layout where it is used;
//   - a carried value's conversion on entry to a register loop (`acc = convert_layout acc, #mma`)
//     when the value reaching it is a constant splat (`tl.zeros`): the constant is assigned in the
//     target layout instead (registers filled, no shared-memory round trip);
//   - a conversion whose result is never read (its Let, with eliminate-dead-lets' rules).
// A mutable var's layout holds only inside its loop, so a conversion of one is kept otherwise.
#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel removeLayoutConversions(const ir::Kernel& kernel);

}  // namespace tilescope::gpu::passes
