#pragma once
// Collects the printed lines of programs that finish in any order (on several threads) and
// releases them in program order, as soon as every earlier program has finished, so that output
// is identical to a sequential run and still streams while the launch runs.
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/sim/Launch.h"

namespace tilescope::sim {

class OrderedOutput {
public:
  OrderedOutput(const OutputCallback& sink, std::string& collected) : sink_(sink), collected_(collected) {}

  // Program `linearId` finished (or stopped) with these lines.
  void complete(int64_t linearId, std::vector<std::string> lines);
  // Programs above `last` will never be released (they came after the failing program).
  void limit(int64_t last);
  // Releases what is left, in order, skipping programs that never completed (an interrupted launch).
  void finish();

private:
  void emit(std::vector<std::string>& lines);

  const OutputCallback& sink_;
  std::string& collected_;
  std::mutex mutex_;
  int64_t next_ = 0;
  int64_t last_ = std::numeric_limits<int64_t>::max();
  std::map<int64_t, std::vector<std::string>> pending_;
};

}  // namespace tilescope::sim
