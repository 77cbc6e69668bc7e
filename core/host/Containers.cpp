#include "core/host/Containers.h"

#include <algorithm>

#include "core/host/FormatSpec.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/host/StringMethods.h"

namespace tilescope::host {

Value makeStr(std::string s) { return makeObject<StrObject>(std::move(s)); }
Value makeTuple(ValueList items) { return makeObject<TupleObject>(std::move(items)); }
Value makeList(ValueList items) { return makeObject<ListObject>(std::move(items)); }

int64_t normalizeIndex(Interpreter& in, const Value& index, int64_t length, const char* what) {
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

ValueList sliceOf(Interpreter& in, const ValueList& items, const SliceObject& s) {
  int64_t start = 0, stop = 0, step = 1;
  s.indices(in, static_cast<int64_t>(items.size()), start, stop, step);
  ValueList out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(items[static_cast<size_t>(i)]);
  return out;
}

std::string joinRepr(Interpreter& in, const ValueList& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += in.repr(items[i]);
  }
  return out;
}

// Lexicographic comparison of two sequences, Python's rule for lists and tuples.
std::optional<Value> compareSequences(Interpreter& in, CmpOp op, const ValueList& a, const ValueList& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && in.equals(a[i], b[i])) ++i;
  if (op == CmpOp::Eq) return Value::boolean(i == a.size() && i == b.size());
  if (op == CmpOp::Ne) return Value::boolean(!(i == a.size() && i == b.size()));
  if (i < a.size() && i < b.size()) return in.compare(op, a[i], b[i]);
  const int64_t la = static_cast<int64_t>(a.size()), lb = static_cast<int64_t>(b.size());
  return in.compare(op, Value::integer(la), Value::integer(lb));
}

