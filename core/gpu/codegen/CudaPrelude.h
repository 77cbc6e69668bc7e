#pragma once
// The fixed CUDA C++ text every generated kernel starts with: integer typedefs (NVRTC has no
// <cstdint> without extra include paths), fp16/bf16 conversions through PTX cvt, C-semantics integer
// division and shifts as the simulator defines them, float->int saturation, Philox (bit-compatible
// with triton.language.random) and CAS-loop atomics. Semantics: core/ir/Numerics.h, core/sim/TileOps.cpp.
#include <string_view>

namespace tilescope::gpu {

std::string_view cudaPrelude();
// Warp-level tensor-core helpers (PTX wmma, m16n16k16 fp16 -> fp32), added only to kernels whose
// tl.dot uses them.
std::string_view cudaTensorCorePrelude();
// int8 x int8 -> int32 tensor-core helpers (wmma s8, sm_72+), after the tensor-core ones, only in
// kernels with such a dot.
std::string_view cudaInt8TensorCorePrelude();
// Hopper's warpgroup MMA helpers (wgmma, sm_90a), after the tensor-core ones.
std::string_view cudaWarpgroupPrelude();
// The tensor memory accelerator's helpers (mbarriers, bulk tensor copies, tensor maps built in the
// kernel; sm_90a), after the warpgroup ones (CudaTma.cpp).
std::string_view cudaTmaPrelude();

}  // namespace tilescope::gpu
