#pragma once
// Python's built-in container objects: str, tuple (also torch.Size), list, dict, range, slice, and
// the module namespaces (torch, triton, math, ...).
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "core/host/Value.h"

namespace tilescope::host {

class StrObject : public Object {
public:
  explicit StrObject(std::string v) : value(std::move(v)) {}
  std::string typeName() const override { return "str"; }
  std::string repr(Interpreter& in) const override;
  std::string str(Interpreter&) const override { return value; }
  bool truthy(Interpreter&) const override { return !value.empty(); }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  std::optional<Value> binary(Interpreter& in, BinOp op, const Value& other, bool reflected) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<int64_t> length(Interpreter&) const override;
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;
  std::optional<std::string> format(Interpreter& in, const std::string& spec) override;

  std::string value;  // UTF-8; len() and indexing count code points
};

// Python's repr of a str: 'text' with escapes, or "text" when it holds a single quote only.
std::string pythonStrRepr(const std::string& s);

// tuple; torch.Size is a tuple whose repr is "torch.Size([2, 3])".
class TupleObject : public Object {
public:
  explicit TupleObject(ValueList items, bool torchSize = false) : items(std::move(items)), isTorchSize(torchSize) {}
  std::string typeName() const override { return isTorchSize ? "Size" : "tuple"; }
  std::string repr(Interpreter& in) const override;
  bool truthy(Interpreter&) const override { return !items.empty(); }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  std::optional<Value> binary(Interpreter& in, BinOp op, const Value& other, bool reflected) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<int64_t> length(Interpreter&) const override { return static_cast<int64_t>(items.size()); }
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;

  ValueList items;
  bool isTorchSize = false;
};

class ListObject : public Object {
public:
  explicit ListObject(ValueList items = {}) : items(std::move(items)) {}
  std::string typeName() const override { return "list"; }
  std::string repr(Interpreter& in) const override;
  bool truthy(Interpreter&) const override { return !items.empty(); }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  bool setItem(Interpreter& in, const Value& index, const Value& value) override;
  std::optional<Value> binary(Interpreter& in, BinOp op, const Value& other, bool reflected) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<Value> inplace(Interpreter& in, BinOp op, const Value& other) override;
  std::optional<int64_t> length(Interpreter&) const override { return static_cast<int64_t>(items.size()); }
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;

  ValueList items;
};

// Insertion-ordered like Python's dict. Keys are indexed by Interpreter::hashKey.
class DictObject : public Object {
public:
  std::string typeName() const override { return "dict"; }
  std::string repr(Interpreter& in) const override;
  bool truthy(Interpreter&) const override { return size() != 0; }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  bool setItem(Interpreter& in, const Value& index, const Value& value) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<int64_t> length(Interpreter&) const override { return static_cast<int64_t>(size()); }
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;

  const Value* find(Interpreter& in, const Value& key) const;
  void set(Interpreter& in, const Value& key, const Value& value);
  bool erase(Interpreter& in, const Value& key);
  size_t size() const { return index_.size(); }
  // Live entries in insertion order.
  std::vector<std::pair<Value, Value>> entries() const;

private:
  struct Entry {
    Value key;
    Value value;
    bool live = true;
  };
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;
};

class RangeObject : public Object {
public:
  RangeObject(int64_t start, int64_t stop, int64_t step) : start(start), stop(stop), step(step) {}
  std::string typeName() const override { return "range"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  std::optional<int64_t> length(Interpreter&) const override;
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;

  int64_t start, stop, step;
};

// `a:b:c` inside a subscript (each part None when omitted).
class SliceObject : public Object {
public:
  SliceObject(Value lower, Value upper, Value step) : lower(std::move(lower)), upper(std::move(upper)), step(std::move(step)) {}
  std::string typeName() const override { return "slice"; }
  std::string repr(Interpreter& in) const override;

  // Python's slice.indices(length): clamped start, stop and the step (ValueError for step 0).
  void indices(Interpreter& in, int64_t length, int64_t& start, int64_t& stop, int64_t& stepOut) const;

  Value lower, upper, step;
};

// A module (torch, math, triton.language, ...) or any other plain attribute namespace.
class NamespaceObject : public Object {
public:
  explicit NamespaceObject(std::string name, std::string kind = "module") : name(std::move(name)), kind(std::move(kind)) {}
  std::string typeName() const override { return kind; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& attr) override;
  bool setAttr(Interpreter& in, const std::string& attr, const Value& value) override;

  std::string name;
  std::string kind;
  std::map<std::string, Value> attrs;
};

Value makeStr(std::string s);
Value makeTuple(ValueList items);
Value makeList(ValueList items);
// Resolves a possibly negative index of a sequence of `length`; IndexError "<what> index out of range".
int64_t normalizeIndex(Interpreter& in, const Value& index, int64_t length, const char* what);

}  // namespace tilescope::host
