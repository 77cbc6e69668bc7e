#pragma once
// The pass `analyse-axes` and the queries that read what it found. The pass records, for every var
// the kernel declares (Let or For), what is known about its value along a tile's last dimension
// (ir::AxisInfo, core/ir/AxisInfo.h: contiguity, constancy, divisibility, after Triton's AxisInfo)
// in the kernel's `axes` table, printed after the IR as `axes { ... }`. The passes after it and the
// CUDA emitter ask AxisAnalysis about any expression: it follows the expression's nodes and takes
// the table's entry at each var. The emitter uses the facts to stage whole 16-byte chunks of a dot
// operand, or to access a tile's vector groups, with one pointer and one mask evaluation.
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "core/ir/Kernel.h"

namespace tilescope::gpu::passes {

using ir::AxisInfo;
class AxisFactsBuilder;  // the pass's state (AxisAnalysis.cpp)

// The pass: `kernel` with its `axes` table filled in (the facts of every var declared by a Let or a
// For). The induction tiles of the kernel's `inductionTiles` table (find-induction-tiles runs first)
// are their initial value plus an offset: the offset keeps contiguity and constancy, and every power
// of two that divides all steps divides it.
ir::Kernel analyseAxes(const ir::Kernel& kernel);

class AxisAnalysis {
public:
  // Reads the kernel's `axes` table (analyse-axes must have run; a var without an entry, made by a
  // later pass, has no facts: contiguity 1, constancy 1 (scalars unbounded), divisibility 1).
  explicit AxisAnalysis(const ir::Kernel& kernel);

  // The facts for `e` (every value a power of two, contiguity and constancy at most the last dim).
  // A run-time integer parameter that multiplies a contiguous value is assumed to be 1 (Triton
  // specializes such strides to 1); its index goes into `unitParams`, which the caller must check
  // at run time before relying on the result.
  AxisInfo of(const ir::Expr& e, std::set<int>& unitParams) const;

  // The same facts along dim `dim` of a tile (the last dim: `of`): for a pointer tile contiguous
  // along axis 0 (`w_ptr + offs_k[:, None] + offs_n[None, :] * stride_wn`, a K x N tile of a W
  // stored N x K). Only a parameter multiplying a value contiguous along `dim` is assumed to be 1
  // (stride_wk above, not stride_wn). Computed from the vars' definitions (the `axes` table holds
  // the last dim only): immutable Lets and induction tiles are followed, other tile vars know nothing.
  AxisInfo ofDim(const ir::Expr& e, int dim, std::set<int>& unitParams) const;

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
  friend class AxisFactsBuilder;
  AxisAnalysis(const ir::Kernel& kernel, AxisFactsBuilder* builder);
  AxisInfo visit(const ir::Expr& e, std::set<int>& unitParams, int depth) const;
  AxisInfo binary(const ir::Binary& n, std::set<int>& unitParams, int depth) const;
  AxisInfo visitAlong(const ir::Expr& e, int dim, std::set<int>& unitParams, int depth) const;
  // A power of two dividing every element of e, assuming nothing.
  int64_t everyElementDivisibility(const ir::Expr& e, int depth) const;
  AxisInfo varFacts(const ir::VarRef& ref, std::set<int>& unitParams) const;

  const ir::Kernel& kernel_;
  std::map<int, ir::Expr> letValues_;  // immutable vars by id (intervalOverRuns looks through them)
  AxisFactsBuilder* builder_ = nullptr;  // while analyse-axes runs: vars' facts computed on demand
};

}  // namespace tilescope::gpu::passes