ValueList repeat(Interpreter& in, const ValueList& items, const Value& times) {
  if (!times.isIntLike()) return {};
  ValueList out;
  for (int64_t k = 0; k < times.asInt(); ++k) {
    in.checkCancelled();
    out.insert(out.end(), items.begin(), items.end());
  }
  return out;
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

std::string StrObject::repr(Interpreter&) const { return pythonStrRepr(value); }

std::optional<Value> StrObject::getAttr(Interpreter& in, const std::string& name) {
  return stringMethod(in, std::static_pointer_cast<StrObject>(shared_from_this()), name);
}

std::optional<Value> StrObject::getItem(Interpreter& in, const Value& index) {
  if (auto* s = index.as<SliceObject>()) {
    int64_t start = 0, stop = 0, step = 1;
    s->indices(in, utf8Length(value), start, stop, step);
    return makeStr(utf8Slice(value, start, stop, step));
  }
  const int64_t i = normalizeIndex(in, index, utf8Length(value), "string");
  return makeStr(utf8Slice(value, i, i + 1, 1));
}

std::optional<Value> StrObject::binary(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (op == BinOp::Add) {
    if (auto* o = other.as<StrObject>()) return makeStr(reflected ? o->value + value : value + o->value);
  }
  if (op == BinOp::Mul && other.isIntLike()) {
    std::string out;
    for (int64_t k = 0; k < other.asInt(); ++k) out += value;
    return makeStr(std::move(out));
  }
  if (op == BinOp::Mod && !reflected) return percentFormat(in, value, other);
  return std::nullopt;
}

std::optional<Value> StrObject::compare(Interpreter&, CmpOp op, const Value& other) {
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

std::optional<int64_t> StrObject::length(Interpreter&) const { return utf8Length(value); }

std::unique_ptr<Iterator> StrObject::iterate(Interpreter&) {
  ValueList chars;
  for (const std::string& c : utf8Chars(value)) chars.push_back(makeStr(c));
  return std::make_unique<VectorIterator>(std::move(chars));
}

std::optional<bool> StrObject::contains(Interpreter& in, const Value& item) {
  auto* s = item.as<StrObject>();
  if (!s) throwTypeError("'in <string>' requires string as left operand, not " + item.typeName());
  (void)in;
  return value.find(s->value) != std::string::npos;
}

std::optional<std::string> StrObject::format(Interpreter&, const std::string& spec) { return formatStr(value, spec); }

// ------------------------------------------------------------------------------------------ tuple

std::string TupleObject::repr(Interpreter& in) const {
  if (isTorchSize) return "torch.Size([" + joinRepr(in, items) + "])";
  if (items.size() == 1) return "(" + in.repr(items[0]) + ",)";
  return "(" + joinRepr(in, items) + ")";
}

std::optional<Value> TupleObject::getAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<TupleObject>(shared_from_this());
  if (name == "index" || name == "count") {
    return makeBuiltin("tuple." + name, [self, name](Interpreter& in2, CallArgs& a) -> Value {
      if (a.positional.size() != 1) throwTypeError(name + "() takes exactly one argument");
      int64_t count = 0;
      for (size_t i = 0; i < self->items.size(); ++i) {
        if (in2.equals(self->items[i], a.positional[0])) {
          if (name == "index") return Value::integer(static_cast<int64_t>(i));
          ++count;
        }
      }
      if (name == "index") throwValueError("tuple.index(x): x not in tuple");
      return Value::integer(count);
    });
  }
  if (isTorchSize && name == "numel") {
    return makeBuiltin("Size.numel", [self](Interpreter&, CallArgs&) {
      int64_t n = 1;
      for (const Value& v : self->items) n *= v.asInt();
      return Value::integer(n);
    });
  }
  (void)in;
  return std::nullopt;
}

std::optional<Value> TupleObject::getItem(Interpreter& in, const Value& index) {
  if (auto* s = index.as<SliceObject>()) return makeObject<TupleObject>(sliceOf(in, items, *s), isTorchSize);
  return items[static_cast<size_t>(normalizeIndex(in, index, static_cast<int64_t>(items.size()), "tuple"))];
}

std::optional<Value> TupleObject::binary(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (op == BinOp::Add) {
    if (auto* o = other.as<TupleObject>()) {
      ValueList out = reflected ? o->items : items;
      const ValueList& tail = reflected ? items : o->items;
      out.insert(out.end(), tail.begin(), tail.end());
      return makeTuple(std::move(out));
    }
  }
  if (op == BinOp::Mul && other.isIntLike()) return makeTuple(repeat(in, items, other));
  return std::nullopt;
}

std::optional<Value> TupleObject::compare(Interpreter& in, CmpOp op, const Value& other) {
  // torch.Size compares equal to a plain tuple with the same items, and to a list never.
  auto* o = other.as<TupleObject>();
  if (!o) {
    if (op == CmpOp::Eq) return Value::boolean(false);
    if (op == CmpOp::Ne) return Value::boolean(true);
    return std::nullopt;
  }
  return compareSequences(in, op, items, o->items);
}

std::unique_ptr<Iterator> TupleObject::iterate(Interpreter&) { return std::make_unique<VectorIterator>(items); }

std::optional<bool> TupleObject::contains(Interpreter& in, const Value& item) {
  return std::any_of(items.begin(), items.end(), [&](const Value& v) { return in.equals(v, item); });
}

// ------------------------------------------------------------------------------------------ list

std::string ListObject::repr(Interpreter& in) const { return "[" + joinRepr(in, items) + "]"; }

std::optional<Value> ListObject::getAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<ListObject>(shared_from_this());
  (void)in;
  if (name == "append")
    return makeBuiltin("list.append", "object", [self](Interpreter&, ValueList& a) {
      self->items.push_back(a[0]);
      return Value();
    });
  if (name == "extend")
    return makeBuiltin("list.extend", "iterable", [self](Interpreter& in2, ValueList& a) {
      ValueList more = in2.toList(a[0]);
      self->items.insert(self->items.end(), more.begin(), more.end());
      return Value();
    });
  if (name == "insert")
    return makeBuiltin("list.insert", "index, object", [self](Interpreter& in2, ValueList& a) {
      int64_t i = in2.toIndex(a[0], "list");
      const int64_t n = static_cast<int64_t>(self->items.size());
      if (i < 0) i = std::max<int64_t>(0, i + n);
      i = std::min(i, n);
      self->items.insert(self->items.begin() + i, a[1]);
      return Value();
    });
  if (name == "pop")
    return makeBuiltin("list.pop", "index=-1", [self](Interpreter& in2, ValueList& a) {
      if (self->items.empty()) throwError("IndexError", "pop from empty list");
      const int64_t i = normalizeIndex(in2, a[0], static_cast<int64_t>(self->items.size()), "pop");
      Value v = self->items[static_cast<size_t>(i)];
      self->items.erase(self->items.begin() + i);
      return v;
    });
  if (name == "index" || name == "count" || name == "remove") {
    return makeBuiltin("list." + name, "value", [self, name](Interpreter& in2, ValueList& a) -> Value {
      int64_t count = 0;
      for (size_t i = 0; i < self->items.size(); ++i) {
        if (!in2.equals(self->items[i], a[0])) continue;
        if (name == "index") return Value::integer(static_cast<int64_t>(i));
        if (name == "remove") {
          self->items.erase(self->items.begin() + static_cast<int64_t>(i));
          return Value();
        }
        ++count;
      }
      if (name == "index") throwValueError(in2.repr(a[0]) + " is not in list");
      if (name == "remove") throwValueError("list.remove(x): x not in list");
      return Value::integer(count);
    });
  }
  if (name == "clear")
    return makeBuiltin("list.clear", "", [self](Interpreter&, ValueList&) {
      self->items.clear();
      return Value();
    });
  if (name == "copy")
    return makeBuiltin("list.copy", "", [self](Interpreter&, ValueList&) { return makeList(self->items); });
  if (name == "reverse")
    return makeBuiltin("list.reverse", "", [self](Interpreter&, ValueList&) {
      std::reverse(self->items.begin(), self->items.end());
      return Value();
    });
  if (name == "sort")
    return makeBuiltin("list.sort", "*, key=None, reverse=False", [self](Interpreter& in2, ValueList& a) {
      CallArgs args(ValueList{makeList(self->items)});
      args.keywords = {{"key", a[0]}, {"reverse", a[1]}};
      self->items = in2.call(*in2.lookupBuiltin("sorted"), args).as<ListObject>()->items;
      return Value();
    });
  return std::nullopt;
}

