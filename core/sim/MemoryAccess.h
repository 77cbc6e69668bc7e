#pragma once
// Loads, stores and atomics of one program against the simulated memory, with the checks that
// make the simulator the definition of semantics:
//  * every active (unmasked) lane must point at a whole element inside a live tensor; otherwise
//    the launch stops with an error naming the kernel, the source location, the program, the
//    tensor (parameter name, shape, dtype) and the first offending offsets;
//  * masked-off lanes never touch memory: loads give `other` there (0 when there is none - the
//    GPU leaves those registers undefined), stores and atomics skip them;
//  * reads of never-written elements of uninitialized (torch.empty) tensors are warnings, once per
//    op per launch;
//  * stores record which program wrote each element, for the coverage report;
//  * traced programs record each access (offsets, mask, optionally values).
// Values are converted to and from the tensor's dtype here (rounding on store).
#include "core/ir/Expr.h"
#include "core/ir/Stmt.h"
#include "core/sim/LaunchContext.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::memaccess {

TileRef load(LaunchContext& launch, ProgramState& program, const ir::Load& node, const Tile& ptr, const Tile* mask,
             const Tile* other);
void store(LaunchContext& launch, ProgramState& program, const ir::Store& node, const Tile& ptr, const TileRef& value,
           const Tile* mask);
TileRef atomicRMW(LaunchContext& launch, ProgramState& program, const ir::AtomicRMW& node, const Tile& ptr,
                  const TileRef& value, const Tile* mask);
TileRef atomicCAS(LaunchContext& launch, ProgramState& program, const ir::AtomicCAS& node, const Tile& ptr,
                  const Tile& cmp, const TileRef& value);

}  // namespace tilescope::sim::memaccess
