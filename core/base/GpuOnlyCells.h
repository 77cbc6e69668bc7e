#pragma once
// Notebook cells tagged "gpu-only" (notebook::Cell::gpuOnly(): benchmarks at GPU sizes, which would
// take minutes on the CPU simulator) run only where kernels run on a GPU. Elsewhere both
// `tilescope-cli run` and the GUI's worker skip them and show this reason as the cell's output, so
// Run all stays quick in a classroom.
#include <string>

#include "core/base/CellExecutor.h"

namespace tilescope::host {

// The text shown instead of a skipped cell's output (one line, ending in a newline).
inline std::string gpuOnlySkipMessage() {
  return "Skipped: this cell is tagged gpu-only and kernels run on the CPU simulator here. To run it, pick the GPU "
         "backend on a machine with an NVIDIA GPU (tilescope-cli run --backend gpu, or the toolbar's backend menu).\n";
}

// Whether a cell with this tag must be skipped by this executor now.
inline bool skipsGpuOnlyCell(bool gpuOnly, const CellExecutor& executor) { return gpuOnly && !executor.runsKernelsOnGpu(); }

}  // namespace tilescope::host
