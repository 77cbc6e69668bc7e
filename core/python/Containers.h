#pragma once
// The containers among the launch values: str, tuple, list, dict (the grid function's meta-parameters,
// kernel.cache, a compiled kernel's asm) and plain attribute namespaces (a compiled kernel's metadata).
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "core/python/Value.h"

namespace tilescope::host {

class StrObject : public Object {
public:
  explicit StrObject(std::string v) : value(std::move(v)) {}
  std::string typeName() const override { return "str"; }
  std::string repr(LaunchContext& in) const override;
  std::string str(LaunchContext&) const override { return value; }
  bool truthy(LaunchContext&) const override { return !value.empty(); }
  std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other) override;

  std::string value;  // UTF-8
};

// Python's repr of a str: 'text' with escapes, or "text" when it holds a single quote only.
std::string pythonStrRepr(const std::string& s);

// What tuple and list share: an ordered run of values, indexed, iterated and compared in order
// (a tuple equals no list, as in Python).
class SequenceObject : public Object {
public:
  explicit SequenceObject(ValueList items) : items(std::move(items)) {}
  bool truthy(LaunchContext&) const override { return !items.empty(); }
  std::optional<Value> getItem(LaunchContext& in, const Value& index) override;
  std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other) override;
  std::optional<int64_t> length(LaunchContext&) const override { return static_cast<int64_t>(items.size()); }
  std::unique_ptr<Iterator> iterate(LaunchContext& in) override;

  ValueList items;
};

class TupleObject : public SequenceObject {
public:
  explicit TupleObject(ValueList items) : SequenceObject(std::move(items)) {}
  std::string typeName() const override { return "tuple"; }
  std::string repr(LaunchContext& in) const override;
};

class ListObject : public SequenceObject {
public:
  explicit ListObject(ValueList items = {}) : SequenceObject(std::move(items)) {}
  std::string typeName() const override { return "list"; }
  std::string repr(LaunchContext& in) const override;
};

// Insertion-ordered like Python's dict. Keys are indexed by LaunchContext::hashKey.
class DictObject : public Object {
public:
  std::string typeName() const override { return "dict"; }
  std::string repr(LaunchContext& in) const override;
  bool truthy(LaunchContext&) const override { return size() != 0; }
  std::optional<Value> getItem(LaunchContext& in, const Value& index) override;
  std::optional<int64_t> length(LaunchContext&) const override { return static_cast<int64_t>(size()); }
  std::unique_ptr<Iterator> iterate(LaunchContext& in) override;

  const Value* find(LaunchContext& in, const Value& key) const;
  void set(LaunchContext& in, const Value& key, const Value& value);
  size_t size() const { return index_.size(); }
  // Entries in insertion order.
  std::vector<std::pair<Value, Value>> entries() const;

private:
  std::vector<std::pair<Value, Value>> entries_;
  std::unordered_map<std::string, size_t> index_;
};

// A plain attribute namespace (types.SimpleNamespace on the Python side).
class NamespaceObject : public Object {
public:
  explicit NamespaceObject(std::string name, std::string kind = "namespace") : name(std::move(name)), kind(std::move(kind)) {}
  std::string typeName() const override { return kind; }
  std::string repr(LaunchContext& in) const override;
  std::optional<Value> getAttr(LaunchContext& in, const std::string& attr) override;

  std::string name;
  std::string kind;
  std::map<std::string, Value> attrs;
};

Value makeStr(std::string s);
Value makeTuple(ValueList items);
Value makeList(ValueList items);
// Resolves a possibly negative index of a sequence of `length`; IndexError "<what> index out of range".
int64_t normalizeIndex(LaunchContext& in, const Value& index, int64_t length, const char* what);

}  // namespace tilescope::host
