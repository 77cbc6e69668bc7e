#pragma once
// Facts about a kernel's tiles that the GPU passes and the emitter both need:
//   - recomputable values: built from aranges, splats, parameters, program ids, immutable vars and
//     cheap arithmetic, so a Let of one needs no storage (the emitter recomputes it where used, at
//     any element index, e.g. for a later iteration's copy);
//   - induction tiles: a mutable pointer or integer tile declared from a recomputable value and
//     only ever advanced by a scalar (`a_ptrs += BLOCK_K * stride_ak`), so it is that value plus one
//     scalar offset.
#include <map>

#include "core/gpu/passes/AxisInfo.h"
#include "core/ir/Stmt.h"

namespace tilescope::gpu::passes {

bool recomputable(const ir::Expr& e);

struct InductionTileSteps {
  std::map<int, ir::Expr> init;    // induction tile var id -> its initial value
  std::map<int, ir::VarPtr> vars;  // induction tile var id -> the var
  struct Step {
    int tile = 0;   // the induction tile's var id
    ir::Expr step;  // the scalar added
  };
  std::map<int, Step> steps;  // by the id of the Let `tile + splat(step)` assigned back to the tile
  // The same as the axis analysis takes them (AxisInfo.h).
  std::map<int, InductionFacts> facts() const;
};

InductionTileSteps findInductionTiles(const ir::Stmt& body);

}  // namespace tilescope::gpu::passes
