#pragma once
// The fixed CUDA C++ text every generated kernel starts with: integer typedefs (NVRTC has no
// <cstdint> without extra include paths), fp16/bf16 conversions through PTX cvt, C-semantics integer
// division and shifts as the simulator defines them, float->int saturation, Philox (bit-compatible
// with triton.language.random) and CAS-loop atomics. Semantics: core/sim/Numerics.h, TileOps.cpp.
#include <string_view>

namespace tilescope::gpu {

std::string_view cudaPrelude();

}  // namespace tilescope::gpu
