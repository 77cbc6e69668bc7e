#pragma once
// The host-code interpreter: runs the Python subset of docs/HOST_LANGUAGE.md over the AST of
// core/syntax. One Interpreter is one Python process: its globals are shared by every module (script or
// notebook cell) it runs, and it owns the imported modules, the kernel caches and the output callbacks.
//
// Errors in user code are PyError exceptions carrying a Python-style traceback; they never escape
// runModule/evalExpression as anything else (bugs in tilescope are lang::InternalError).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <typeinfo>
#include <string>
#include <vector>

#include "core/host/CellExecutor.h"
#include "core/host/PyError.h"
#include "core/host/Scope.h"
#include "core/host/Value.h"
#include "core/syntax/Ast.h"

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

class Interpreter {
public:
  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // --- running code ---------------------------------------------------------------------------
  // Parses and runs a whole file or cell. With `displayLast`, the value of a trailing expression
  // statement is returned (Jupyter's Out[n]) instead of being discarded; a trailing ';' suppresses it.
  // Syntax errors raise PyError("SyntaxError", ...) with the clang-style diagnostic as detail.
  std::optional<Value> runSource(lang::SourceFilePtr file, bool displayLast);
  // Runs a module in its own namespace (an imported .py file such as triton_util).
  std::optional<Value> runModule(lang::SourceFilePtr file, const std::shared_ptr<Scope>& scope, bool displayLast = false);
  // Evaluates one expression in the given scope (the builtin eval()).
  Value evalSource(const std::string& text, const std::shared_ptr<Scope>& scope);

  // --- the Python data model (used by objects, builtins and modules) ---------------------------
  Value call(const Value& callee, CallArgs& args);
  Value call(const Value& callee, ValueList positional);
  Value getAttr(const Value& object, const std::string& name);
  std::optional<Value> tryGetAttr(const Value& object, const std::string& name);
  void setAttr(const Value& object, const std::string& name, const Value& value);
  Value getItem(const Value& object, const Value& index);
  void setItem(const Value& object, const Value& index, const Value& value);
  std::string repr(const Value& v);
  std::string str(const Value& v);
  std::string format(const Value& v, const std::string& spec);
  bool truthy(const Value& v);
  bool equals(const Value& a, const Value& b);
  Value binary(BinOp op, const Value& a, const Value& b);
  Value compare(CmpOp op, const Value& a, const Value& b);
  Value unary(lang::UnaryOp op, const Value& v);
  bool contains(const Value& container, const Value& item);
  int64_t length(const Value& v);
  std::unique_ptr<Iterator> iterate(const Value& v);
  ValueList toList(const Value& v);  // materialises any iterable
  // A string identifying a hashable value for dict keys; TypeError "unhashable type: 'list'".
  std::string hashKey(const Value& v);
  // Python int from an index-like value (int, bool, 0-dim integer tensor); TypeError otherwise.
  int64_t toIndex(const Value& v, const char* what);
  double toFloat(const Value& v, const char* what);

  // --- names, modules, output ------------------------------------------------------------------
  const std::shared_ptr<Scope>& globals() const { return globals_; }
  // A def or lambda captured `scope`: the function and the scope holding it may now reference each
  // other (a cycle shared_ptr cannot free); the destructor breaks such cycles.
  void noteCapturedScope(const std::shared_ptr<Scope>& scope);
  Value* lookupBuiltin(const std::string& name);
  void setBuiltin(const std::string& name, Value v) { builtins_[name] = std::move(v); }
  // `import name`: the module value (created on first import), or ModuleNotFoundError.
  Value importModule(const std::string& dottedName);
  // Registers a module factory (run once, at the first import).
  void registerModule(const std::string& dottedName, std::function<Value(Interpreter&)> factory);
  std::vector<std::string> supportedModules() const;

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

  // Polled at every loop back-edge and call; raises KeyboardInterrupt once set.
  void setCancelToken(const CancelToken* token) { cancel_ = token; }
  const CancelToken* cancelToken() const { return cancel_; }
  void checkCancelled() {
    if (cancel_ && cancel_->cancelled()) raiseCancelled();
  }

  LaunchSettings& launchSettings() { return launch_; }
  // The process environment as os.environ shows it (TRITON_INTERPRET etc.).
  std::map<std::string, std::string>& environ() { return environ_; }
  // Notes printed once per session ("autotune on the simulator uses the first config").
  bool noteOnce(const std::string& key);

