#pragma once
// Per-program timing of GPU launches (`tilescope-cli run --backend gpu --program-timing F.jsonl`):
// every program's SM and start/end time. The runtime hands over 3 words per program (start ns,
// end ns, SM; GpuLaunchResult::programTiming); `programTimingLine` turns them into the file's one
// JSON line per launch (docs/GPU_BACKEND.md) and `readProgramTiming` reads such a file back for
// the SM timeline (core/viz/TimelineScene).
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace tilescope::gpu {

struct ProgramTime {
  int64_t pid[3] = {0, 0, 0};
  int64_t sm = 0;
  uint64_t startNs = 0, endNs = 0;  // from the launch's first program start
};

struct LaunchTiming {
  std::string kernel;
  int64_t launch = 0;  // 1-based count of timed launches in the run
  int64_t grid[3] = {1, 1, 1};
  std::vector<ProgramTime> programs;  // in linear program order
  uint64_t spanNs() const;            // the last end
  int64_t smCount() const;            // distinct SMs used
};

// One line of the file (no newline): {"kernel", "launch", "grid", "programs": [[x, y, z, sm,
// start_ns, end_ns], ...]}, times relative to the earliest start. `words` holds 3 per program.
std::string programTimingLine(const std::string& kernel, int64_t launch, const int64_t grid[3], const std::vector<uint64_t>& words);

// Every launch of a --program-timing file. Throws std::runtime_error "FILE:LINE: what is wrong"
// for a line that is not such a record.
std::vector<LaunchTiming> readProgramTiming(std::istream& in, const std::string& fileName);
std::vector<LaunchTiming> readProgramTimingFile(const std::string& path);

}  // namespace tilescope::gpu
