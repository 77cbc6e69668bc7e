#pragma once
// The pass `assign-layouts`: for a loop that chains two dots through register math (fused
// attention: s = q @ k.T, a softmax along s's rows, acc += p @ v), it gives each tile value of the
// loop a layout (core/ir/Layout.h) so that the whole loop stays in tensor-core registers, as
// Triton's layout assignment and conversion removal leave it:
//   - the dots' results, and the elementwise values of their shape, the mma.sync accumulator layout;
//   - the row vectors reduced from them (tl.max/tl.sum along axis 1) and broadcast back
//     (`m[:, None]`) its row slice, so no conversion is needed between them;
//   - the second dot's A operand (p.to(fp16)) the dot-operand layout built from the accumulator's
//     registers; a first operand defined before the loop (q) the same, converted once on entry;
//   - B operands loaded in the loop (k, v) shared memory, copied one iteration ahead.
// Where a value's layout differs from its user's, the pass inserts a ConvertLayout (core/ir/Expr.h):
// q into a new var before the loop (the loop reads that one), each carried value (accumulator, row
// statistics) into its layout before the loop and back to blocked after it, p.to(fp16) where the
// second dot reads it; remove-layout-conversions then drops those that move nothing. Loops of any
// other form keep no layouts (the emitter's own paths).
// Needs sm_80 (mma.sync m16n8k16) and num_warps * 16 rows.
#include "core/ir/Kernel.h"
#include "core/gpu/passes/GpuTarget.h"

namespace tilescope::gpu::passes {

ir::Kernel assignLayouts(const ir::Kernel& kernel, const GpuTarget& target);

}  // namespace tilescope::gpu::passes
