#pragma once
// A @triton.jit function of embedded Python, on the engine's side: its source (what inspect.getsource
// returned, at its line in its file or cell) parsed by our front end, the host::JitFunction that
// KernelLauncher checks and launches, and the Program the checker sees: built at the first launch
// from the Python function's __globals__ (constexprs, modules, other @triton.jit functions), as Triton
// resolves globals when it first compiles.
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/python/JitFunction.h"
#include "core/python/KernelLauncher.h"
#include "core/syntax/Ast.h"
#include "core/kernel/Value.h"

namespace tilescope::gpu {
struct GpuLaunchHandle;
}

namespace tilescope::python {

class PythonKernel {
public:
  // Throws host::PyError (CompilationError, with the diagnostic) when the front end cannot parse the
  // source or it holds no top-level def of that name.
  PythonKernel(const std::string& name, const std::string& source, const std::string& file, int firstLine,
               const std::vector<std::string>& doNotSpecialize, const std::vector<std::string>& doNotSpecializeOnAlignment);

  const std::string& name() const { return jit_->name(); }
  std::vector<std::string> parameterNames() const;
  size_t parameterCount() const { return jit_->fn->def->params.params.size(); }
  const std::shared_ptr<const lang::Module>& module() const { return module_; }

  bool hasGlobals() const { return jit_->program != nullptr; }
  // The checker's view of the kernel's module: `globals` (name -> lang value) and the helper kernels
  // it calls (their modules define them), then the kernel itself.
  void setGlobals(const std::vector<std::pair<std::string, lang::Value>>& globals,
                  const std::vector<std::shared_ptr<PythonKernel>>& helpers);

  // Checks (once per specialization) and runs the kernel in the active EngineSession. `args` are the
  // kernel's parameters in order (bound by Python), `options` num_warps and friends, `grid` 1 to 3
  // ints. Errors are host::PyError (PythonErrors turns them into Python exceptions).
  // Returns what it launched (the checked specialization, for the fast path's cache).
  host::PreparedLaunch launch(const host::Value& grid, host::ValueList args,
                              std::vector<std::pair<std::string, host::Value>> options);

  // The fast path of cached specializations (KernelBindings computes `key` from the arguments'
  // types in C++, finer than KernelLauncher's specialization key, so one key means one checked
  // kernel). Launches remembered with remember() run again without binding, re-keying or
  // re-checking: only the runtime arguments and the grid change.
  struct FastLaunch {
    host::PreparedLaunch prepared;
    std::vector<size_t> runtimeParams;  // parameter index of each runtime argument
    bool inUse = false;                 // a launch of it runs now (a host call launching it again goes the general way)
    // Arguments of another library (installed PyTorch's CUDA tensors): only the lean GPU path
    // (LaunchFastPath) reuses the entry; elsewhere the general path borrows their memory.
    bool foreign = false;
    std::shared_ptr<const gpu::GpuLaunchHandle> gpu;  // the lean GPU path's loaded kernel, once known
    bool leanRefused = false;                         // the kernel cannot take the lean GPU path
  };
  std::shared_ptr<FastLaunch> fastLaunch(const std::string& key);
  void remember(const std::string& key, host::PreparedLaunch prepared, bool foreign = false);
  bool hasHostFunctions() const { return !hostFunctions_.empty(); }
  size_t fastSpecializations() const { return fast_.size(); }
  // KernelLauncher::run of a prepared launch in the active session.
  void runPrepared(const host::PreparedLaunch& prepared);
  bool isConstexprParam(size_t index) const { return index < jit_->isConstexpr.size() && jit_->isConstexpr[index]; }
  // Only checks the kernel for these arguments (cached like a launch's check): what autotune does on
  // the simulator, which cannot time configs. Throws like launch().
  void check(const host::Value& grid, host::ValueList args, std::vector<std::pair<std::string, host::Value>> options);
  // kernel.warmup(): checks the kernel for these arguments and compiles it for the GPU (the GPU's
  // driver or NVRTC and ptxas give its figures): a host::CompiledKernelObject.
  host::Value warmup(const host::Value& grid, host::ValueList args, std::vector<std::pair<std::string, host::Value>> options);
  // A compiled kernel's attribute (n_regs, metadata, asm, ...) and its launch handle[grid](*params).
  static host::Value compiledAttribute(const host::Value& compiled, const std::string& name);
  void launchCompiled(const host::Value& compiled, const host::Value& grid, host::ValueList args);
  // The plain Python functions the kernel calls (host builtins by the kernel's global names): given to
  // the launch context at each launch, where the simulator's host calls find them.
  void setHostFunctions(std::vector<std::pair<std::string, host::Value>> functions) { hostFunctions_ = std::move(functions); }
  // A redefinition of a kernel this session launched on the GPU: compiles the new code, in the
  // background, for the old one's specializations (KernelLauncher::prefetchRedefined), after
  // `resolveGlobals` gave it its globals. Nothing on the simulator.
  void prefetchRedefined(const std::function<void()>& resolveGlobals);
  // kernel.cache: (specialization key, description) of each checked specialization.
  std::vector<std::pair<std::string, std::string>> cachedSpecializations() const;

private:
  std::shared_ptr<const lang::Module> module_;
  std::shared_ptr<host::JitFunction> jit_;
  std::vector<std::pair<std::string, host::Value>> hostFunctions_;
  std::unordered_map<std::string, std::shared_ptr<FastLaunch>> fast_;  // emptied when the globals change (re-checked)
};

}  // namespace tilescope::python
