#pragma once
// Callables: functions defined in host code (def / lambda), builtin functions implemented in C++, and
// functools.partial objects.
#include <functional>
#include <memory>
#include <string>

#include "core/host/Signature.h"
#include "core/host/Value.h"

namespace tilescope::host {

class Scope;

// A `def` or `lambda` of host code. Defaults are evaluated when the def runs, like Python.
class FunctionObject : public Object {
public:
  std::string typeName() const override { return "function"; }
  std::string repr(Interpreter& in) const override;
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;

  std::string name;                           // "add", "<lambda>"
  const lang::FunctionDef* def = nullptr;     // exactly one of def / lambda is set
  const lang::Lambda* lambda = nullptr;
  std::shared_ptr<const lang::Module> module;  // keeps the AST alive
  std::shared_ptr<Scope> closure;              // the scope the def ran in
  Signature signature;
};

using BuiltinFn = std::function<Value(Interpreter&, CallArgs&)>;

class BuiltinFunction : public Object {
public:
  BuiltinFunction(std::string name, BuiltinFn fn, std::string kind = "builtin_function_or_method")
      : name(std::move(name)), fn(std::move(fn)), kind(std::move(kind)) {}
  std::string typeName() const override { return kind; }
  std::string repr(Interpreter&) const override { return "<built-in function " + name + ">"; }
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override { return fn(in, args); }

  std::string name;
  BuiltinFn fn;
  std::string kind;
};

Value makeBuiltin(std::string name, BuiltinFn fn);
// A builtin whose arguments are bound to `spec` (see Signature::parse) before `fn` sees them.
Value makeBuiltin(std::string name, const std::string& spec, std::function<Value(Interpreter&, ValueList&)> fn);

// functools.partial(func, *args, **kwargs)
class PartialObject : public Object {
public:
  std::string typeName() const override { return "functools.partial"; }
  std::string repr(Interpreter& in) const override;
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;

  Value func;
  CallArgs bound;
};

}  // namespace tilescope::host
