#pragma once
// A Python value of the host interpreter. None, bool, int and float are held inline (no allocation:
// host code does a lot of small-number arithmetic); everything else is a reference-counted Object,
// which gives Python's reference semantics (two names, one list) for free.
//
// Object subclasses decide their own behaviour through the virtual hooks below (attributes, items,
// calls, operators, iteration); the Interpreter dispatches to them and raises Python's TypeError when a
// hook says "not supported" (returns nullopt / false).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/syntax/Ast.h"

namespace tilescope::host {

class Interpreter;
class Object;
class Value;

using ValueList = std::vector<Value>;

class Value {
public:
  enum class Tag : uint8_t { None, Bool, Int, Float, Obj };

  Value() = default;  // None
  static Value none() { return Value(); }
  static Value boolean(bool b) {
    Value v;
    v.tag_ = Tag::Bool;
    v.i_ = b ? 1 : 0;
    return v;
  }
  static Value integer(int64_t i) {
    Value v;
    v.tag_ = Tag::Int;
    v.i_ = i;
    return v;
  }
  static Value real(double d) {
    Value v;
    v.tag_ = Tag::Float;
    v.d_ = d;
    return v;
  }
  Value(std::shared_ptr<Object> object);  // NOLINT: objects convert implicitly, like in Python

  Tag tag() const { return tag_; }
  bool isNone() const { return tag_ == Tag::None; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isInt() const { return tag_ == Tag::Int; }  // strictly int (bool is separate here)
  bool isFloat() const { return tag_ == Tag::Float; }
  bool isObject() const { return tag_ == Tag::Obj; }
  // int or bool (Python's bool is an int subclass)
  bool isIntLike() const { return tag_ == Tag::Int || tag_ == Tag::Bool; }
  bool isNumber() const { return tag_ == Tag::Int || tag_ == Tag::Bool || tag_ == Tag::Float; }

  bool asBool() const { return i_ != 0; }
  int64_t asInt() const { return i_; }  // also valid for bools
  double asFloat() const { return tag_ == Tag::Float ? d_ : static_cast<double>(i_); }
  Object* object() const { return obj_.get(); }
  long objectUseCount() const { return obj_.use_count(); }  // holders of the object (0 for non-objects)
  const std::shared_ptr<Object>& objectPtr() const { return obj_; }

  template <class T> T* as() const { return tag_ == Tag::Obj ? dynamic_cast<T*>(obj_.get()) : nullptr; }
  template <class T> bool is() const { return as<T>() != nullptr; }

  // type(x).__name__: "int", "str", "Tensor", ...
  std::string typeName() const;

  // Identity (`is`): same inline value, or the same object.
  bool identical(const Value& other) const;

private:
  Tag tag_ = Tag::None;
  union {
    int64_t i_ = 0;
    double d_;
  };
  std::shared_ptr<Object> obj_;
};

// Positional and keyword arguments of one call, after `*args` / `**kwargs` were expanded.
struct CallArgs {
  ValueList positional;
  std::vector<std::pair<std::string, Value>> keywords;

  CallArgs() = default;
  CallArgs(ValueList pos) : positional(std::move(pos)) {}  // NOLINT
  const Value* keyword(std::string_view name) const;
  // Removes and returns a keyword argument (nullopt when absent).
  std::optional<Value> takeKeyword(std::string_view name);
};

enum class BinOp : uint8_t { Add, Sub, Mul, MatMul, Div, FloorDiv, Mod, Pow, And, Or, Xor, LShift, RShift };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
std::string_view binOpSymbol(BinOp op);
std::string_view cmpOpSymbol(CmpOp op);
BinOp toBinOp(lang::BinaryOp op);

// Lazy iteration (range(10**9) must not be materialised).
class Iterator {
public:
  virtual ~Iterator() = default;
  virtual bool next(Value& out) = 0;
};

class Object : public std::enable_shared_from_this<Object> {
public:
  virtual ~Object() = default;
  virtual std::string typeName() const = 0;

  virtual std::string repr(Interpreter& in) const;
  virtual std::string str(Interpreter& in) const { return repr(in); }
  virtual bool truthy(Interpreter& in) const;

  virtual std::optional<Value> getAttr(Interpreter& in, const std::string& name);
  virtual bool setAttr(Interpreter& in, const std::string& name, const Value& value);

  virtual std::optional<Value> getItem(Interpreter& in, const Value& index);
  virtual bool setItem(Interpreter& in, const Value& index, const Value& value);

  virtual bool callable() const { return false; }
  virtual Value call(Interpreter& in, CallArgs& args);

  // `self op other` (reflected: `other op self`); nullopt when the type does not support it.
  virtual std::optional<Value> binary(Interpreter& in, BinOp op, const Value& other, bool reflected);
  virtual std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other);
  virtual std::optional<Value> unary(Interpreter& in, lang::UnaryOp op);

  virtual std::optional<int64_t> length(Interpreter& in) const;
  virtual std::unique_ptr<Iterator> iterate(Interpreter& in);
  virtual std::optional<bool> contains(Interpreter& in, const Value& item);
  // format(x, spec) for objects; nullopt when the type only supports an empty spec.
  virtual std::optional<std::string> format(Interpreter& in, const std::string& spec);
  // `self op= other` done in place (tensors, lists); nullopt falls back to `self = self op other`.
  virtual std::optional<Value> inplace(Interpreter& in, BinOp op, const Value& other);
  // The Python number this object stands for in int()/float()/range() (a one-element tensor).
  virtual std::optional<Value> number(Interpreter& in) const;
  // Dict-key identity; nullopt = hash by object identity. Unhashable types throw TypeError.
  virtual std::optional<std::string> hashKey(Interpreter& in) const;
};

template <class T, class... Args> Value makeObject(Args&&... args) {
  return Value(std::static_pointer_cast<Object>(std::make_shared<T>(std::forward<Args>(args)...)));
}

}  // namespace tilescope::host
