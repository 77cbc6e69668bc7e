#pragma once
// The pass `keep-accumulators-resident`: a K loop of the form `acc = acc + tl.dot(a, b)` (or
// tl.dot(a, b, acc), `tl.dot(a, b) + acc`) whose dot select-dot-lowering put on wmma tensor cores,
// whose acc is read and assigned only there, and whose fragments fit in 128 registers per thread,
// keeps acc in tensor-core fragments from before the loop to after it (loaded once, stored once).
// The dot's operand loads read by nothing else, with only Lets between them and the dot in a body
// without stores, are read straight into the dot's staging buffer instead of into registers.
// Recorded in the kernel's dotPlan.resident, by the loop's induction var id (core/ir/DotPlan.h).
#include <set>

#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel keepAccumulatorsResident(const ir::Kernel& kernel);

// The var of `tl.trans(var)` on a 2-D tile, else nullptr.
const ir::VarRef* transposedVarRef(const ir::Expr& e);
// The Lets of `plan`'s dot operands in `loop` that may load straight into the dot's staging (with
// transposedB, B may also be tl.trans of such a Let: the pipelined wgmma loop reads it K-major).
std::set<int> deferrableOperandLoads(const ir::For& loop, const ir::Dot& dot, int resultId, bool transposedB);

}  // namespace tilescope::gpu::passes
