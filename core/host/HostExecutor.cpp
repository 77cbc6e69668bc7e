#include "core/host/HostExecutor.h"

#include <stdexcept>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/host/ExecutionBackend.h"

#include "core/tensor/TensorError.h"
#include "core/base/Diagnostic.h"

namespace tilescope::host {

HostExecutor::HostExecutor() : interpreter_(std::make_unique<Interpreter>()) {}

void HostExecutor::setBackend(Backend backend) { interpreter_->launchSettings().backend = backend; }

ExecutionOutcome HostExecutor::execute(const std::string& code, const std::string& cellId, const ExecutionCallbacks& callbacks,
                                       const CancelToken& cancel) {
  return run(std::make_shared<lang::SourceFile>(cellFileName(cellId), code), true, callbacks, &cancel);
}

ExecutionOutcome HostExecutor::run(const lang::SourceFilePtr& file, bool displayLast, const ExecutionCallbacks& callbacks,
                                   const CancelToken* cancel) {
  Interpreter& in = *interpreter_;
  in.setCallbacks(&callbacks);
  in.setCancelToken(cancel);
  lastTraceback_.clear();
  ExecutionOutcome outcome;
  auto fail = [&](const PyError& e) {
    outcome.status = e.cancellation || e.type() == "KeyboardInterrupt" ? ExecutionOutcome::Status::Cancelled
                                                                       : ExecutionOutcome::Status::Error;
    outcome.errorName = e.type();
    outcome.errorValue = e.message();
    for (const TracebackEntry& f : e.frames) outcome.traceback.push_back(TracebackFrame{f.file, f.line, f.column, f.sourceLine});
    // Kernel and syntax diagnostics become frames of their own, innermost, so a notebook can name
    // the cell of the kernel and mark the spot there; other detail stays one frame of text.
    for (const DiagnosticEntry& d : e.diagnostics)
      outcome.traceback.push_back(TracebackFrame{d.file, d.line, d.column, d.snippet, d.severity, d.message});
    if (e.diagnostics.empty() && !e.detail.empty()) outcome.traceback.push_back(TracebackFrame{"", 0, 0, e.detail});
    lastTraceback_ = e.render();
  };
  try {
    std::optional<Value> result = in.runSource(file, displayLast);
    if (result && !result->isNone()) {
      RichOutput out;
      out.data["text/plain"] = in.repr(*result);
      outcome.result = std::move(out);
    }
  } catch (const PyError& e) {
    fail(e);
  } catch (const TensorError& e) {
    fail(PyError(std::string(e.pythonType()), e.what()));
  } catch (const lang::CompileError& e) {
    PyError err("CompilationError", e.diagnostic().headline());
    err.setDiagnostics(e.diagnostic());
    fail(err);
  } catch (const std::bad_alloc&) {
    fail(PyError("MemoryError", "out of memory"));
  } catch (const std::length_error& e) {
    // A container asked for more elements than it can ever hold (a huge list or index result).
    fail(PyError("MemoryError", std::string("out of memory: ") + e.what()));
  }
  in.setCallbacks(nullptr);
  in.setCancelToken(nullptr);
  return outcome;
}

bool HostExecutor::needsFreshProcess() const { return gpu::GpuRuntime::instance().hadStickyFault(); }

bool HostExecutor::runsKernelsOnGpu() const {
  // The simulator backend never asks for the device, so a --backend sim run does not probe it.
  return resolvesToGpu(interpreter_->launchSettings().backend);
}

}  // namespace tilescope::host
