#include "core/ir/passes/GpuPipeline.h"

#include "core/ir/passes/ConstantFolding.h"
#include "core/ir/passes/DeadLetElimination.h"
#include "core/ir/passes/DotAccumulatorFusion.h"
#include "core/ir/passes/LayoutAssignment.h"

namespace tilescope::ir::passes {

namespace {

const Pass kFuseDotAccumulator{"fuse-dot-accumulator",
                               "acc + tl.dot(a, b) -> tl.dot(a, b, acc), as Triton's combine pass (changes rounding)",
                               fuseDotAccumulator};
const Pass kFoldConstants{"fold-constants", "integer arithmetic on constants folded; x+0, 0+x, x-0, x*1, 1*x simplified",
                          foldConstants};
const Pass kEliminateDeadLets{"eliminate-dead-lets", "Lets never read or assigned, without memory effects, removed",
                              eliminateDeadLets};
constexpr std::string_view kAssignLayoutsName = "assign-layouts";
constexpr std::string_view kAssignLayoutsSummary =
    "a loop chaining two dots through register math (attention) kept in tensor-core registers: mma accumulator, "
    "row-slice, dot-operand and shared layouts";
Pass assignLayoutsFor(const GpuTarget& target) {
  return Pass{kAssignLayoutsName, kAssignLayoutsSummary, [target](const Kernel& k) { return assignLayouts(k, target); }};
}

}  // namespace

const std::vector<Pass>& semanticPasses() {
  // The same passes as lowerSemantics, in its order.
  static const std::vector<Pass> passes = {kFuseDotAccumulator};
  return passes;
}

const std::vector<Pass>& gpuPasses() {
  // The same passes as lowerForGpu, in its order (a test checks that the two agree).
  static const std::vector<Pass> passes = {kFuseDotAccumulator, kFoldConstants, kEliminateDeadLets,
                                           assignLayoutsFor(GpuTarget{})};
  return passes;
}

Kernel lowerSemantics(const Kernel& kernel, PipelineObserver* observer, Verify verify) {
  return runPass(kFuseDotAccumulator, kernel, verify, observer);
}

Kernel lowerForGpu(const Kernel& kernel, [[maybe_unused]] const GpuTarget& target, PipelineObserver* observer,
                   Verify verify) {
  Kernel k = lowerSemantics(kernel, observer, verify);
  k = runPass(kFoldConstants, k, verify, observer);
  k = runPass(kEliminateDeadLets, k, verify, observer);
  k = runPass(assignLayoutsFor(target), k, verify, observer);
  return k;
}

}  // namespace tilescope::ir::passes
