#pragma once
// @triton.jit, @triton.autotune and @triton.heuristics as host values. `kernel[grid](*args, **meta)`
// indexes the kernel with its grid (a LaunchObject) and calls that, which binds the arguments like
// Python, checks the kernel for this specialization (cached) and runs it (KernelLauncher).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/host/Function.h"
#include "core/host/Value.h"
#include "core/kernel/Program.h"

namespace tilescope::host {

struct CheckedKernelCache;

class JitFunction : public Object {
public:
  std::string typeName() const override { return "JITFunction"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getItem(Interpreter& in, const Value& grid) override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;

  std::shared_ptr<FunctionObject> fn;  // the def (AST, module, defaults)
  std::vector<bool> isConstexpr;       // per parameter, from `: tl.constexpr` annotations
  // Per parameter, from @triton.jit(do_not_specialize=[...], do_not_specialize_on_alignment=[...]):
  // an int of 1 stays a run-time value and no multiple of 16 (or 16-byte-aligned pointer) is noted;
  // the second keeps the specialization on 1 and drops only the divisibility.
  std::vector<bool> doNotSpecialize, doNotSpecializeOnAlignment;
  std::shared_ptr<CheckedKernelCache> cache;
  // The Program this kernel is checked in when its host code does not run in this interpreter (embedded
  // CPython, core/python, builds it from the function's __globals__); null: the interpreter's modules.
  std::shared_ptr<lang::Program> program;
  const std::string& name() const { return fn->name; }
};

// @triton.autotune(configs=[...], key=[...]) around a JitFunction (or around @heuristics).
class Autotuner : public Object {
public:
  std::string typeName() const override { return "Autotuner"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getItem(Interpreter& in, const Value& grid) override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;

  Value inner;               // JitFunction or Heuristics
  ValueList configs;         // ConfigObjects
  std::vector<std::string> key;
  // Chosen config per key tuple (the simulator takes the first that checks).
  std::map<std::string, size_t> chosen;
};

// @triton.heuristics({'BLOCK': lambda args: ...}) around a JitFunction.
class Heuristics : public Object {
public:
  std::string typeName() const override { return "Heuristics"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getItem(Interpreter& in, const Value& grid) override;

  Value inner;
  Value values;  // dict name -> callable(args dict)
};

// `kernel[grid]`: calling it launches.
class LaunchObject : public Object {
public:
  std::string typeName() const override { return "function"; }
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;

  Value target;  // JitFunction, Autotuner or Heuristics
  Value grid;
};

// `target[grid](*args)` for a JitFunction, Autotuner or Heuristics.
Value launchKernel(Interpreter& in, const Value& target, const Value& grid, CallArgs& args);

// The JitFunction at the bottom of a decorator stack (nullptr if `v` is none of the three).
JitFunction* innermostJit(const Value& v);

}  // namespace tilescope::host
