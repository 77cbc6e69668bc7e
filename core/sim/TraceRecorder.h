#pragma once
// Builds the LaunchTrace of a traced launch and applies the size policy (see Trace.h):
//  * a program is traced when it is listed in LaunchOptions::extraTracedPrograms, or when it
//    matches the pid filter and is among the first maxTracedPrograms matching programs in linear
//    order (decided before the launch, so the choice does not depend on thread timing);
//  * once the recorded events reach maxTraceBytes, the program that crossed the cap is marked
//    truncated and no program after it (in linear order) is kept - except the listed programs
//    (someone asked for them by name), which share a second budget of maxTraceBytes;
//  * dot and reduction events (addCompute) have their own share of that cap (kComputeShareOfCap):
//    once it is used up they are counted as dropped, and memory events go on being recorded.
// Programs of a traced launch run in parallel: each program fills its own ProgramTrace, and
// finish() assembles them in linear order.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/sim/Launch.h"
#include "core/sim/Memory.h"
#include "core/sim/Trace.h"

namespace tilescope::sim {

class TraceRecorder {
public:
  TraceRecorder(const ir::Kernel& kernel, const Grid& grid, const LaunchOptions& options);

  // Describes the launch's arguments (call once, before the programs run).
  void setArguments(const Memory& memory, const std::vector<const ir::KernelParam*>& params,
                    const std::vector<LaunchArg>& args);

  // The record to fill for this program, or null when it is not traced. Thread-safe; each
  // program's record is written only by the thread running that program.
  ProgramTrace* beginProgram(const std::array<int64_t, 3>& pid, int64_t linearId);

  // The index of a source range in the trace's location table. Thread-safe.
  uint32_t location(const lang::SourceRange& range);
  // Adds an event to a program's record, enforcing the byte cap. Thread-safe across programs.
  void add(ProgramTrace* program, TraceEvent event);
  // Adds a dot or reduction to a program's record, dropping tiles above kMaxComputeTileElements
  // (finish() numbers the steps: earlier executions of the same operation in the program).
  // Thread-safe across programs.
  void addCompute(ProgramTrace* program, ComputeEvent event);

  // Finishes the trace: `programsRun` programs were started; programs after `lastProgram` (the
  // one that stopped the launch with an error) are dropped, as a sequential run never ran them.
  std::shared_ptr<LaunchTrace> finish(int64_t programsRun, int64_t lastProgram = INT64_MAX);

private:
  uint32_t lookUpLocation(const lang::SourceRange& range);  // under the lock
  bool isExtra(int64_t linearId) const { return !extra_.empty() && extra_.count(linearId) != 0; }

  const LaunchOptions& options_;
  std::shared_ptr<LaunchTrace> trace_;
  Grid grid_;
  uint64_t serial_;  // this recorder's number, for the per-thread location cache
  std::set<int64_t> extra_;
  // The programs chosen before the launch (linear id -> slot) and their records.
  std::unordered_map<int64_t, size_t> slotOf_;
  std::vector<std::unique_ptr<ProgramTrace>> slots_;
  std::atomic<size_t> bytes_{0};
  std::atomic<size_t> extraBytes_{0};  // the listed programs' own budget
  std::atomic<bool> full_{false};
  std::atomic<size_t> computeBytes_{0};
  std::atomic<int64_t> computeDropped_{0};
  std::atomic<bool> computeFull_{false};
  std::mutex locationMutex_;
  std::map<std::tuple<const lang::SourceFile*, uint32_t, uint32_t>, uint32_t> locations_;
};

}  // namespace tilescope::sim
