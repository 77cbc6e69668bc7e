#include "core/host/Value.h"

#include "core/host/Interpreter.h"
#include "core/host/PyError.h"

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

std::string_view binOpSymbol(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::MatMul: return "@";
    case BinOp::Div: return "/";
    case BinOp::FloorDiv: return "//";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "** or pow()";
    case BinOp::And: return "&";
    case BinOp::Or: return "|";
    case BinOp::Xor: return "^";
    case BinOp::LShift: return "<<";
    case BinOp::RShift: return ">>";
  }
  return "?";
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

BinOp toBinOp(lang::BinaryOp op) {
  switch (op) {
    case lang::BinaryOp::BitOr: return BinOp::Or;
    case lang::BinaryOp::BitXor: return BinOp::Xor;
    case lang::BinaryOp::BitAnd: return BinOp::And;
    case lang::BinaryOp::LShift: return BinOp::LShift;
    case lang::BinaryOp::RShift: return BinOp::RShift;
    case lang::BinaryOp::Add: return BinOp::Add;
    case lang::BinaryOp::Sub: return BinOp::Sub;
    case lang::BinaryOp::Mult: return BinOp::Mul;
    case lang::BinaryOp::MatMult: return BinOp::MatMul;
    case lang::BinaryOp::Div: return BinOp::Div;
    case lang::BinaryOp::FloorDiv: return BinOp::FloorDiv;
    case lang::BinaryOp::Mod: return BinOp::Mod;
    case lang::BinaryOp::Pow: return BinOp::Pow;
  }
  return BinOp::Add;
}

// --- Object defaults: "not supported", which the Interpreter turns into Python's TypeError. ---

std::string Object::repr(Interpreter&) const { return "<" + typeName() + " object>"; }
bool Object::truthy(Interpreter&) const { return true; }
std::optional<Value> Object::getAttr(Interpreter&, const std::string&) { return std::nullopt; }
bool Object::setAttr(Interpreter&, const std::string&, const Value&) { return false; }
std::optional<Value> Object::getItem(Interpreter&, const Value&) { return std::nullopt; }
bool Object::setItem(Interpreter&, const Value&, const Value&) { return false; }
Value Object::call(Interpreter&, CallArgs&) { throwTypeError("'" + typeName() + "' object is not callable"); }
std::optional<Value> Object::binary(Interpreter&, BinOp, const Value&, bool) { return std::nullopt; }
std::optional<Value> Object::compare(Interpreter&, CmpOp, const Value&) { return std::nullopt; }
std::optional<Value> Object::unary(Interpreter&, lang::UnaryOp) { return std::nullopt; }
std::optional<int64_t> Object::length(Interpreter&) const { return std::nullopt; }
std::unique_ptr<Iterator> Object::iterate(Interpreter&) { return nullptr; }
std::optional<bool> Object::contains(Interpreter&, const Value&) { return std::nullopt; }
std::optional<std::string> Object::format(Interpreter&, const std::string&) { return std::nullopt; }
std::optional<Value> Object::inplace(Interpreter&, BinOp, const Value&) { return std::nullopt; }
std::optional<Value> Object::number(Interpreter&) const { return std::nullopt; }
std::optional<std::string> Object::hashKey(Interpreter&) const { return std::nullopt; }

}  // namespace tilescope::host
