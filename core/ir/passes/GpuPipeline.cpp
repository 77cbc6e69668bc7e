#include "core/ir/passes/GpuPipeline.h"

#include "core/ir/passes/ConstantFolding.h"
#include "core/ir/passes/DeadLetElimination.h"

namespace tilescope::ir::passes {

namespace {

const Pass kFoldConstants{"fold-constants", "integer arithmetic on constants folded; x+0, 0+x, x-0, x*1, 1*x simplified",
                          foldConstants};
const Pass kEliminateDeadLets{"eliminate-dead-lets", "Lets never read or assigned, without memory effects, removed",
                              eliminateDeadLets};

}  // namespace

const std::vector<Pass>& gpuPasses() {
  // The same passes as lowerForGpu, in its order (a test checks that the two agree).
  static const std::vector<Pass> passes = {kFoldConstants, kEliminateDeadLets};
  return passes;
}

Kernel lowerForGpu(const Kernel& kernel, [[maybe_unused]] const GpuTarget& target, PipelineObserver* observer,
                   Verify verify) {
  // No pass depends on the target yet; layout assignment and pipelining (issue 26) will.
  Kernel k = runPass(kFoldConstants, kernel, verify, observer);
  k = runPass(kEliminateDeadLets, k, verify, observer);
  return k;
}

}  // namespace tilescope::ir::passes
