#pragma once
// A @triton.jit function on the engine's side (core/python's PythonKernel owns one): its def, which
// parameters are constexprs or exempt from specialization, the Program the checker sees it in, and the
// kernels checked for it so far. KernelLauncher checks and launches it.
#include <memory>
#include <string>
#include <vector>

#include "core/python/Function.h"
#include "core/kernel/Program.h"

namespace tilescope::host {

struct CheckedKernelCache;

struct JitFunction {
  std::shared_ptr<FunctionObject> fn;  // the def (AST, module, signature)
  std::vector<bool> isConstexpr;       // per parameter, from `: tl.constexpr` annotations
  // Per parameter, from @triton.jit(do_not_specialize=[...], do_not_specialize_on_alignment=[...]):
  // an int of 1 stays a run-time value and no multiple of 16 (or 16-byte-aligned pointer) is noted;
  // the second keeps the specialization on 1 and drops only the divisibility.
  std::vector<bool> doNotSpecialize, doNotSpecializeOnAlignment;
  std::shared_ptr<CheckedKernelCache> cache;
  // The Program this kernel is checked in, built from the Python function's __globals__.
  std::shared_ptr<lang::Program> program;
  const std::string& name() const { return fn->name; }
};

}  // namespace tilescope::host
