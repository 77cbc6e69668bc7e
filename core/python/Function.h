#pragma once
// Functions among the launch values: a @triton.jit kernel's def (its AST and signature, which
// KernelLauncher binds a launch's arguments to), and functions implemented in C++ (the host
// functions that kernels call, a compiled kernel's launch handle).
#include <functional>
#include <memory>
#include <string>

#include "core/python/Signature.h"
#include "core/python/Value.h"
#include "core/syntax/Ast.h"

namespace tilescope::host {

// A kernel's `def`: its name, AST (kept alive by its module) and parameters.
class FunctionObject : public Object {
public:
  std::string typeName() const override { return "function"; }
  std::string repr(LaunchContext& in) const override;

  std::string name;
  const lang::FunctionDef* def = nullptr;
  std::shared_ptr<const lang::Module> module;  // keeps the AST alive
  Signature signature;
};

using BuiltinFn = std::function<Value(LaunchContext&, CallArgs&)>;

class BuiltinFunction : public Object {
public:
  BuiltinFunction(std::string name, BuiltinFn fn, std::string kind = "builtin_function_or_method")
      : name(std::move(name)), fn(std::move(fn)), kind(std::move(kind)) {}
  std::string typeName() const override { return kind; }
  std::string repr(LaunchContext&) const override { return "<built-in function " + name + ">"; }
  bool callable() const override { return true; }
  Value call(LaunchContext& in, CallArgs& args) override { return fn(in, args); }

  std::string name;
  BuiltinFn fn;
  std::string kind;
};

Value makeBuiltin(std::string name, BuiltinFn fn);

}  // namespace tilescope::host
