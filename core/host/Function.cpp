#include "core/host/Function.h"

#include "core/host/Containers.h"
#include "core/host/Interpreter.h"

namespace tilescope::host {

std::string FunctionObject::repr(Interpreter&) const { return "<function " + name + ">"; }

Value FunctionObject::call(Interpreter& in, CallArgs& args) { return in.callFunction(*this, args); }

std::optional<Value> FunctionObject::getAttr(Interpreter&, const std::string& attr) {
  if (attr == "__name__") return makeStr(name);
  if (attr == "__doc__") {
    const lang::StringLiteral* doc = def ? def->docstring() : nullptr;
    return doc ? makeStr(doc->value) : Value();
  }
  return std::nullopt;
}

Value makeBuiltin(std::string name, BuiltinFn fn) { return makeObject<BuiltinFunction>(std::move(name), std::move(fn)); }

Value makeBuiltin(std::string name, const std::string& spec, std::function<Value(Interpreter&, ValueList&)> fn) {
  Signature sig = Signature::parse(name, spec);
  return makeObject<BuiltinFunction>(std::move(name), [sig = std::move(sig), fn = std::move(fn)](Interpreter& in, CallArgs& args) {
    ValueList bound = sig.bind(in, args);
    return fn(in, bound);
  });
}

std::string PartialObject::repr(Interpreter& in) const {
  std::string out = "functools.partial(" + in.repr(func);
  for (const Value& v : bound.positional) out += ", " + in.repr(v);
  for (const auto& [k, v] : bound.keywords) out += ", " + k + "=" + in.repr(v);
  return out + ")";
}

Value PartialObject::call(Interpreter& in, CallArgs& args) {
  CallArgs merged = bound;
  merged.positional.insert(merged.positional.end(), args.positional.begin(), args.positional.end());
  for (const auto& [k, v] : args.keywords) {
    bool replaced = false;
    for (auto& [mk, mv] : merged.keywords) {
      if (mk == k) {
        mv = v;
        replaced = true;
      }
    }
    if (!replaced) merged.keywords.emplace_back(k, v);
  }
  return in.call(func, merged);
}

}  // namespace tilescope::host
