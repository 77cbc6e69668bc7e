#pragma once
// Builds the LaunchTrace of a traced launch and applies the size policy (see Trace.h):
//  * a program is traced when it is listed in LaunchOptions::extraTracedPrograms, or when it
//    matches the pid filter and fewer than maxTracedPrograms matching programs were traced so far;
//  * once the recorded events reach maxTraceBytes, the running program is marked truncated and no
//    later program is traced.
// Programs run in linear order when tracing, so the recorder needs no locking.
#include <map>
#include <memory>
#include <set>
#include <tuple>

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

  // The record to fill for this program, or null when it is not traced.
  ProgramTrace* beginProgram(const std::array<int64_t, 3>& pid, int64_t linearId);
  void endProgram();

  uint32_t location(const lang::SourceRange& range);
  // Adds an event to the current program, enforcing the byte cap.
  void add(ProgramTrace* program, TraceEvent event);

  // Finishes the trace: `programsRun` programs executed in total.
  std::shared_ptr<LaunchTrace> finish(int64_t programsRun);

private:
  const LaunchOptions& options_;
  std::shared_ptr<LaunchTrace> trace_;
  std::set<int64_t> extra_;
  int64_t tracedByLimit_ = 0;
  int64_t skippedByFilter_ = 0;
  int64_t skippedByLimit_ = 0;
  int64_t skippedByBytes_ = 0;
  size_t bytes_ = 0;
  bool full_ = false;
  ProgramTrace* current_ = nullptr;
  Grid grid_;
  std::map<std::tuple<const lang::SourceFile*, uint32_t, uint32_t>, uint32_t> locations_;
};

}  // namespace tilescope::sim
