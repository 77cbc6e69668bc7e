#pragma once
// Induction tiles: a mutable pointer or integer tile declared from an index-pure value and only ever
// advanced by a scalar (`a_ptrs += BLOCK_K * stride_ak`) is that value plus the sum of its steps.
// The axis analysis gives such a tile the facts of its initial value (the divisibility its steps
// share); the CUDA emitter keeps it as the initial value plus one scalar offset register.
#include <map>

#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

struct InductionTile {
  ir::VarPtr var;
  ir::Expr init;  // the declaring Let's value
  // Each assignment `tile = step_let` reads a Let `tile + splat(step)` (or `splat(step) + tile`)
  // that nothing else reads: the scalar step, by that Let's var id.
  std::map<int, ir::Expr> steps;
};

// The kernel's induction tiles, by var id.
std::map<int, InductionTile> findInductionTiles(const ir::Kernel& kernel);

// Whether e is index-pure: built from constants, parameters, program ids, aranges, immutable vars
// and cheap arithmetic on them (offsets, masks, pointer tiles), so it can be recomputed, cheaply,
// wherever it is used; math calls, random numbers, memory, reductions, scans and dots are not.
bool indexPure(const ir::Expr& e);

}  // namespace tilescope::gpu::passes
