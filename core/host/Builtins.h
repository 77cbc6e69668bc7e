#pragma once
// Python's builtin functions and types that host code may use (print, len, range, isinstance, ...),
// installed into an Interpreter's builtins namespace.
#include <functional>
#include <string>

#include "core/host/Value.h"

namespace tilescope::host {

// A class such as int, str, list or torch.Tensor: callable (the constructor) and usable in
// isinstance(). `matches` decides membership by the value's type name.
class TypeObject : public Object {
public:
  using Ctor = std::function<Value(Interpreter&, CallArgs&)>;
  TypeObject(std::string name, Ctor ctor, std::vector<std::string> members = {})
      : name(std::move(name)), ctor(std::move(ctor)), members(std::move(members)) {}
  std::string typeName() const override { return "type"; }
  std::string repr(Interpreter&) const override { return "<class '" + name + "'>"; }
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& attr) override;
  bool isInstance(const Value& v) const;

  std::string name;
  Ctor ctor;
  std::vector<std::string> members;  // type names that count as instances (besides `name`)
};

// `...`
class EllipsisObject : public Object {
public:
  std::string typeName() const override { return "ellipsis"; }
  std::string repr(Interpreter&) const override { return "Ellipsis"; }
};

void installBuiltins(Interpreter& in);
// type(x) for any value.
Value typeOf(Interpreter& in, const Value& v);

}  // namespace tilescope::host
