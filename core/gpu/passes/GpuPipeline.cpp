#include "core/gpu/passes/GpuPipeline.h"

#include "core/gpu/passes/AxisAnalysis.h"
#include "core/gpu/passes/BlockedLayoutAssignment.h"
#include "core/gpu/passes/DotLowering.h"
#include "core/gpu/passes/DotPipelining.h"
#include "core/gpu/passes/InductionTiles.h"
#include "core/gpu/passes/LayoutAssignment.h"
#include "core/gpu/passes/LayoutConversionRemoval.h"
#include "core/gpu/passes/RecomputedValues.h"
#include "core/gpu/passes/ResidentAccumulators.h"
#include "core/ir/passes/ConstantFolding.h"
#include "core/ir/passes/DeadLetElimination.h"
#include "core/ir/passes/SemanticPipeline.h"

namespace tilescope::gpu::passes {

using ir::Kernel;
using ir::passes::Pass;
using ir::passes::PipelineObserver;
using ir::passes::runPass;
using ir::passes::Verify;

namespace {

const Pass kFoldConstants{"fold-constants", "integer arithmetic on constants folded; x+0, 0+x, x-0, x*1, 1*x simplified",
                          ir::passes::foldConstants};
const Pass kEliminateDeadLets{"eliminate-dead-lets", "Lets never read or assigned, without memory effects, removed",
                              ir::passes::eliminateDeadLets};
const Pass kMarkRecomputedValues{"mark-recomputed-values",
                                 "immutable index-pure tiles (offsets, masks, pointers) recomputed where used, not stored",
                                 markRecomputedValues};
const Pass kFindInductionTiles{"find-induction-tiles",
                               "mutable tiles advanced only by scalars recorded as their initial value plus an offset",
                               recordInductionTiles};
const Pass kAnalyseAxes{"analyse-axes",
                        "contiguity, constancy and divisibility along the last dim of every var, into the kernel's axes table",
                        analyseAxes};
const Pass kAssignBlockedLayouts{"assign-blocked-layouts",
                                 "every other tile var the blocked layout; the vector width of each tile size, kernel-wide",
                                 assignBlockedLayouts};
Pass assignLayoutsFor(const GpuTarget& target) {
  return Pass{"assign-layouts",
              "a loop chaining two dots through register math (attention) kept in tensor-core registers: mma "
              "accumulator, row-slice, dot-operand and shared layouts",
              [target](const Kernel& k) { return assignLayouts(k, target); }};
}
Pass selectDotLoweringFor(const GpuTarget& target) {
  return Pass{"select-dot-lowering",
              "how each tl.dot runs: exact FMAs, wmma tensor cores (shape, warp blocks), a register loop's, or "
              "(pipelined, sm_90a) wgmma / tf32 wgmma",
              [target](const Kernel& k) { return selectDotLowering(k, target); }};
}
const Pass kKeepAccumulatorsResident{"keep-accumulators-resident",
                                     "K loops whose acc += tl.dot(a, b) stays in tensor-core registers, and the operand "
                                     "loads read straight into the dot's staging",
                                     keepAccumulatorsResident};
Pass pipelineDotLoopsFor(const GpuTarget& target) {
  return Pass{"pipeline-dot-loops",
              "resident K loops whose operands are copied num_stages - 1 iterations ahead (cp.async or TMA), the "
              "ring's streams, and the wgmma choice; or why not",
              [target](const Kernel& k) { return pipelineDotLoops(k, target); }};
}

const Pass kRemoveLayoutConversions{"remove-layout-conversions",
                                    "layout conversions that move nothing removed: to the layout the value has, of a "
                                    "conversion, of index-pure values and constants (recomputed in the target layout), unread",
                                    removeLayoutConversions};

}  // namespace

const std::vector<Pass>& gpuPasses() {
  // The same passes as lowerForGpu, in its order (a test checks that the two agree).
  static const std::vector<Pass> passes = [] {
    std::vector<Pass> all = ir::passes::semanticPasses();
    all.insert(all.end(), {kFoldConstants, kEliminateDeadLets, assignLayoutsFor(GpuTarget{}), kRemoveLayoutConversions,
                           kAssignBlockedLayouts, kMarkRecomputedValues, kFindInductionTiles, kAnalyseAxes,
                           selectDotLoweringFor(GpuTarget{}), kKeepAccumulatorsResident, pipelineDotLoopsFor(GpuTarget{})});
    return all;
  }();
  return passes;
}

Kernel lowerForGpu(const Kernel& kernel, const GpuTarget& target, PipelineObserver* observer, Verify verify) {
  Kernel k = ir::passes::lowerSemantics(kernel, observer, verify);
  k = runPass(kFoldConstants, k, verify, observer);
  k = runPass(kEliminateDeadLets, k, verify, observer);
  k = runPass(assignLayoutsFor(target), k, verify, observer);
  k = runPass(kRemoveLayoutConversions, k, verify, observer);
  k = runPass(kAssignBlockedLayouts, k, verify, observer);
  k = runPass(kMarkRecomputedValues, k, verify, observer);
  k = runPass(kFindInductionTiles, k, verify, observer);
  k = runPass(kAnalyseAxes, k, verify, observer);
  k = runPass(selectDotLoweringFor(target), k, verify, observer);
  k = runPass(kKeepAccumulatorsResident, k, verify, observer);
  k = runPass(pipelineDotLoopsFor(target), k, verify, observer);
  return k;
}

}  // namespace tilescope::gpu::passes