std::optional<Value> ListObject::getItem(Interpreter& in, const Value& index) {
  if (auto* s = index.as<SliceObject>()) return makeList(sliceOf(in, items, *s));
  return items[static_cast<size_t>(normalizeIndex(in, index, static_cast<int64_t>(items.size()), "list"))];
}

bool ListObject::setItem(Interpreter& in, const Value& index, const Value& value) {
  if (auto* s = index.as<SliceObject>()) {
    int64_t start = 0, stop = 0, step = 1;
    s->indices(in, static_cast<int64_t>(items.size()), start, stop, step);
    if (step != 1) throwValueError("extended slice assignment is not supported by tilescope");
    ValueList repl = in.toList(value);
    stop = std::max(stop, start);
    items.erase(items.begin() + start, items.begin() + stop);
    items.insert(items.begin() + start, repl.begin(), repl.end());
    return true;
  }
  const int64_t i = normalizeIndex(in, index, static_cast<int64_t>(items.size()), "list assignment");
  items[static_cast<size_t>(i)] = value;
  return true;
}

std::optional<Value> ListObject::binary(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (op == BinOp::Add && !reflected) {
    if (auto* o = other.as<ListObject>()) {
      ValueList out = items;
      out.insert(out.end(), o->items.begin(), o->items.end());
      return makeList(std::move(out));
    }
  }
  if (op == BinOp::Mul && other.isIntLike()) return makeList(repeat(in, items, other));
  return std::nullopt;
}

std::optional<Value> ListObject::compare(Interpreter& in, CmpOp op, const Value& other) {
  auto* o = other.as<ListObject>();
  if (!o) {
    if (op == CmpOp::Eq) return Value::boolean(false);
    if (op == CmpOp::Ne) return Value::boolean(true);
    return std::nullopt;
  }
  return compareSequences(in, op, items, o->items);
}

std::optional<Value> ListObject::inplace(Interpreter& in, BinOp op, const Value& other) {
  // `l += iterable` extends the list itself (other names for it see the change).
  if (op != BinOp::Add) return std::nullopt;
  ValueList more = in.toList(other);
  items.insert(items.end(), more.begin(), more.end());
  return Value(shared_from_this());
}

