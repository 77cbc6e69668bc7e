#include "core/host/TorchConvert.h"

#include "core/host/Builtins.h"
#include "core/host/Containers.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/host/TensorObject.h"

namespace tilescope::host {

Value makeTensor(Tensor t) { return makeObject<TensorObject>(std::move(t)); }

const Tensor* tensorOf(const Value& v) {
  auto* t = v.as<TensorObject>();
  return t ? &t->tensor : nullptr;
}

const Tensor& requireTensor(const Value& v, const char* what) {
  if (const Tensor* t = tensorOf(v)) return *t;
  throwTypeError(std::string(what) + " must be Tensor, not " + v.typeName());
}

Value scalarToValue(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return Value::boolean(s.toBool());
    case Scalar::Kind::Int: return Value::integer(s.toInt());
    case Scalar::Kind::Float: return Value::real(s.toDouble());
  }
  return Value();
}

std::optional<Scalar> valueToScalar(const Value& v) {
  if (v.isBool()) return Scalar(v.asBool());
  if (v.isInt()) return Scalar(v.asInt());
  if (v.isFloat()) return Scalar(v.asFloat());
  return std::nullopt;
}

Scalar requireScalar(Interpreter& in, const Value& v, const std::string& what) {
  if (auto s = valueToScalar(v)) return *s;
  if (v.isObject())
    if (auto n = v.object()->number(in))
      if (auto s = valueToScalar(*n)) return *s;
  throwTypeError(what + " must be a number, not " + v.typeName());
}

std::optional<TensorOrScalar> toOperand(const Value& v) {
  if (const Tensor* t = tensorOf(v)) return TensorOrScalar(*t);
  if (auto s = valueToScalar(v)) return TensorOrScalar(*s);
  return std::nullopt;
}

Value nestedToValue(const NestedValue& n) {
  if (!n.isList()) return scalarToValue(n.scalar());
  ValueList items;
  for (const NestedValue& item : n.list()) items.push_back(nestedToValue(item));
  return makeList(std::move(items));
}

NestedValue valueToNested(Interpreter& in, const Value& v) {
  if (auto s = valueToScalar(v)) return NestedValue{*s};
  if (const Tensor* t = tensorOf(v)) return t->tolist();
  if (v.is<ListObject>() || v.is<TupleObject>()) {
    std::vector<NestedValue> items;
    for (const Value& item : in.toList(v)) items.push_back(valueToNested(in, item));
    return NestedValue{std::move(items)};
  }
  throwTypeError("new(): invalid data type '" + v.typeName() + "'");
}

std::vector<int64_t> toIntList(Interpreter& in, const Value& v, const std::string& what) {
  std::vector<int64_t> out;
  if (v.isIntLike()) return {v.asInt()};
  if (!v.is<ListObject>() && !v.is<TupleObject>()) {
    throwTypeError(what + " must be tuple of ints, not " + v.typeName());
  }
  for (const Value& item : in.toList(v)) {
    if (item.isFloat()) throwTypeError(what + " must be tuple of ints, but found element of type float");
    out.push_back(in.toIndex(item, what.c_str()));
  }
  return out;
}

Shape toShape(Interpreter& in, const Value& v, const std::string& what) { return toIntList(in, v, what); }

Shape toShape(Interpreter& in, const ValueList& args, const std::string& what) {
  if (args.size() == 1 && !args[0].isIntLike()) return toShape(in, args[0], what);
  Shape out;
  for (const Value& a : args) {
    if (!a.isIntLike() && !(a.isObject() && a.object()->number(in))) {
      throwTypeError(what + "(): argument 'size' must be tuple of ints, but found element of type " + a.typeName());
    }
    out.push_back(in.toIndex(a, what.c_str()));
  }
  return out;
}

std::optional<DType> toDType(const Value& v) {
  if (auto* d = v.as<DTypeObject>()) return d->dtype;
  return std::nullopt;
}

DType requireDType(const Value& v, const std::string& what) {
  if (auto d = toDType(v)) return *d;
  throwTypeError(what + " must be torch.dtype, not " + v.typeName());
}

std::optional<Device> toDevice(Interpreter& in, const Value& v) {
  if (v.isNone()) return std::nullopt;
  if (auto* d = v.as<DeviceObject>()) return d->device;
  if (auto* s = v.as<StrObject>()) return Device::parse(s->value);
  if (v.isIntLike()) return Device(Device::Type::CUDA, static_cast<int>(v.asInt()));
  (void)in;
  throwTypeError("device must be a str or torch.device, not " + v.typeName());
}

TensorOptions toOptions(Interpreter& in, const Value& dtype, const Value& device) {
  TensorOptions o;
  if (!dtype.isNone()) o.dtype = requireDType(dtype, "dtype");
  o.device = toDevice(in, device);
  return o;
}

std::vector<TensorIndex> toIndices(Interpreter& in, const Value& index) {
  ValueList parts = index.is<TupleObject>() ? index.as<TupleObject>()->items : ValueList{index};
  std::vector<TensorIndex> out;
  for (const Value& p : parts) {
    if (p.isBool()) out.emplace_back(p.asBool());
    else if (p.isInt()) out.emplace_back(p.asInt());
    else if (p.isNone()) out.emplace_back(NewAxis{});
    else if (p.is<EllipsisObject>()) out.emplace_back(EllipsisIndex{});
    else if (auto* s = p.as<SliceObject>()) {
      Slice sl;
      if (!s->lower.isNone()) sl.start = in.toIndex(s->lower, "slice");
      if (!s->upper.isNone()) sl.stop = in.toIndex(s->upper, "slice");
      if (!s->step.isNone()) sl.step = in.toIndex(s->step, "slice");
      out.emplace_back(sl);
    } else if (const Tensor* t = tensorOf(p)) {
      out.emplace_back(*t);
    } else if (p.is<ListObject>()) {
      out.emplace_back(tensor(valueToNested(in, p)));
    } else {
      throw PyError("IndexError", "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " +
                                      p.typeName() + ")");
    }
  }
  return out;
}

Value makeDType(DType t) { return makeObject<DTypeObject>(t); }
Value makeDevice(const Device& d) { return makeObject<DeviceObject>(d); }

}  // namespace tilescope::host
