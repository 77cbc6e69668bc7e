#include "app/cli/TestCellExecutor.h"

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "core/gpu/runtime/ProgramTiming.h"

namespace tilescope::cli {

host::ExecutionOutcome TestCellExecutor::execute(const std::string& code, const std::string& cellId,
                                                 const host::ExecutionCallbacks& callbacks,
                                                 const host::CancelToken& cancel) {
  host::ExecutionOutcome outcome;
  std::istringstream lines(code);
  std::string line;
  int lineNumber = 0;
  while (std::getline(lines, line)) {
    ++lineNumber;
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    const std::string command = line.substr(start, line.find_last_not_of(" \t\r") + 1 - start);
    const int column = static_cast<int>(start) + 1;
    if (command == "print" || command.rfind("print ", 0) == 0) {
      if (callbacks.stream) callbacks.stream("stdout", (command.size() > 6 ? command.substr(6) : "") + "\n");
    } else if (command == "loop forever") {
      // Sleeps a millisecond between polls: as responsive as a tight loop, kinder to a shared machine.
      while (!cancel.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      outcome.status = host::ExecutionOutcome::Status::Cancelled;
      outcome.errorName = "KeyboardInterrupt";
      outcome.errorValue = "the cell was interrupted";
      outcome.traceback.push_back({host::cellFileName(cellId), lineNumber, column, command});
      return outcome;
    } else if (command == "hang") {
      // Native code that never polls the cancel token: only ending the process stops it.
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } else if (command == "fake program timing") {
      // A made-up timing of a 2-program launch (no GPU here): what a GPU launch of a cell run with
      // program timing hands the worker, so tests can follow it through the protocol.
      const int64_t grid[3] = {2, 1, 1};
      if (callbacks.programTiming)
        callbacks.programTiming(gpu::programTimingLine("fake_kernel", ++fakeTimedLaunches_, grid, {100, 900, 0, 120, 700, 1}));
      else if (callbacks.stream)
        callbacks.stream("stderr", "program timing was not asked for\n");
      // Then the launch itself, in the order KernelLauncher reports a GPU launch.
      if (callbacks.launch) callbacks.launch({"fake_kernel", {2, 1, 1}, "gpu", 0, {}, {}});
    } else if (command == "crash") {
      std::abort();
    } else if (command == "gpu fault") {
      gpuFaulted_ = true;  // the cell ends normally; the worker then exits as after a real fault
      outcome.status = host::ExecutionOutcome::Status::Error;
      outcome.errorName = "RuntimeError";
      outcome.errorValue = "cuCtxSynchronize failed for kernel 'test': an illegal memory access was encountered";
      outcome.traceback.push_back({host::cellFileName(cellId), lineNumber, column, command});
      return outcome;
    } else {
      outcome.status = host::ExecutionOutcome::Status::Error;
      outcome.errorName = "TestExecutorError";
      outcome.errorValue = "unknown command '" + command +
                           "': the test executor (TILESCOPE_WORKER_TEST_EXECUTOR=1) understands only "
                           "'print <text>', 'loop forever', 'hang', 'crash', 'gpu fault' and 'fake program timing'";
      outcome.traceback.push_back({host::cellFileName(cellId), lineNumber, column, "unknown command"});
      return outcome;
    }
  }
  return outcome;
}

}  // namespace tilescope::cli
