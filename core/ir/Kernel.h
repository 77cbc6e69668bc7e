#pragma once
// A checked, specialized kernel: the unit the simulator runs and codegen translates. One Kernel is
// one Triton specialization (argument dtypes, constexpr values, integer widths, divisibility).
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/ir/AxisInfo.h"
#include "core/ir/Constant.h"
#include "core/ir/DotPlan.h"
#include "core/ir/InductionTile.h"
#include "core/ir/Layout.h"
#include "core/ir/Stmt.h"
#include "core/base/SourceFile.h"

namespace tilescope::ir {

struct KernelParam {
  std::string name;
  // Runtime parameters: a scalar (i1/i32/i64/u64/fp32/...) or a pointer. Unused for constexprs.
  Type type;
  bool isConstexpr = false;
  Constant value;  // the folded value of a constexpr parameter
  // Triton's specialization: the pointer address (or integer value) is a multiple of 16. Codegen
  // may vectorize on it; the simulator checks it holds for the launch.
  bool divisibleBy16 = false;
  lang::SourceRange range;
};

struct KernelOptions {
  int numWarps = 4;
  int numStages = 3;
};

struct Kernel {
  std::string name;
  std::vector<KernelParam> params;
  Stmt body;
  KernelOptions options;
  // The files the body's ranges point into (the kernel's own module and those of inlined helpers);
  // held so that ranges outlive the parsed program.
  std::vector<lang::SourceFilePtr> sources;
  int varCount = 0;  // Var ids are 0 .. varCount-1
  // Set by the GPU pipeline's layout pass (core/gpu/passes/LayoutAssignment): the loops whose tile
  // values it keeps in tensor-core registers (by induction var id), and the layout of each of their
  // values (by var id). Empty before it runs and for every other kernel: the blocked default.
  std::set<int> registerLoops;
  std::map<int, TileLayout> layouts;
  // Set by the GPU pipeline's dot passes (select-dot-lowering, keep-accumulators-resident,
  // pipeline-dot-loops): how each tl.dot and its K loop run (core/ir/DotPlan.h).
  DotPlan dotPlan;
  // Set by the pass assign-blocked-layouts (core/gpu/passes/BlockedLayoutAssignment): the blocked
  // layout's vector width for tiles of each numel in the kernel (values and temporaries alike), and
  // in `layouts` the Blocked layout of every tile var assign-layouts left alone.
  std::map<int64_t, int> blockedVectorWidths;
  // Set by the pass find-induction-tiles (core/gpu/passes/InductionTiles): the induction tiles, by
  // their var id.
  std::map<int, InductionTile> inductionTiles;
  // Set by the pass mark-recomputed-values (core/gpu/passes/RecomputedValues): the immutable tile
  // vars whose index-pure value (offsets, masks, pointer tiles) the GPU recomputes where it is used
  // instead of storing it, by var id.
  std::set<int> recomputedAtUse;
  // Set by the pass analyse-axes (core/gpu/passes/AxisAnalysis): the axis facts of every var declared
  // by a Let or a For (by var id). Read through gpu::passes::AxisAnalysis.
  std::map<int, VarAxisInfo> axes;

  // Runtime parameters in order (what a launch passes), i.e. params without the constexprs.
  std::vector<const KernelParam*> runtimeParams() const;
  // "add_kernel[*fp32:16,*fp32:16,*fp32:16,i32,BLOCK_SIZE=1024]": identifies the specialization
  // like Triton's cache key (pointer/integer ":16" marks divisibility by 16).
  std::string specializationKey() const;
  // The IR as text (IRPrinter); `withLocations` appends loc("file":line:col) to every line.
  std::string dump(bool withLocations = false) const;
};

using KernelPtr = std::shared_ptr<const Kernel>;

}  // namespace tilescope::ir
