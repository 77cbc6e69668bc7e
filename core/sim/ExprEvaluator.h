#pragma once
// Evaluates IR expressions of one program to tiles. Each node is interpreted once per evaluation
// and runs as whole-tile ops (TileOps, TileReduce, TileDot, TileRandom, MemoryAccess).
// Program-invariant nodes are served from the worker's cache (see InvariantAnalysis.h).
#include "core/ir/Expr.h"
#include "core/sim/LaunchContext.h"

namespace tilescope::sim {

class ExprEvaluator {
public:
  ExprEvaluator(LaunchContext& launch, ProgramState& program) : launch_(launch), program_(program) {}

  TileRef eval(const ir::Expr& e);
  // Optional operands (masks, `other`): null when undefined.
  TileRef evalOptional(const ir::Expr& e) { return e.defined() ? eval(e) : TileRef(); }

  // Throws SimulationError when the launch was cancelled or aborted by another program's error.
  void checkInterrupt() const;

private:
  TileRef compute(const ir::Expr& e);
  TileRef computeMemory(const ir::Expr& e);
  void checkHint(const ir::Hint& n, const Tile& value);
  // tl.reduce / tl.associative_scan with a general combine function (ir::Combine): folds each line
  // of the axis element by element, evaluating the combine's results with its params bound.
  TileRef combine(const ir::Combine& n);
  // This program records its dots and reductions (a traced program of a launch that asks for them).
  bool tracingCompute() const { return program_.trace && launch_.recorder && launch_.options.recordCompute; }
  // Integers made pointers: device addresses of the GPU backend become the simulated ones.
  void translateAddresses(Tile& pointers) const;

  LaunchContext& launch_;
  ProgramState& program_;
};

}  // namespace tilescope::sim
