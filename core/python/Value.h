#pragma once
// A value of the launch path: a kernel launch's arguments and grid (converted from Python by
// core/python), and what launches hand back to Python (kernel.cache, a compiled kernel's figures, the
// tiles a kernel passes to host functions). None, bool, int and float are held inline; everything else
// is a reference-counted Object.
//
// Object subclasses decide their own behaviour through the virtual hooks below (attributes, items,
// calls, comparisons, iteration); LaunchContext dispatches to them and raises Python's TypeError when
// a hook says "not supported" (returns nullopt / false).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilescope::host {

class LaunchContext;
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

enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
std::string_view cmpOpSymbol(CmpOp op);

class Iterator {
public:
  virtual ~Iterator() = default;
  virtual bool next(Value& out) = 0;
};

class Object : public std::enable_shared_from_this<Object> {
public:
  virtual ~Object() = default;
  virtual std::string typeName() const = 0;

  virtual std::string repr(LaunchContext& in) const;
  virtual std::string str(LaunchContext& in) const { return repr(in); }
  virtual bool truthy(LaunchContext& in) const;

  virtual std::optional<Value> getAttr(LaunchContext& in, const std::string& name);
  virtual std::optional<Value> getItem(LaunchContext& in, const Value& index);

  virtual bool callable() const { return false; }
  virtual Value call(LaunchContext& in, CallArgs& args);

  // `self op other`; nullopt when the type does not support it.
  virtual std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other);

  virtual std::optional<int64_t> length(LaunchContext& in) const;
  virtual std::unique_ptr<Iterator> iterate(LaunchContext& in);
  // The Python number this object stands for in int() and float() (a one-element tensor or tile).
  virtual std::optional<Value> number(LaunchContext& in) const;
  // Dict-key identity; nullopt = hash by object identity. Unhashable types throw TypeError.
  virtual std::optional<std::string> hashKey(LaunchContext& in) const;
};

template <class T, class... Args> Value makeObject(Args&&... args) {
  return Value(std::static_pointer_cast<Object>(std::make_shared<T>(std::forward<Args>(args)...)));
}

}  // namespace tilescope::host
