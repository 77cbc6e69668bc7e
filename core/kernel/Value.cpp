#include "core/kernel/Value.h"

namespace tilescope::lang {

Value Value::ofConst(ConstValue c) {
  Value v;
  v.kind = Kind::Const;
  v.constant = std::move(c);
  return v;
}

Value Value::ofTensor(ir::Expr e) {
  Value v;
  v.kind = Kind::Tensor;
  v.expr = std::move(e);
  return v;
}

Value Value::ofTuple(ValueList elements) {
  Value v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  return v;
}

Value Value::ofModule(std::string name) {
  Value v;
  v.kind = Kind::Module;
  v.name = std::move(name);
  return v;
}

Value Value::ofJitFunction(std::string name, const FunctionDef* def) {
  Value v;
  v.kind = Kind::JitFunction;
  v.name = std::move(name);
  v.function = def;
  return v;
}

Value Value::ofHostFunction(std::string name) {
  Value v;
  v.kind = Kind::HostFunction;
  v.name = std::move(name);
  return v;
}

Value Value::ofBuiltin(std::string name) {
  Value v;
  v.kind = Kind::Builtin;
  v.name = std::move(name);
  return v;
}

Value Value::ofMethod(std::string name, Value self) {
  Value v;
  v.kind = Kind::Method;
  v.name = std::move(name);
  v.elements.push_back(std::move(self));
  return v;
}

Value Value::ofFormat(std::vector<ir::FormatPart> parts) {
  Value v;
  v.kind = Kind::Format;
  v.parts = std::move(parts);
  return v;
}

Value Value::ofBlockPointer(ValueList elements) {
  Value v;
  v.kind = Kind::BlockPointer;
  v.elements = std::move(elements);
  return v;
}

Value Value::ofTensorDescriptor(ValueList elements) {
  Value v;
  v.kind = Kind::TensorDescriptor;
  v.elements = std::move(elements);
  return v;
}

Value Value::undefined(std::string message) {
  Value v;
  v.kind = Kind::Undefined;
  v.message = std::move(message);
  return v;
}

bool Value::isConstTree() const {
  if (kind == Kind::Const) return true;
  if (kind != Kind::Tuple) return false;
  for (const Value& e : elements)
    if (!e.isConstTree()) return false;
  return true;
}

std::string Value::describe() const {
  switch (kind) {
    case Kind::Const:
      if (constant.isDType()) return "the dtype " + constant.str();
      return "the constexpr " + constant.repr();
    case Kind::Tensor:
      return expr.type().isScalar() ? "a scalar of type " + expr.type().str() : "a tensor of type " + expr.type().str();
    case Kind::Tuple: return "a tuple of " + std::to_string(elements.size()) + " values";
    case Kind::Module: return "the module '" + name + "'";
    case Kind::JitFunction: return "the @triton.jit function '" + name + "'";
    case Kind::HostFunction: return "the Python function '" + name + "'";
    case Kind::Builtin: return "the builtin '" + name + "'";
    case Kind::Method: return "the method '" + name + "'";
    case Kind::Format: return "an f-string";
    case Kind::BlockPointer: return "a block pointer (tl.make_block_ptr)";
    case Kind::TensorDescriptor: return "a tensor descriptor (tl.make_tensor_descriptor)";
    case Kind::Undefined: return "an undefined name";
  }
  return "a value";
}

bool Value::sameAs(const Value& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::Const:
      // 1 and 1.0 and True compare equal in Python, but they are different constexprs for typing.
      return constant.typeName() == other.constant.typeName() && constant == other.constant;
    case Kind::Tensor: return expr.sameAs(other.expr);
    case Kind::Tuple:
    case Kind::BlockPointer:
    case Kind::TensorDescriptor:
      if (elements.size() != other.elements.size()) return false;
      for (size_t i = 0; i < elements.size(); ++i)
        if (!elements[i].sameAs(other.elements[i])) return false;
      return true;
    case Kind::Module:
    case Kind::HostFunction:
    case Kind::Builtin: return name == other.name;
    case Kind::JitFunction: return function == other.function;
    case Kind::Method: return name == other.name && elements[0].sameAs(other.elements[0]);
    case Kind::Format: return false;
    case Kind::Undefined: return message == other.message;
  }
  return false;
}

}  // namespace tilescope::lang