  // --- execution state used by the evaluator and functions --------------------------------------
  struct Frame {
    std::string function;
    std::shared_ptr<Scope> scope;
    lang::SourceRange where;  // the statement or call being executed
  };
  // Calls a user function body: pushes a frame, runs, pops.
  Value callFunction(class FunctionObject& fn, const CallArgs& args);
  Frame& currentFrame() { return frames_.back(); }
  const std::vector<Frame>& frames() const { return frames_; }
  void setLocation(const lang::SourceRange& r) {
    if (!frames_.empty()) frames_.back().where = r;
  }
  // Fills err.frames from the frame stack unless already captured.
  void captureTraceback(PyError& err) const;
  // Runs fn with an extra pseudo-frame (e.g. a kernel host call) on the stack.
  void pushFrame(Frame f) { frames_.push_back(std::move(f)); }
  void popFrame() { frames_.pop_back(); }
  int callDepth() const { return static_cast<int>(frames_.size()); }

  // Statements and expressions (ExprEvaluator implements eval).
  enum class Flow { Normal, Break, Continue, Return };
  Flow execBlock(const lang::StmtList& body, const std::shared_ptr<Scope>& scope);
  Flow exec(const lang::Stmt& stmt, const std::shared_ptr<Scope>& scope);
  Value eval(const lang::Expr& expr, const std::shared_ptr<Scope>& scope);
  void assign(const lang::Expr& target, const Value& value, const std::shared_ptr<Scope>& scope);
  // Every module run in the global namespace so far, in order (what the kernel checker sees).
  const std::vector<std::shared_ptr<const lang::Module>>& modules() const { return globalModules_; }
  // The module whose code is running (functions defined now keep it alive).
  const std::shared_ptr<const lang::Module>& currentModule() const { return module_; }
  Value returnValue;  // set by a `return` statement

  // Arbitrary per-interpreter state owned by the torch/triton modules (kernel caches, ...).
  template <class T> T& extension() {
    auto& slot = extensions_[typeid(T).name()];
    if (!slot) slot = std::shared_ptr<void>(new T(), [](void* p) { delete static_cast<T*>(p); });
    return *static_cast<T*>(slot.get());
  }

private:
  [[noreturn]] void raiseCancelled();
  Flow execFor(const lang::For& s, const std::shared_ptr<Scope>& scope);
  Flow execTry(const lang::Try& s, const std::shared_ptr<Scope>& scope);
  void execImport(const lang::Stmt& s, const std::shared_ptr<Scope>& scope);
  void execFunctionDef(const lang::FunctionDef& def, const std::shared_ptr<Scope>& scope);
  void execDelete(const lang::Expr& target, const std::shared_ptr<Scope>& scope);

  std::shared_ptr<Scope> globals_;
  std::vector<std::weak_ptr<Scope>> capturedScopes_;
  size_t pruneCapturedAt_ = 64;
  std::map<std::string, Value> builtins_;
  std::map<std::string, std::function<Value(Interpreter&)>> moduleFactories_;
  std::map<std::string, Value> modules_;
  std::map<std::string, std::string> environ_;
  std::map<std::string, bool> notes_;
  std::map<std::string, std::shared_ptr<void>> extensions_;
  std::vector<Frame> frames_;
  std::shared_ptr<const lang::Module> module_;
  std::vector<std::shared_ptr<const lang::Module>> keepAlive_;  // every module ever run
  std::vector<std::shared_ptr<const lang::Module>> globalModules_;
  std::vector<std::shared_ptr<void>> keepAliveExprs_;           // eval() strings (functions may capture them)
  std::vector<PyError> handling_;                               // exceptions whose `except` block runs
  const ExecutionCallbacks* callbacks_ = nullptr;
  const CancelToken* cancel_ = nullptr;
  LaunchSettings launch_;
};

// RAII guard for Interpreter::pushFrame.
class FrameGuard {
public:
  FrameGuard(Interpreter& in, Interpreter::Frame f) : in_(in) { in_.pushFrame(std::move(f)); }
  ~FrameGuard() { in_.popFrame(); }
  FrameGuard(const FrameGuard&) = delete;
  FrameGuard& operator=(const FrameGuard&) = delete;

private:
  Interpreter& in_;
};

}  // namespace tilescope::host
