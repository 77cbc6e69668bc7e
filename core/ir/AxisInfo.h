#pragma once
// What is statically known about a value along a tile's last dimension, in the manner of Triton's
// AxisInfo: how many consecutive elements form runs of +1 steps (contiguity), of equal values
// (constancy), and what power of two divides the first value of every run (divisibility). The GPU
// pipeline's pass `analyse-axes` (core/gpu/passes/AxisAnalysis) records these facts for every var
// in the kernel's `axes` table; the passes after it and the CUDA emitter read them from there.
#include <cstdint>
#include <set>
#include <string>

#include "core/ir/Expr.h"

namespace tilescope::ir {

struct AxisInfo {
  static constexpr int64_t kUnbounded = int64_t{1} << 30;
  // For every last-dim index i that is a multiple of `contiguity`, element i + k is element i plus k
  // (pointers: plus k elements) for k < contiguity.
  int64_t contiguity = 1;
  // For every last-dim index i that is a multiple of `constancy`, elements i .. i + constancy - 1 are equal.
  int64_t constancy = 1;
  // A power of two dividing every element at a last-dim index that is a multiple of `contiguity`
  // (pointers: the address in elements). Scalars: their value.
  int64_t divisibility = 1;
  // A power of two dividing the elements at last-dim indices that are multiples of `run` (a power of two).
  int64_t divisibilityAt(int64_t run) const;
  // "contiguity 64, constancy 1, divisibility 16" (unbounded values print as "max").
  std::string str() const;
};

// One entry of the kernel's `axes` table: the facts of a var's value (every value a power of two;
// contiguity and constancy at most the largest power of two dividing the last dim, scalars
// contiguity 1 and constancy unbounded).
struct VarAxisInfo {
  AxisInfo info;
  // Run-time integer parameters (by index) that the facts assume to be 1: a stride multiplying a
  // contiguous value (Triton specializes such strides to 1). Whoever relies on the facts checks them.
  std::set<int> unitParams;
  // A mutable integer scalar whose only assignment is `v = v + step` (a block pointer's carried
  // offset, `k_off += BK`): the step (every value it takes is its initial value plus a multiple of
  // it); undefined for every other var.
  Expr inductionStep;
};

}  // namespace tilescope::ir
