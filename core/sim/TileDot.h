#pragma once
// tl.dot on tiles: [M,K] x [K,N] -> [M,N] or batched [B,M,K] x [B,K,N] -> [B,M,N].
//
// Float semantics: each product a*b is exact (computed in double from values of at most fp32
// precision) and is added to the accumulator with one rounding to the result dtype per k step, in
// increasing k - i.e. a fused multiply-add chain in the output precision (fp32 by default), which
// is what the GPU's FMA-based dot does for ieee precision; tensor-core (mma) dots accumulate in a
// different order, so fp16/bf16/tf32 dots match the GPU within K * 2^-24 relative to sum |a*b|.
// The rare halfway case where double rounding of (acc + a*b) differs from a true fused op is
// accepted. InputPrecision::TF32 first rounds fp32 inputs to tf32 (roundToTf32, documented there);
// TF32x3 is treated as IEEE (its purpose is fp32 accuracy). Integer dots (i8 -> i32) wrap.
#include <atomic>

#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::tileops {

// `acc` may be null (start from zero). `cancel`, when given, is polled once per output row block so
// that an enormous dot can still be interrupted; returns an empty optional-like flag via the bool.
Tile dot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
         const std::atomic<bool>* cancel = nullptr, bool* cancelled = nullptr);

}  // namespace tilescope::sim::tileops
