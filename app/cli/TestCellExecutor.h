#pragma once
// TEST DOUBLE. Not a Python executor: it stands in for the host runtime so that the worker protocol
// and the GUI (output, interrupt, crash recovery) can be tested before the real executor exists.
// The worker uses it only when TILESCOPE_WORKER_TEST_EXECUTOR=1 (docs/PROTOCOL.md). Each line of a
// cell is one command:
//   print <text>   writes <text> and a newline to stdout
//   loop forever   spins, polling the cancel token, until interrupted
//   hang           spins without polling the cancel token (native code stuck): never returns
//   crash          calls std::abort(), killing the worker
// Anything else is an error pointing at the line and column of the unknown command.
#include "core/base/CellExecutor.h"

namespace tilescope::cli {

class TestCellExecutor : public host::CellExecutor {
public:
  static constexpr const char* kEnvironmentVariable = "TILESCOPE_WORKER_TEST_EXECUTOR";

  std::string name() const override { return "test-double"; }
  void setBackend(host::Backend) override {}
  void setStopOnOutOfBounds(bool) override {}  // the test double launches no kernels
  bool needsFreshProcess() const override { return gpuFaulted_; }
  host::ExecutionOutcome execute(const std::string& code, const std::string& cellId,
                                 const host::ExecutionCallbacks& callbacks, const host::CancelToken& cancel) override;

private:
  bool gpuFaulted_ = false;  // 'gpu fault': acts as if the cell faulted the GPU
  int64_t fakeTimedLaunches_ = 0;  // 'fake program timing' lines made so far
};

}  // namespace tilescope::cli
