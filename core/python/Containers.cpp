#include "core/python/Containers.h"

#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"

namespace tilescope::host {

Value makeStr(std::string s) { return makeObject<StrObject>(std::move(s)); }
Value makeTuple(ValueList items) { return makeObject<TupleObject>(std::move(items)); }
Value makeList(ValueList items) { return makeObject<ListObject>(std::move(items)); }

int64_t normalizeIndex(LaunchContext& in, const Value& index, int64_t length, const char* what) {
  int64_t i = in.toIndex(index, what);
  if (i < 0) i += length;
  if (i < 0 || i >= length) throwError("IndexError", std::string(what) + " index out of range");
  return i;
}

namespace {

class VectorIterator : public Iterator {
public:
  explicit VectorIterator(ValueList items) : items_(std::move(items)) {}
  bool next(Value& out) override {
    if (pos_ >= items_.size()) return false;
    out = items_[pos_++];
    return true;
  }

private:
  ValueList items_;
  size_t pos_ = 0;
};

std::string joinRepr(LaunchContext& in, const ValueList& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += in.repr(items[i]);
  }
  return out;
}

// Lexicographic comparison of two sequences, Python's rule for lists and tuples.
std::optional<Value> compareSequences(LaunchContext& in, CmpOp op, const ValueList& a, const ValueList& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && in.equals(a[i], b[i])) ++i;
  if (op == CmpOp::Eq) return Value::boolean(i == a.size() && i == b.size());
  if (op == CmpOp::Ne) return Value::boolean(!(i == a.size() && i == b.size()));
  if (i < a.size() && i < b.size()) return in.compare(op, a[i], b[i]);
  const int64_t la = static_cast<int64_t>(a.size()), lb = static_cast<int64_t>(b.size());
  return in.compare(op, Value::integer(la), Value::integer(lb));
}

}  // namespace

// ------------------------------------------------------------------------------------------ str

std::string pythonStrRepr(const std::string& s) {
  const bool hasSingle = s.find('\'') != std::string::npos;
  const bool hasDouble = s.find('"') != std::string::npos;
  const char quote = hasSingle && !hasDouble ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c == static_cast<unsigned char>(quote)) {
          out += '\\';
          out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
          static const char* hex = "0123456789abcdef";
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += quote;
  return out;
}

std::string StrObject::repr(LaunchContext&) const { return pythonStrRepr(value); }

std::optional<Value> StrObject::compare(LaunchContext&, CmpOp op, const Value& other) {
  auto* o = other.as<StrObject>();
  if (!o) {
    if (op == CmpOp::Eq) return Value::boolean(false);
    if (op == CmpOp::Ne) return Value::boolean(true);
    return std::nullopt;
  }
  const int c = value.compare(o->value);
  switch (op) {
    case CmpOp::Eq: return Value::boolean(c == 0);
    case CmpOp::Ne: return Value::boolean(c != 0);
    case CmpOp::Lt: return Value::boolean(c < 0);
    case CmpOp::Le: return Value::boolean(c <= 0);
    case CmpOp::Gt: return Value::boolean(c > 0);
    case CmpOp::Ge: return Value::boolean(c >= 0);
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------ tuple, list

std::optional<Value> SequenceObject::getItem(LaunchContext& in, const Value& index) {
  return items[static_cast<size_t>(normalizeIndex(in, index, static_cast<int64_t>(items.size()), typeName().c_str()))];
}

std::optional<Value> SequenceObject::compare(LaunchContext& in, CmpOp op, const Value& other) {
  auto* o = other.as<SequenceObject>();
  if (!o || o->typeName() != typeName()) {
    if (op == CmpOp::Eq) return Value::boolean(false);
    if (op == CmpOp::Ne) return Value::boolean(true);
    return std::nullopt;
  }
  return compareSequences(in, op, items, o->items);
}

std::unique_ptr<Iterator> SequenceObject::iterate(LaunchContext&) { return std::make_unique<VectorIterator>(items); }

std::string TupleObject::repr(LaunchContext& in) const {
  if (items.size() == 1) return "(" + in.repr(items[0]) + ",)";
  return "(" + joinRepr(in, items) + ")";
}

std::string ListObject::repr(LaunchContext& in) const { return "[" + joinRepr(in, items) + "]"; }

// ------------------------------------------------------------------------------------------ dict

std::string DictObject::repr(LaunchContext& in) const {
  std::string out = "{";
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (i) out += ", ";
    out += in.repr(entries_[i].first) + ": " + in.repr(entries_[i].second);
  }
  return out + "}";
}

const Value* DictObject::find(LaunchContext& in, const Value& key) const {
  auto it = index_.find(in.hashKey(key));
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

void DictObject::set(LaunchContext& in, const Value& key, const Value& value) {
  const std::string k = in.hashKey(key);
  auto it = index_.find(k);
  if (it != index_.end()) {
    entries_[it->second].second = value;
    return;
  }
  index_[k] = entries_.size();
  entries_.emplace_back(key, value);
}

std::vector<std::pair<Value, Value>> DictObject::entries() const { return entries_; }

std::optional<Value> DictObject::getItem(LaunchContext& in, const Value& index) {
  if (const Value* v = find(in, index)) return *v;
  throwError("KeyError", in.repr(index));
}

std::unique_ptr<Iterator> DictObject::iterate(LaunchContext&) {
  ValueList keys;
  for (const auto& [k, v] : entries_) keys.push_back(k);
  return std::make_unique<VectorIterator>(std::move(keys));
}

// ------------------------------------------------------------------------------------------ namespace

std::string NamespaceObject::repr(LaunchContext&) const { return "<" + kind + " '" + name + "'>"; }

std::optional<Value> NamespaceObject::getAttr(LaunchContext&, const std::string& attr) {
  auto it = attrs.find(attr);
  if (it == attrs.end()) return std::nullopt;
  return it->second;
}

}  // namespace tilescope::host
