#include "core/python/LaunchContext.h"

#include <cmath>

#include "core/python/Containers.h"
#include "core/tensor/PythonFormat.h"

namespace tilescope::host {

namespace {

template <class T>
bool compare(CmpOp op, T x, T y) {
  switch (op) {
    case CmpOp::Eq: return x == y;
    case CmpOp::Ne: return x != y;
    case CmpOp::Lt: return x < y;
    case CmpOp::Le: return x <= y;
    case CmpOp::Gt: return x > y;
    case CmpOp::Ge: return x >= y;
  }
  return false;
}

// Python's comparison of two numbers (bool, int, float); nullopt when either is not one.
std::optional<bool> compareNumbers(CmpOp op, const Value& a, const Value& b) {
  if (!a.isNumber() || !b.isNumber()) return std::nullopt;
  if (a.isIntLike() && b.isIntLike()) return compare(op, a.asInt(), b.asInt());
  return compare(op, a.asFloat(), b.asFloat());
}

}  // namespace

void LaunchContext::raiseCancelled() {
  throw PyError("KeyboardInterrupt", "");
}

void LaunchContext::writeStdout(const std::string& text) {
  if (callbacks_ && callbacks_->stream) callbacks_->stream("stdout", text);
}

void LaunchContext::writeStderr(const std::string& text) {
  if (callbacks_ && callbacks_->stream) callbacks_->stream("stderr", text);
}

void LaunchContext::display(const RichOutput& output) {
  if (callbacks_ && callbacks_->displayData) callbacks_->displayData(output);
}

// ------------------------------------------------------------------------------ the data model

Value LaunchContext::call(const Value& callee, ValueList positional) {
  CallArgs args(std::move(positional));
  return call(callee, args);
}

Value LaunchContext::call(const Value& callee, CallArgs& args) {
  checkCancelled();
  if (!callee.isObject() || !callee.object()->callable()) throwTypeError("'" + callee.typeName() + "' object is not callable");
  return callee.object()->call(*this, args);
}

Value LaunchContext::getAttr(const Value& object, const std::string& name) {
  if (object.isObject())
    if (std::optional<Value> v = object.object()->getAttr(*this, name)) return *v;
  throw PyError("AttributeError", "'" + object.typeName() + "' object has no attribute '" + name + "'");
}

Value LaunchContext::getItem(const Value& object, const Value& index) {
  if (object.isObject())
    if (auto v = object.object()->getItem(*this, index)) return *v;
  throwTypeError("'" + object.typeName() + "' object is not subscriptable");
}

std::string LaunchContext::repr(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return "None";
    case Value::Tag::Bool: return v.asBool() ? "True" : "False";
    case Value::Tag::Int: return std::to_string(v.asInt());
    case Value::Tag::Float: return pythonFloatRepr(v.asFloat());
    case Value::Tag::Obj: return v.object()->repr(*this);
  }
  return "?";
}

std::string LaunchContext::str(const Value& v) {
  if (v.isObject()) return v.object()->str(*this);
  return repr(v);
}

bool LaunchContext::truthy(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return false;
    case Value::Tag::Bool:
    case Value::Tag::Int: return v.asInt() != 0;
    case Value::Tag::Float: return v.asFloat() != 0.0;
    case Value::Tag::Obj: return v.object()->truthy(*this);
  }
  return false;
}

bool LaunchContext::equals(const Value& a, const Value& b) {
  if (a.identical(b)) return !(a.isFloat() && std::isnan(a.asFloat()));
  return truthy(compare(CmpOp::Eq, a, b));
}

Value LaunchContext::compare(CmpOp op, const Value& a, const Value& b) {
  if (auto r = compareNumbers(op, a, b)) return Value::boolean(*r);
  if (a.isObject())
    if (auto r = a.object()->compare(*this, op, b)) return *r;
  if (b.isObject()) {
    static const CmpOp swapped[] = {CmpOp::Eq, CmpOp::Ne, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le};
    if (auto r = b.object()->compare(*this, swapped[static_cast<int>(op)], a)) return *r;
  }
  if (op == CmpOp::Eq) return Value::boolean(a.identical(b));
  if (op == CmpOp::Ne) return Value::boolean(!a.identical(b));
  throwTypeError("'" + std::string(cmpOpSymbol(op)) + "' not supported between instances of '" + a.typeName() + "' and '" +
                 b.typeName() + "'");
}

int64_t LaunchContext::length(const Value& v) {
  if (v.isObject())
    if (auto n = v.object()->length(*this)) return *n;
  throwTypeError("object of type '" + v.typeName() + "' has no len()");
}

std::unique_ptr<Iterator> LaunchContext::iterate(const Value& v) {
  if (v.isObject())
    if (auto it = v.object()->iterate(*this)) return it;
  throwTypeError("'" + v.typeName() + "' object is not iterable");
}

ValueList LaunchContext::toList(const Value& v) {
  if (auto* l = v.as<ListObject>()) return l->items;
  if (auto* t = v.as<TupleObject>()) return t->items;
  ValueList out;
  std::unique_ptr<Iterator> it = iterate(v);
  Value item;
  while (it->next(item)) {
    checkCancelled();
    out.push_back(item);
  }
  return out;
}

std::string LaunchContext::hashKey(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None: return "N";
    case Value::Tag::Bool:
    case Value::Tag::Int: return "i" + std::to_string(v.asInt());
    case Value::Tag::Float: {
      const double d = v.asFloat();
      if (d == std::floor(d) && std::fabs(d) < 9.2e18) return "i" + std::to_string(static_cast<int64_t>(d));
      return "f" + pythonFloatRepr(d);
    }
    case Value::Tag::Obj: break;
  }
  if (auto* s = v.as<StrObject>()) return "s" + s->value;
  if (auto* t = v.as<TupleObject>()) {
    std::string key = "t(";
    for (const Value& item : t->items) key += hashKey(item) + ",";
    return key + ")";
  }
  if (v.is<ListObject>() || v.is<DictObject>()) throwTypeError("unhashable type: '" + v.typeName() + "'");
  if (auto k = v.object()->hashKey(*this)) return *k;
  return "o" + std::to_string(reinterpret_cast<uintptr_t>(v.object()));
}

int64_t LaunchContext::toIndex(const Value& v, const char* what) {
  if (v.isIntLike()) return v.asInt();
  if (v.isObject())
    if (auto n = v.object()->number(*this); n && n->isIntLike()) return n->asInt();
  throwTypeError(std::string(what) + " indices must be integers, not " + v.typeName());
}

double LaunchContext::toFloat(const Value& v, const char* what) {
  if (v.isNumber()) return v.asFloat();
  if (v.isObject())
    if (auto n = v.object()->number(*this)) return n->asFloat();
  throwTypeError(std::string(what) + ": must be real number, not " + v.typeName());
}

}  // namespace tilescope::host
