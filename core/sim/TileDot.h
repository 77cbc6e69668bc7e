#pragma once
// tl.dot on tiles: [M,K] x [K,N] -> [M,N] or batched [B,M,K] x [B,K,N] -> [B,M,N].
//
// The reference (dotReference, the simulator's own loop): each product a*b is exact (computed in
// double from values of at most fp32 precision) and is added to the accumulator with one rounding to
// the result dtype per k step, in increasing k - a fused multiply-add chain in the output precision.
// InputPrecision::TF32 first rounds fp32 inputs to tf32 (roundToTf32, documented there); TF32x3 is
// treated as IEEE (its purpose is fp32 accuracy). Integer dots (i8 -> i32) wrap, exactly.
//
// dot() gives fp32-result dots of fp32, tf32, fp16, bf16 (and fp8) operands without an accumulator to
// OpenBLAS's sgemm when the build has it (TILESCOPE_HAVE_OPENBLAS; blasAvailable()). A dot into an
// accumulator (tl.dot(a, b, acc), and `acc += tl.dot(a, b)`, which the fuse-dot-accumulator pass
// turns into it) runs the reference: the products are added to acc itself, in k order, as the GPU's
// tensor cores accumulate into acc, so a K loop's result is one k-order sum over all of K, the same
// bits as the built-in torch.matmul's (core/tensor/TensorLinalg). For sgemm: the operands converted to fp32 (exact:
// an fp16 or bf16 product is exact in fp32's FMA, tf32 rounded first), fp32 accumulation with FMAs,
// the accumulator added last. Only the order of the sums differs from the reference, as it does on
// the GPU's tensor cores: the result is within (K + 1) * 2^-23 * (|acc| + sum |a*b|) of the
// reference, and equal to it whenever every partial sum is exact in fp32 (small integers, say). Other
// dots (integer, fp64 or fp16 results) run the reference loop.
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
// Whether dot() uses OpenBLAS for fp32-result float dots in this build.
bool blasAvailable();

}  // namespace tilescope::sim::tileops
