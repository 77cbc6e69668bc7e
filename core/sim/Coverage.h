#pragma once
// The write-coverage report made after every launch, for each tensor the launch stored to:
// elements never written, elements written by more than one program, and those among them whose
// programs wrote different values (a race on the GPU: which value survives is unspecified).
// Elements are counted over the tensor's logical shape (strides honoured).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/Grid.h"
#include "core/sim/Memory.h"

namespace tilescope::sim {

struct TensorCoverage {
  int tensorId = 0;
  std::string tensorName;
  std::string argName;  // the kernel parameter that received the tensor ("" if none)
  std::vector<int64_t> shape;
  int64_t elements = 0;
  int64_t written = 0;
  int64_t neverWritten = 0;
  // First few runs of never-written elements as [begin, end) logical (row-major) element indices.
  std::vector<std::pair<int64_t, int64_t>> neverWrittenRanges;
  int64_t writtenByMany = 0;
  int64_t conflicting = 0;
  struct Conflict {
    int64_t element = 0;  // logical index
    std::array<int64_t, 3> firstProgram{};
    std::array<int64_t, 3> secondProgram{};
  };
  std::vector<Conflict> conflicts;  // first few

  bool complete() const { return neverWritten == 0; }
};

struct CoverageReport {
  std::vector<TensorCoverage> tensors;

  const TensorCoverage* find(int tensorId) const;
  // One paragraph per tensor, e.g.
  //   z_ptr (tensor 'z', shape [6]): 2 of 6 elements written; never written: z[2:6] (4 elements)
  std::string render() const;
};

inline constexpr size_t kCoverageExamples = 8;

// Builds the report from the launch bookkeeping in `memory` (tensors written in launch `launchId`).
// `argNames` maps tensor id -> parameter name for messages. Large tensors are counted on up to
// `threads` simulator threads.
CoverageReport computeCoverage(const Memory& memory, uint64_t launchId, const Grid& grid,
                               const std::vector<std::pair<int, std::string>>& argNames, int threads = 1);

}  // namespace tilescope::sim