std::unique_ptr<Iterator> ListObject::iterate(Interpreter&) { return std::make_unique<VectorIterator>(items); }

std::optional<bool> ListObject::contains(Interpreter& in, const Value& item) {
  return std::any_of(items.begin(), items.end(), [&](const Value& v) { return in.equals(v, item); });
}

// ------------------------------------------------------------------------------------------ dict

std::string DictObject::repr(Interpreter& in) const {
  std::string out = "{";
  bool first = true;
  for (const Entry& e : entries_) {
    if (!e.live) continue;
    if (!first) out += ", ";
    first = false;
    out += in.repr(e.key) + ": " + in.repr(e.value);
  }
  return out + "}";
}

const Value* DictObject::find(Interpreter& in, const Value& key) const {
  auto it = index_.find(in.hashKey(key));
  return it == index_.end() ? nullptr : &entries_[it->second].value;
}

void DictObject::set(Interpreter& in, const Value& key, const Value& value) {
  const std::string k = in.hashKey(key);
  auto it = index_.find(k);
  if (it != index_.end()) {
    entries_[it->second].value = value;
    return;
  }
  index_[k] = entries_.size();
  entries_.push_back(Entry{key, value, true});
}

bool DictObject::erase(Interpreter& in, const Value& key) {
  auto it = index_.find(in.hashKey(key));
  if (it == index_.end()) return false;
  entries_[it->second].live = false;
  entries_[it->second].key = Value();
  entries_[it->second].value = Value();
  index_.erase(it);
  return true;
}

std::vector<std::pair<Value, Value>> DictObject::entries() const {
  std::vector<std::pair<Value, Value>> out;
  out.reserve(index_.size());
  for (const Entry& e : entries_)
    if (e.live) out.emplace_back(e.key, e.value);
  return out;
}

std::optional<Value> DictObject::getAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<DictObject>(shared_from_this());
  if (name == "get")
    return makeBuiltin("dict.get", "key, default=None", [self](Interpreter& in, ValueList& a) {
      const Value* v = self->find(in, a[0]);
      return v ? *v : a[1];
    });
  if (name == "items" || name == "keys" || name == "values") {
    return makeBuiltin("dict." + name, "", [self, name](Interpreter&, ValueList&) {
      ValueList out;
      for (auto& [k, v] : self->entries()) {
        if (name == "items") out.push_back(makeTuple({k, v}));
        else out.push_back(name == "keys" ? k : v);
      }
      return makeList(std::move(out));  // a list stands in for the view objects
    });
  }
  if (name == "pop")
    return makeBuiltin("dict.pop", "key, *default", [self](Interpreter& in, ValueList& a) {
      const Value* v = self->find(in, a[0]);
      auto* defaults = a[1].as<TupleObject>();
      if (!v) {
        if (defaults && !defaults->items.empty()) return defaults->items[0];
        throwError("KeyError", in.repr(a[0]));
      }
      Value out = *v;
      self->erase(in, a[0]);
      return out;
    });
  if (name == "setdefault")
    return makeBuiltin("dict.setdefault", "key, default=None", [self](Interpreter& in, ValueList& a) {
      if (const Value* v = self->find(in, a[0])) return *v;
      self->set(in, a[0], a[1]);
      return a[1];
    });
  if (name == "update")
    return makeBuiltin("dict.update", "other=None, **kwargs", [self](Interpreter& in, ValueList& a) {
      if (auto* d = a[0].as<DictObject>())
        for (auto& [k, v] : d->entries()) self->set(in, k, v);
      for (auto& [k, v] : a[1].as<DictObject>()->entries()) self->set(in, k, v);
      return Value();
    });
  if (name == "copy")
    return makeBuiltin("dict.copy", "", [self](Interpreter& in, ValueList&) {
      auto copy = std::make_shared<DictObject>();
      for (auto& [k, v] : self->entries()) copy->set(in, k, v);
      return Value(copy);
    });
  return std::nullopt;
}

std::optional<Value> DictObject::getItem(Interpreter& in, const Value& index) {
  if (const Value* v = find(in, index)) return *v;
  throwError("KeyError", in.repr(index));
}

