#pragma once
// Reads the binary trace format (docs/TRACE_FORMAT.md) back into a LaunchTrace. Corrupt or
// truncated input gives an error message, never a crash; sections of unknown tags (written by a
// newer minor version) are skipped.
#include <optional>
#include <string>
#include <string_view>

#include "core/sim/Trace.h"

namespace tilescope::sim {

class TraceReader {
public:
  struct Result {
    std::optional<LaunchTrace> trace;
    std::string error;  // empty on success
  };

  static Result read(std::string_view bytes);
  static Result readFile(const std::string& path);
};

}  // namespace tilescope::sim
