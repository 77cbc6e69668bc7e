#pragma once
// What kernel launches need from the session they run in (core/python's EngineSession owns one): the
// launch settings (backend, traces, out-of-bounds policy), the running cell's callbacks and cancel
// token, per-session state of the launch path (kernel caches, address book, warnings shown), and the
// plain Python functions that kernels call on the host. It runs no Python: host code runs on the
// embedded CPython.
//
// The launch path's values (Value.h: tensors, numbers, strings, dtypes, tuples, the compiled kernel
// of warmup()) answer the few questions of Python's data model it asks (repr, str, int(), len,
// comparisons) through the small dispatch below.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/base/CellExecutor.h"
#include "core/python/PyError.h"
#include "core/python/Value.h"

namespace tilescope::host {

// Where kernels run and what the simulator records; chosen by the CLI or the worker.
struct LaunchSettings {
  Backend backend = Backend::Simulator;
  std::string traceDir;   // --trace DIR: write one trace per launch there (empty: none)
  std::string pidFilter;  // --pid-filter EXPR: only these programs are traced
  bool traceValues = false;  // traces also keep each access's loaded/stored values (the inspector's)
  size_t inspectorTraceBytes = size_t{32} << 20;  // cap of a trace recorded only for the inspector
  bool stopOnOutOfBounds = true;  // --out-of-bounds warn: stray unmasked lanes read 0 and warn instead
  // --program-timing FILE: GPU launches record each program's SM and start/end times, appended to
  // FILE as one JSON line per launch (for the SM timeline). Empty: off.
  std::string programTimingPath;
};

class LaunchContext {
public:
  LaunchContext() = default;
  LaunchContext(const LaunchContext&) = delete;
  LaunchContext& operator=(const LaunchContext&) = delete;

  LaunchSettings& launchSettings() { return launch_; }

  // --- the running cell's output and callbacks -------------------------------------------------
  void setCallbacks(const ExecutionCallbacks* callbacks) { callbacks_ = callbacks; }
  void writeStdout(const std::string& text);
  void writeStderr(const std::string& text);
  void display(const RichOutput& output);
  // The inspector's launch records (ExecutionCallbacks::launch): wanted, and reporting one.
  bool wantsLaunchRecords() const { return callbacks_ && callbacks_->launch; }
  void reportLaunch(const LaunchRecord& launch) {
    if (wantsLaunchRecords()) callbacks_->launch(launch);
  }
  // GPU launches record program timing for the caller (ExecutionCallbacks::programTiming).
  bool wantsProgramTiming() const { return callbacks_ && callbacks_->programTiming; }
  void reportProgramTiming(const std::string& line) {
    if (wantsProgramTiming()) callbacks_->programTiming(line);
  }
  int launchTraceLimit() const { return callbacks_ ? callbacks_->tracedLaunchLimit : 0; }
  // Programs to trace besides the policy's sample in launches traced for the inspector.
  std::vector<std::array<int64_t, 3>> requestedTracePrograms() const {
    return callbacks_ ? callbacks_->tracedPrograms : std::vector<std::array<int64_t, 3>>{};
  }
  // Whether this launch may be traced for the inspector (ExecutionCallbacks::tracedLaunchLimit).
  bool takeLaunchTraceSlot() {
    if (!wantsLaunchRecords() || callbacks_->tracedLaunches >= callbacks_->tracedLaunchLimit) return false;
    ++callbacks_->tracedLaunches;
    return true;
  }

  // Polled by launches (the simulator follows the flag itself); raises KeyboardInterrupt once set.
  void setCancelToken(const CancelToken* token) { cancel_ = token; }
  const CancelToken* cancelToken() const { return cancel_; }
  void checkCancelled() {
    if (cancel_ && cancel_->cancelled()) raiseCancelled();
  }

  // Notes printed once per session ("autotune on the simulator uses the first config").
  bool noteOnce(const std::string& key) { return notes_.emplace(key, true).second; }

  // The plain Python functions kernels call on the host (print_if-style callbacks), by the name the
  // kernel calls them by; set before each launch of a kernel that calls them.
  void setHostFunction(const std::string& name, Value fn) { hostFunctions_[name] = std::move(fn); }
  const Value* hostFunction(const std::string& name) const {
    auto it = hostFunctions_.find(name);
    return it == hostFunctions_.end() ? nullptr : &it->second;
  }

  // Per-session state of the launch path (kernel caches, the address book, ...), made on first use.
  template <class T> T& extension() {
    auto& slot = extensions_[typeid(T).name()];
    if (!slot) slot = std::shared_ptr<void>(new T(), [](void* p) { delete static_cast<T*>(p); });
    return *static_cast<T*>(slot.get());
  }

  // --- the launch values' data model -----------------------------------------------------------
  Value call(const Value& callee, CallArgs& args);
  Value call(const Value& callee, ValueList positional);
  Value getAttr(const Value& object, const std::string& name);
  Value getItem(const Value& object, const Value& index);
  std::string repr(const Value& v);
  std::string str(const Value& v);
  bool truthy(const Value& v);
  bool equals(const Value& a, const Value& b);
  Value compare(CmpOp op, const Value& a, const Value& b);
  int64_t length(const Value& v);
  std::unique_ptr<Iterator> iterate(const Value& v);
  ValueList toList(const Value& v);  // materialises any iterable
  // A string identifying a hashable value for dict keys; TypeError "unhashable type: 'list'".
  std::string hashKey(const Value& v);
  // Python int from an index-like value (int, bool, 0-dim integer tensor); TypeError otherwise.
  int64_t toIndex(const Value& v, const char* what);
  double toFloat(const Value& v, const char* what);

private:
  [[noreturn]] void raiseCancelled();

  LaunchSettings launch_;
  const ExecutionCallbacks* callbacks_ = nullptr;
  const CancelToken* cancel_ = nullptr;
  std::map<std::string, bool> notes_;
  std::map<std::string, Value> hostFunctions_;
  std::map<std::string, std::shared_ptr<void>> extensions_;
};

}  // namespace tilescope::host