bool DictObject::setItem(Interpreter& in, const Value& index, const Value& value) {
  set(in, index, value);
  return true;
}

std::optional<Value> DictObject::compare(Interpreter& in, CmpOp op, const Value& other) {
  auto* o = other.as<DictObject>();
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  bool equal = o && o->size() == size();
  if (equal) {
    for (auto& [k, v] : entries()) {
      const Value* ov = o->find(in, k);
      if (!ov || !in.equals(v, *ov)) {
        equal = false;
        break;
      }
    }
  }
  return Value::boolean(op == CmpOp::Eq ? equal : !equal);
}

std::unique_ptr<Iterator> DictObject::iterate(Interpreter&) {
  ValueList keys;
  for (auto& [k, v] : entries()) keys.push_back(k);
  return std::make_unique<VectorIterator>(std::move(keys));
}

std::optional<bool> DictObject::contains(Interpreter& in, const Value& item) { return find(in, item) != nullptr; }

// ------------------------------------------------------------------------------------------ range

namespace {
class RangeIterator : public Iterator {
public:
  RangeIterator(int64_t start, int64_t stop, int64_t step) : cur_(start), stop_(stop), step_(step) {}
  bool next(Value& out) override {
    if (step_ > 0 ? cur_ >= stop_ : cur_ <= stop_) return false;
    out = Value::integer(cur_);
    cur_ += step_;
    return true;
  }

private:
  int64_t cur_, stop_, step_;
};
}  // namespace

std::string RangeObject::repr(Interpreter&) const {
  std::string out = "range(" + std::to_string(start) + ", " + std::to_string(stop);
  if (step != 1) out += ", " + std::to_string(step);
  return out + ")";
}

std::optional<int64_t> RangeObject::length(Interpreter&) const {
  if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

std::optional<Value> RangeObject::getItem(Interpreter& in, const Value& index) {
  const int64_t n = *length(in);
  if (auto* s = index.as<SliceObject>()) {
    int64_t a = 0, b = 0, st = 1;
    s->indices(in, n, a, b, st);
    return makeObject<RangeObject>(start + a * step, start + b * step, step * st);
  }
  return Value::integer(start + normalizeIndex(in, index, n, "range object") * step);
}

std::unique_ptr<Iterator> RangeObject::iterate(Interpreter&) { return std::make_unique<RangeIterator>(start, stop, step); }

std::optional<bool> RangeObject::contains(Interpreter& in, const Value& item) {
  if (!item.isIntLike()) return false;
  const int64_t v = item.asInt();
  if (step > 0 ? (v < start || v >= stop) : (v > start || v <= stop)) return false;
  (void)in;
  return (v - start) % step == 0;
}

// ------------------------------------------------------------------------------------------ slice

std::string SliceObject::repr(Interpreter& in) const {
  return "slice(" + in.repr(lower) + ", " + in.repr(upper) + ", " + in.repr(step) + ")";
}

void SliceObject::indices(Interpreter& in, int64_t length, int64_t& start, int64_t& stop, int64_t& stepOut) const {
  stepOut = step.isNone() ? 1 : in.toIndex(step, "slice");
  if (stepOut == 0) throwValueError("slice step cannot be zero");
  auto clamp = [&](const Value& v, int64_t dflt) {
    if (v.isNone()) return dflt;
    int64_t i = in.toIndex(v, "slice");
    if (i < 0) i += length;
    if (stepOut > 0) return std::clamp<int64_t>(i, 0, length);
    return std::clamp<int64_t>(i, -1, length - 1);
  };
  start = clamp(lower, stepOut > 0 ? 0 : length - 1);
  stop = clamp(upper, stepOut > 0 ? length : -1);
}

// ------------------------------------------------------------------------------------------ namespace

std::string NamespaceObject::repr(Interpreter&) const { return "<" + kind + " '" + name + "'>"; }

std::optional<Value> NamespaceObject::getAttr(Interpreter&, const std::string& attr) {
  auto it = attrs.find(attr);
  if (it == attrs.end()) return std::nullopt;
  return it->second;
}

bool NamespaceObject::setAttr(Interpreter&, const std::string& attr, const Value& value) {
  attrs[attr] = value;
  return true;
}

}  // namespace tilescope::host
