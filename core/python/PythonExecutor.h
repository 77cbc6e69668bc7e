#pragma once
// Host code on embedded CPython (issue 22): runs scripts and notebook cells as real Python, with our
// triton and torch packages (resources/python) backed by the engine. Implements CellExecutor for the
// worker, and run() for `tilescope-cli run`.
//
// Each executor has its own __main__ namespace (a fresh one per notebook worker); the interpreter
// itself is one per process (EmbeddedInterpreter). Each cell's source is registered with linecache
// under its file name, so tracebacks show its lines and inspect.getsource finds kernels defined in it.
#include <memory>
#include <string>

#include "core/base/CellExecutor.h"
#include "core/python/LaunchContext.h"
#include "core/base/SourceFile.h"

namespace tilescope::python {

class EngineSession;

class PythonExecutor : public host::CellExecutor {
public:
  // Starts the embedded interpreter if needed (PythonStartError when it cannot).
  PythonExecutor();
  ~PythonExecutor() override;

  std::string name() const override { return "embedded-python"; }
  void setBackend(host::Backend backend) override { launchSettings().backend = backend; }
  void setStopOnOutOfBounds(bool stop) override { launchSettings().stopOnOutOfBounds = stop; }
  bool needsFreshProcess() const override;
  bool runsKernelsOnGpu() const override;
  // Runs a cell compiled under cellFileName(cellId); a trailing expression's repr is the result.
  host::ExecutionOutcome execute(const std::string& code, const std::string& cellId,
                                 const host::ExecutionCallbacks& callbacks, const host::CancelToken& cancel) override;

  // Runs a whole script (displayLast false; its folder goes first on sys.path, as `python FILE` does)
  // or one notebook cell under the file's name.
  host::ExecutionOutcome run(const lang::SourceFilePtr& file, bool displayLast, const host::ExecutionCallbacks& callbacks,
                             const host::CancelToken* cancel);
  // Python's traceback text of the last failed run ("" after a success).
  const std::string& lastTraceback() const { return lastTraceback_; }

  host::LaunchSettings& launchSettings();
  const host::LaunchSettings& launchSettings() const;
  // Seconds this executor's launches spent running kernels (the simulator, or the GPU's kernel time):
  // a run's total minus this is its host overhead (core/bench/bench_host.cpp).
  double kernelSeconds() const;

private:
  struct State;
  std::unique_ptr<EngineSession> session_;
  std::unique_ptr<State> state_;
  std::string lastTraceback_;
};

}  // namespace tilescope::python
