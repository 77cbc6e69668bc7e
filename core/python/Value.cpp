#include "core/python/Value.h"

#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"

namespace tilescope::host {

Value::Value(std::shared_ptr<Object> object) : tag_(object ? Tag::Obj : Tag::None), obj_(std::move(object)) {}

std::string Value::typeName() const {
  switch (tag_) {
    case Tag::None: return "NoneType";
    case Tag::Bool: return "bool";
    case Tag::Int: return "int";
    case Tag::Float: return "float";
    case Tag::Obj: return obj_->typeName();
  }
  return "object";
}

bool Value::identical(const Value& other) const {
  if (tag_ != other.tag_) return false;
  switch (tag_) {
    case Tag::None: return true;
    case Tag::Bool:
    case Tag::Int: return i_ == other.i_;
    case Tag::Float: return d_ == other.d_;
    case Tag::Obj: return obj_ == other.obj_;
  }
  return false;
}

const Value* CallArgs::keyword(std::string_view name) const {
  for (const auto& [k, v] : keywords)
    if (k == name) return &v;
  return nullptr;
}

std::optional<Value> CallArgs::takeKeyword(std::string_view name) {
  for (auto it = keywords.begin(); it != keywords.end(); ++it) {
    if (it->first == name) {
      Value v = std::move(it->second);
      keywords.erase(it);
      return v;
    }
  }
  return std::nullopt;
}

std::string_view cmpOpSymbol(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
  }
  return "?";
}

// --- Object defaults: "not supported", which LaunchContext turns into Python's TypeError. ---

std::string Object::repr(LaunchContext&) const { return "<" + typeName() + " object>"; }
bool Object::truthy(LaunchContext&) const { return true; }
std::optional<Value> Object::getAttr(LaunchContext&, const std::string&) { return std::nullopt; }
std::optional<Value> Object::getItem(LaunchContext&, const Value&) { return std::nullopt; }
Value Object::call(LaunchContext&, CallArgs&) { throwTypeError("'" + typeName() + "' object is not callable"); }
std::optional<Value> Object::compare(LaunchContext&, CmpOp, const Value&) { return std::nullopt; }
std::optional<int64_t> Object::length(LaunchContext&) const { return std::nullopt; }
std::unique_ptr<Iterator> Object::iterate(LaunchContext&) { return nullptr; }
std::optional<Value> Object::number(LaunchContext&) const { return std::nullopt; }
std::optional<std::string> Object::hashKey(LaunchContext&) const { return std::nullopt; }

}  // namespace tilescope::host
