#pragma once
// tl.dot on tiles: [M,K] x [K,N] -> [M,N] or batched [B,M,K] x [B,K,N] -> [B,M,N].
//
// The reference (dotReference, the simulator's own loop): each product a*b is exact (computed in
// double from values of at most fp32 precision) and is added to the accumulator with one rounding to
// the result dtype per k step, in increasing k - a fused multiply-add chain in the output precision
// (for an fp32 result: std::fmaf, the GPU's fp32 FMA).
// InputPrecision::TF32 first rounds fp32 inputs to tf32 (roundToTf32, documented there); TF32x3 is
// treated as IEEE (its purpose is fp32 accuracy). Integer dots (i8 -> i32) wrap, exactly.
//
// dot() computes fp32-result dots of fp32, tf32, fp16, bf16 and fp8 operands (the operands are
// exact in fp32, tf32 rounded first) with core/ir/FmaChainGemm: the reference's fma chain in k order,
// vectorised over output columns, so its results are bitwise the reference's, with or without an
// accumulator. A dot into an accumulator (tl.dot(a, b, acc), and `acc += tl.dot(a, b)`, which the
// fuse-dot-accumulator pass turns into it) adds the products to acc itself, as the GPU accumulates
// into acc, so a K loop's result is one k-order chain over all of K: the same bits as the built-in
// torch.matmul's (core/tensor/TensorLinalg). Other dots (integer, fp64 or fp16 results) run the
// reference loop.
#include "core/ir/Ops.h"
#include "core/ir/Type.h"
#include "core/sim/CancelToken.h"
#include "core/sim/Tile.h"

namespace tilescope::sim::tileops {

// `acc` may be null (start from zero). `cancel`, when given, is polled once per output row block so
// that an enormous dot can still be interrupted; returns an empty optional-like flag via the bool.
Tile dot(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision, const ir::Type& resultType,
         const CancelToken* cancel = nullptr, bool* cancelled = nullptr);
// The simulator's own loop, which defines the rules (tests compare dot() against it).
Tile dotReference(const Tile& a, const Tile& b, const Tile* acc, ir::InputPrecision precision,
                  const ir::Type& resultType, const CancelToken* cancel = nullptr, bool* cancelled = nullptr);

}  // namespace tilescope::sim::tileops
