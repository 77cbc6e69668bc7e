#pragma once
// The dots and reductions one traced program computed, as the inspector's Dot and Reduce views list
// them: in execution order, each with its source line and its step (the how-manieth execution of
// that operation in the program: a matmul's K step). A dot's K step s covers the K indices
// s*BK .. s*BK+BK-1 (BK = the A tile's last dimension) when its loop walks K block by block, as
// Triton matmuls do.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/Trace.h"

namespace tilescope::viz {

struct ComputeOp {
  size_t index = 0;        // into ProgramTrace::compute
  bool isDot = false;
  std::string file;        // the source file ("<cell:ID>" for a notebook cell)
  int line = 0;
  int64_t step = 0;        // executions of this operation (same source location) before this one
  int64_t steps = 1;       // executions of this operation in the program
  std::string title;       // "tl.dot line 12, K step 2 of 4" / "tl.max axis 0, line 20"
};

// The program's dots (dots = true) or reductions, in execution order.
std::vector<ComputeOp> computeOps(const sim::LaunchTrace& trace, const sim::ProgramTrace& program, bool dots);

// The K range a dot's step covers, in words: "k = 16 .. 31 (K step 2 of 4, BK = 16)".
std::string dotKRange(const sim::DotEvent& dot, int64_t steps);

// The accumulator a dot adds into. With `acc=` (and `acc += tl.dot(a, b)`, which runs as
// tl.dot(a, b, acc)) the trace holds it in the DotEvent; its name is the variable the result is
// bound to right after the dot when that variable's previous value was the accumulator. For a dot
// added to a variable separately the sum is bound right after the dot, and this finds that binding
// and the previous binding of that name - accepted only when after == before + result, so an
// unrelated binding is never shown as the accumulator.
struct DotAccumulator {
  std::string name;     // the variable ("" for an acc= operand)
  sim::TileRef before;  // null when not recorded
  sim::TileRef after;   // the dot's result when the dot itself accumulates
};
std::optional<DotAccumulator> dotAccumulator(const sim::ProgramTrace& program, const sim::DotEvent& dot);

// The element a max/min/argmax/argmin picked in each reduced slice, as flat input indices (one per
// result element); empty for sum and xor_sum or when the tiles were not recorded. Argmax/argmin
// results are the indices themselves; max/min pick the first element equal to the result.
std::vector<int64_t> reductionWinners(const sim::ReduceEvent& r);

}  // namespace tilescope::viz
