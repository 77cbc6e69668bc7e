#pragma once
// The pass `select-dot-lowering`: for each tl.dot of the kernel it records how the dot runs
// (core/ir/DotPlan.h, the kernel's dotPlan.dots): on tensor cores with wmma (fp16 and fp8 operands
// on sm_70+, bf16 and tf32 on sm_80+, M and N multiples of 16, K of the wmma step, the staging
// within one SM's shared memory), with the shape the warps split it into, and on sm_90a the wgmma
// shape the dot takes should pipeline-dot-loops pipeline its loop; a dot of a loop assign-layouts
// keeps in registers as that loop's (its layouts say how); every other dot on the exact path
// (sequential FMAs: the simulator's rounding).
#include <optional>

#include "core/gpu/passes/GpuTarget.h"
#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

ir::Kernel selectDotLowering(const ir::Kernel& kernel, const GpuTarget& target);

// The wmma shape of a dot for `warps` warps on the target, or nullopt (the exact path).
std::optional<ir::TensorCoreShape> tensorCoreShape(const ir::Dot& dot, const GpuTarget& target, int64_t warps);
// The wgmma shape of such a dot on sm_90a (f16/bf16: BM rows per warpgroup; tf32: the transposed
// product), or nullopt.
std::optional<ir::WarpgroupShape> warpgroupShape(const ir::TensorCoreShape& shape, const GpuTarget& target);

}  // namespace tilescope::gpu::passes
