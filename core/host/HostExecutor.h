#pragma once
// The host runtime behind the worker and the CLI: one Interpreter (one Python process) whose global
// namespace is shared by every cell it runs. Implements CellExecutor for the GUI's worker.
#include <memory>
#include <string>

#include "core/host/CellExecutor.h"
#include "core/host/Interpreter.h"

namespace tilescope::host {

class HostExecutor : public CellExecutor {
public:
  HostExecutor();
  std::string name() const override { return "host-runtime"; }
  void setBackend(Backend backend) override;
  void setStopOnOutOfBounds(bool stop) override { launchSettings().stopOnOutOfBounds = stop; }
  bool needsFreshProcess() const override;
  bool runsKernelsOnGpu() const override;
  // Runs a cell compiled under cellFileName(cellId); a trailing expression's repr is the result.
  ExecutionOutcome execute(const std::string& code, const std::string& cellId, const ExecutionCallbacks& callbacks,
                           const CancelToken& cancel) override;

  // Runs a whole script or one notebook cell under the given file name.
  ExecutionOutcome run(const lang::SourceFilePtr& file, bool displayLast, const ExecutionCallbacks& callbacks,
                       const CancelToken* cancel);
  // The Python-style traceback text of the last failed run ("" after a success).
  const std::string& lastTraceback() const { return lastTraceback_; }

  Interpreter& interpreter() { return *interpreter_; }
  LaunchSettings& launchSettings() { return interpreter_->launchSettings(); }

private:
  std::unique_ptr<Interpreter> interpreter_;
  std::string lastTraceback_;
};

}  // namespace tilescope::host
