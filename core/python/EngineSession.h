#pragma once
// The engine behind one embedded-Python session: launch settings (backend, traces, out-of-bounds
// policy), the kernel-launch state, and the callbacks and cancel token of the cell running now.
//
// Kernel launches go through KernelLauncher, which keeps its per-session state (launch
// counts, warnings shown, GPU cross-checks, the address book) and reaches the running cell's output
// in the session's host::LaunchContext.
#include <memory>
#include <string>

#include "core/base/CellExecutor.h"
#include "core/python/LaunchContext.h"

namespace tilescope::python {

class EngineSession {
public:
  EngineSession();
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  host::LaunchSettings& launchSettings() { return context_->launchSettings(); }
  host::LaunchContext& launchContext() { return *context_; }

  // The session whose code runs now (nullptr between runs): kernel launches and sys.stdout use it.
  static EngineSession* active();

  // Output of the running code; without a running cell it goes to the process's stdout/stderr.
  static void write(const std::string& streamName, const std::string& text);

  // Interrupting the running Python code: the cancel watcher requests it (from its own thread), the
  // main thread takes it and raises KeyboardInterrupt if it was requested, so a request that comes
  // after its cell ended is dropped.
  static void requestInterrupt();
  static bool takeInterrupt();

  // Makes this session the active one for a run, with its callbacks and cancel token.
  class Activation {
  public:
    Activation(EngineSession& session, const host::ExecutionCallbacks& callbacks, const host::CancelToken* cancel);
    ~Activation();
    Activation(const Activation&) = delete;
    Activation& operator=(const Activation&) = delete;

  private:
    EngineSession& session_;
    EngineSession* previous_;
  };

private:
  std::unique_ptr<host::LaunchContext> context_;
};

}  // namespace tilescope::python
