#pragma once
// The swizzle view derived from what a kernel really did: which output tile each program stored,
// numbered by the program's position in swizzle2d's row-major numbering (pid_0 * num_programs(1) +
// pid_1), and how many distinct blocks of each input the first W programs loaded. For the
// practitioners' guide's swizzle_k on a 5x4 grid with group 3 this is its printed z; for its grouped
// matmul on a 9x9 block grid, 9 programs load 54 distinct blocks (90 for the naive kernel).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/Trace.h"

namespace tilescope::viz {

// swizzle2d's numbering of a program: pid_0 * grid_1 + pid_1 (+ the pid_2 slice after both).
int64_t rowMajorPosition(const std::array<int64_t, 3>& pid, const std::array<int64_t, 3>& grid);

struct TraceTileOrder {
  int32_t tensorId = 0;  // the 2-D output tensor (0: none found)
  std::string name;      // its kernel parameter (or tensor name)
  int64_t tileRows = 1, tileCols = 1;  // shape of one store
  std::vector<std::vector<int64_t>> order;  // [tile row][tile col]: position of the program; -1 none
  std::string error;     // why there is no order ("" when there is one)
};

// The order of the first 2-D tensor the kernel stores to (or of `tensorId` when nonzero).
TraceTileOrder traceTileOrder(const sim::LaunchTrace& trace, int32_t tensorId = 0);

struct InputBlocks {
  std::string name;  // the kernel parameter
  int32_t tensorId = 0;
  int64_t blocks = 0;  // distinct blocks (tiles of loaded elements) among the first W programs
};

// Distinct blocks loaded per input tensor by the programs at positions 0 .. programs-1, in
// argument order. A block is one load's set of addressed elements.
std::vector<InputBlocks> traceBlockLoads(const sim::LaunchTrace& trace, int64_t programs);

}  // namespace tilescope::viz
