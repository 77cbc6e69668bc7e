#pragma once
// The pass `pipeline-dot-loops`: software pipelining of the K loops keep-accumulators-resident
// kept in tensor-core registers, as Triton's num_stages does. On sm_80+ with num_stages >= 2, a
// loop whose body holds only Lets and Assigns, whose two dot operands are loads read only by the
// dot (16-bit, or fp32 of a tf32 dot), whose pointers are contiguous and masks constant (or an
// interval) over 16-byte chunks, and whose loads read nothing but the loop var, loop-invariant
// values, the body's recomputable Lets, and induction tiles or scalar inductions advanced after the
// dot, copies the operands of iteration i + stages - 1 into a ring of `stages` shared-memory stages
// while iteration i multiplies. It records per loop (the kernel's dotPlan.pipelines, by induction
// var id) the stages (fewer where shared memory is short), each operand stream (padded or, for
// wgmma, swizzled; proven whole or checked per chunk), whether TMA copies the descriptor boxes, and
// switches the loop's dot to wgmma (sm_90a) where select-dot-lowering found a warpgroup shape. A
// resident loop it leaves alone gets the reason (dotPlan.notPipelined).
#include "core/gpu/passes/GpuTarget.h"
#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel pipelineDotLoops(const ir::Kernel& kernel, const GpuTarget& target);

}  // namespace tilescope::gpu::passes
