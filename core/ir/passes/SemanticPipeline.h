#pragma once
// The rewrites Triton's compiler makes on every kernel whatever the backend, and that change its
// results in the last bit (they are part of what a kernel means): the kernel the simulator runs, and
// where the GPU pipeline (core/gpu/passes/GpuPipeline) starts. Each pass is verified after it runs
// (debug builds; tests ask for it always) and shown to the observer.
#include <vector>

#include "core/ir/Kernel.h"
#include "core/ir/passes/Pass.h"
#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::ir::passes {

// The passes of lowerSemantics, in order (the first passes of the GPU pipeline).
const std::vector<Pass>& semanticPasses();

Kernel lowerSemantics(const Kernel& kernel, PipelineObserver* observer = nullptr, Verify verify = Verify::InDebugBuilds);

}  // namespace tilescope::ir::passes
