#pragma once
// The IR-to-IR passes a kernel goes through before CUDA is emitted, in order, in one place
// (Halide's Lower.cpp is the model): lowerForGpu is the whole list. The checker's IR goes in; the
// CUDA emitter (core/gpu/codegen) prints what comes out. Its first passes are the semantic ones
// (core/ir/passes/SemanticPipeline: the kernel the simulator runs); the later ones must keep that
// kernel's meaning and record the GPU's decisions (layouts, ...) in the kernel's tables.
// After each pass the IR is verified (debug builds; tests ask for it always) and shown to the
// observer, which `tilescope-cli compile --emit ir-after=PASS` uses to print it.
//
// What is a pass today, and what still lives in the emitter, is in docs/GPU_BACKEND.md ("Passes").
#include <vector>

#include "core/gpu/passes/GpuTarget.h"
#include "core/ir/Kernel.h"
#include "core/ir/passes/Pass.h"
#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::gpu::passes {

// The passes of lowerForGpu, in the order it runs them (names and summaries for `--emit passes`).
const std::vector<ir::passes::Pass>& gpuPasses();

ir::Kernel lowerForGpu(const ir::Kernel& kernel, const GpuTarget& target, ir::passes::PipelineObserver* observer = nullptr,
                       ir::passes::Verify verify = ir::passes::Verify::InDebugBuilds);

}  // namespace tilescope::gpu::passes
