#pragma once
// The IR-to-IR passes a kernel goes through before CUDA is emitted, in order, in one place
// (Halide's Lower.cpp is the model): lowerForGpu is the whole list. The checker's IR goes in; the
// CUDA emitter (core/gpu/codegen) prints what comes out. Its first passes, lowerSemantics, are part
// of what a kernel means (Triton's compiler makes them whatever the backend, and they change
// rounding), so the simulator runs the kernel lowerSemantics returns.
// After each pass the IR is verified (debug builds; tests ask for it always) and shown to the
// observer, which `tilescope-cli compile --emit ir-after=PASS` uses to print it.
//
// What is a pass today, and what still lives in the emitter, is in docs/GPU_BACKEND.md ("Passes").
#include <string_view>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/ir/passes/Pass.h"
#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::ir::passes {

// What the passes may depend on: the GPU the kernel is compiled for.
struct GpuTarget {
  int smArch = 80;            // compute capability times ten
  bool archSpecific = false;  // sm_90a and the like
};

// The passes of lowerSemantics, in order: the first passes of gpuPasses().
const std::vector<Pass>& semanticPasses();

// The passes of lowerForGpu, in the order it runs them (names and summaries for `--emit passes`).
const std::vector<Pass>& gpuPasses();

// The rewrites Triton's compiler makes on every kernel and that change its results: the kernel the
// simulator runs, and where lowerForGpu starts.
Kernel lowerSemantics(const Kernel& kernel, PipelineObserver* observer = nullptr, Verify verify = Verify::InDebugBuilds);

Kernel lowerForGpu(const Kernel& kernel, const GpuTarget& target, PipelineObserver* observer = nullptr,
                   Verify verify = Verify::InDebugBuilds);

}  // namespace tilescope::ir::passes
