#pragma once
// The pass `mark-recomputed-values`: index-pure values (offsets, masks, pointer tiles: built from
// aranges, splats, parameters, program ids, immutable vars and cheap arithmetic) are not stored per
// thread; the GPU recomputes them where they are used, at the element index of the use, so a
// broadcast or permute of one evaluates it at the remapped source index instead of going through
// shared memory. The pass records every immutable tile var whose value is index-pure in the
// kernel's `recomputedAtUse` table, printed after the IR as `recomputed at use { ... }`. (In a loop
// kept in tensor-core registers, a value with a register layout lives there instead.)
#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel markRecomputedValues(const ir::Kernel& kernel);

// Whether e is index-pure: built from constants, parameters, program ids, aranges, immutable vars
// and cheap arithmetic on them, so it can be recomputed, cheaply, wherever it is used; math calls,
// random numbers, memory, reductions, scans and dots are not.
bool indexPure(const ir::Expr& e);

}  // namespace tilescope::gpu::passes
