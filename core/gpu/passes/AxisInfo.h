#pragma once
// What is statically known about a tile's values along its last dimension, in the manner of Triton's
// AxisInfo: how many consecutive elements form runs of +1 steps (contiguity), of equal values
// (constancy), and what power of two divides the first value of every run (divisibility). The GPU
// generator uses it to stage whole 16-byte chunks of a dot operand with one pointer and one mask
// evaluation instead of eight.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/ir/Kernel.h"

namespace tilescope::gpu {

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
};

// A mutable tile that is its initial value plus a scalar offset, the sum of its steps (`offs += BK`).
struct InductionFacts {
  ir::Expr init;
  std::vector<ir::Expr> steps;
};

class AxisAnalysis {
public:
  // inductions: by var id. The offset keeps contiguity and constancy; every power of two that
  // divides all steps divides it.
  AxisAnalysis(const ir::Kernel& kernel, std::map<int, InductionFacts> inductions);

  // The facts for `e` (every value a power of two, contiguity and constancy at most the last dim).
  // A run-time integer parameter that multiplies a contiguous value is assumed to be 1 (Triton
  // specializes such strides to 1); its index goes into `unitParams`, which the caller must check
  // at run time before relying on the result.
  AxisInfo of(const ir::Expr& e, std::set<int>& unitParams) const;

  // Whether the boolean tile `mask` is, on every aligned run of `run` elements along the last dim,
  // true on a contiguous stretch (an interval): a conjunction of comparisons (<, <=, >, >=) between
  // a side in runs of +1 steps and a side constant over the run, or of parts constant over the run.
  // Then the mask is true on the whole run when it is true at the run's first and last elements
  // (a tensor descriptor's box mask `col < K` with K not known to divide the run).
  bool intervalOverRuns(const ir::Expr& mask, int64_t run, std::set<int>& unitParams) const;

  // A mutable integer scalar whose only assignment is `v = v + step` (a block pointer's carried
  // offset, a hand-written `k_off += BK`): its step, else nullopt. Every value it takes is its
  // initial value plus a multiple of the step.
  std::optional<ir::Expr> scalarInductionStep(int varId) const;

private:
  AxisInfo visit(const ir::Expr& e, std::set<int>& unitParams, int depth) const;
  AxisInfo binary(const ir::Binary& n, std::set<int>& unitParams, int depth) const;

  const ir::Kernel& kernel_;
  std::map<int, InductionFacts> inductions_;
  std::map<int, ir::Expr> letValues_;         // immutable vars by id
  std::map<int, std::pair<ir::Expr, ir::Expr>> scalarInductions_;  // var id -> (initial value, step)
  std::map<int, const ir::For*> loopsByIv_;  // loop induction variables by id
};

}  // namespace tilescope::gpu
