#pragma once
// Serializes a LaunchTrace to the binary trace format (docs/TRACE_FORMAT.md).
#include <string>

#include "core/sim/Trace.h"

namespace tilescope::sim {

class TraceWriter {
public:
  static constexpr char kMagic[8] = {'T', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
  static constexpr uint16_t kVersionMajor = 1;
  static constexpr uint16_t kVersionMinor = 1;  // 1: Compute sections, Launch's computeDropped

  // Section tags; a reader skips sections it does not know (by their length).
  enum Section : uint8_t { End = 0, Launch = 1, Tensors = 2, Args = 3, Locations = 4, Program = 5, Compute = 6 };
  // Event tags inside a Program section.
  enum EventTag : uint8_t { Load = 1, Store = 2, AtomicRMW = 3, AtomicCAS = 4, Bind = 16, Print = 17 };
  // Event tags inside a Compute section (the dots and reductions of the Program section before it).
  enum ComputeTag : uint8_t { Dot = 1, Reduce = 2 };

  static std::string write(const LaunchTrace& trace);
  // Writes to a file; false (with `error` set) when the file cannot be written.
  static bool writeFile(const LaunchTrace& trace, const std::string& path, std::string* error = nullptr);
};

}  // namespace tilescope::sim
