#include "core/ir/passes/SemanticPipeline.h"

#include "core/ir/passes/DotAccumulatorFusion.h"

namespace tilescope::ir::passes {

namespace {

const Pass kFuseDotAccumulator{"fuse-dot-accumulator",
                               "acc + tl.dot(a, b) -> tl.dot(a, b, acc), as Triton's combine pass (changes rounding)",
                               fuseDotAccumulator};

}  // namespace

const std::vector<Pass>& semanticPasses() {
  // The same passes as lowerSemantics, in its order.
  static const std::vector<Pass> passes = {kFuseDotAccumulator};
  return passes;
}

Kernel lowerSemantics(const Kernel& kernel, PipelineObserver* observer, Verify verify) {
  return runPass(kFuseDotAccumulator, kernel, verify, observer);
}

}  // namespace tilescope::ir::passes
