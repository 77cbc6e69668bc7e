#pragma once
// An induction tile: a mutable pointer or integer tile declared from an index-pure value (aranges,
// splats, parameters, immutable vars and cheap arithmetic on them) and only ever advanced by
// scalars (`a_ptrs += BLOCK_K * stride_ak`). Its value is always its initial value plus the sum of
// the steps taken, so the GPU keeps it as that value plus one scalar offset register, and the axis
// analysis gives it its initial value's facts. The GPU pipeline's pass find-induction-tiles
// (core/gpu/passes/InductionTiles) records them in the kernel's `inductionTiles` table.
#include <map>

#include "core/ir/Expr.h"

namespace tilescope::ir {

struct InductionTile {
  VarPtr var;  // the mutable tile var
  Expr init;   // its declaring Let's value
  // Each assignment `var = s` reads a Let s = `var + splat(step)` (or `splat(step) + var`) that
  // nothing else reads: the scalar step, by that Let's var id.
  std::map<int, Expr> steps;
};

}  // namespace tilescope::ir
