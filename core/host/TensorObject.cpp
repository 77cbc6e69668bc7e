#include "core/host/TensorObject.h"

#include "core/host/AddressBook.h"
#include "core/host/Function.h"
#include "core/host/GpuMatmul.h"
#include "core/host/Interpreter.h"
#include "core/host/PyError.h"
#include "core/tensor/TensorCompare.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorNN.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TensorReduce.h"
#include "core/host/TorchConvert.h"
#include "core/host/TorchModule.h"
#include "core/tensor/TorchRandom.h"

namespace tilescope::host {

namespace {

std::optional<host::BinaryOp> tensorOp(BinOp op) {
  switch (op) {
    case BinOp::Add: return host::BinaryOp::Add;
    case BinOp::Sub: return host::BinaryOp::Sub;
    case BinOp::Mul: return host::BinaryOp::Mul;
    case BinOp::Div: return host::BinaryOp::Div;
    case BinOp::FloorDiv: return host::BinaryOp::FloorDiv;
    case BinOp::Mod: return host::BinaryOp::Mod;
    case BinOp::Pow: return host::BinaryOp::Pow;
    case BinOp::And: return host::BinaryOp::BitAnd;
    case BinOp::Or: return host::BinaryOp::BitOr;
    case BinOp::Xor: return host::BinaryOp::BitXor;
    default: return std::nullopt;
  }
}

host::BinaryOp tensorCmp(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return host::BinaryOp::Eq;
    case CmpOp::Ne: return host::BinaryOp::Ne;
    case CmpOp::Lt: return host::BinaryOp::Lt;
    case CmpOp::Le: return host::BinaryOp::Le;
    case CmpOp::Gt: return host::BinaryOp::Gt;
    case CmpOp::Ge: return host::BinaryOp::Ge;
  }
  return host::BinaryOp::Eq;
}

// `dims` as the methods take them: nothing, one int, a tuple/list, or several ints.
std::vector<int64_t> dimsArg(Interpreter& in, const ValueList& args, const std::string& what) {
  if (args.size() == 1) return toIntList(in, args[0], what);
  std::vector<int64_t> out;
  for (const Value& a : args) out.push_back(in.toIndex(a, what.c_str()));
  return out;
}

class RowIterator : public Iterator {
public:
  explicit RowIterator(Tensor t) : t_(std::move(t)) {}
  bool next(Value& out) override {
    if (i_ >= t_.size(0)) return false;
    out = makeTensor(t_.select(0, i_++));
    return true;
  }

private:
  Tensor t_;
  int64_t i_ = 0;
};

}  // namespace

// ------------------------------------------------------------------------------ protocol

std::string TensorObject::repr(Interpreter&) const { return toString(tensor); }

bool TensorObject::truthy(Interpreter&) const {
  if (tensor.numel() != 1) {
    if (tensor.numel() == 0) throw PyError("RuntimeError", "Boolean value of Tensor with no values is ambiguous");
    throw PyError("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous");
  }
  return tensor.item().toBool();
}

std::optional<Value> TensorObject::number(Interpreter&) const {
  if (tensor.numel() != 1) return std::nullopt;
  return scalarToValue(tensor.item());
}

std::optional<Value> TensorObject::getItem(Interpreter& in, const Value& index) {
  const std::vector<TensorIndex> idx = toIndices(in, index);
  return makeTensor(host::getItem(tensor, idx));
}

bool TensorObject::setItem(Interpreter& in, const Value& index, const Value& value) {
  const std::vector<TensorIndex> idx = toIndices(in, index);
  std::optional<TensorOrScalar> v = toOperand(value);
  if (!v && (value.is<ListObject>() || value.is<TupleObject>())) v = TensorOrScalar(host::tensor(valueToNested(in, value)));
  if (!v) throwTypeError("can't assign a " + value.typeName() + " to a torch tensor");
  host::setItem(tensor, idx, *v);
  return true;
}

std::optional<Value> TensorObject::binary(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (op == BinOp::MatMul) {
    const Tensor* o = tensorOf(other);
    if (!o) return std::nullopt;
    const Tensor& lhs = reflected ? *o : tensor;
    const Tensor& rhs = reflected ? tensor : *o;
    if (std::optional<Tensor> onGpu = gpuMatmul(in, lhs, rhs)) return makeTensor(std::move(*onGpu));
    return makeTensor(matmul(lhs, rhs));
  }
  const std::optional<host::BinaryOp> top = tensorOp(op);
  std::optional<TensorOrScalar> o = toOperand(other);
  if (!top || !o) return std::nullopt;
  return makeTensor(reflected ? host::binary(*top, *o, tensor) : host::binary(*top, tensor, *o));
}

std::optional<Value> TensorObject::compare(Interpreter&, CmpOp op, const Value& other) {
  std::optional<TensorOrScalar> o = toOperand(other);
  if (!o) {
    // torch: `t == None` is False, `t != None` True; ordering against non-numbers is a TypeError.
    if (op == CmpOp::Eq) return Value::boolean(false);
    if (op == CmpOp::Ne) return Value::boolean(true);
    return std::nullopt;
  }
  return makeTensor(host::binary(tensorCmp(op), tensor, *o));
}

std::optional<Value> TensorObject::unary(Interpreter&, lang::UnaryOp op) {
  switch (op) {
    case lang::UnaryOp::Neg: return makeTensor(neg(tensor));
    case lang::UnaryOp::Pos: return makeTensor(tensor);
    case lang::UnaryOp::Invert: return makeTensor(bitwiseNot(tensor));
    case lang::UnaryOp::Not: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Value> TensorObject::inplace(Interpreter&, BinOp op, const Value& other) {
  const std::optional<host::BinaryOp> top = tensorOp(op);
  std::optional<TensorOrScalar> o = toOperand(other);
  if (!top || !o) return std::nullopt;
  binaryInPlace(*top, tensor, *o);
  return Value(shared_from_this());
}

std::optional<int64_t> TensorObject::length(Interpreter&) const {
  if (tensor.dim() == 0) throwTypeError("len() of a 0-d tensor");
  return tensor.size(0);
}

std::unique_ptr<Iterator> TensorObject::iterate(Interpreter&) {
  if (tensor.dim() == 0) throwTypeError("iteration over a 0-d tensor");
  return std::make_unique<RowIterator>(tensor);
}

std::optional<bool> TensorObject::contains(Interpreter&, const Value& item) {
  std::optional<TensorOrScalar> o = toOperand(item);
  if (!o) throwTypeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a " + item.typeName());
  return any(host::binary(host::BinaryOp::Eq, tensor, *o)).item().toBool();
}

std::optional<std::string> TensorObject::format(Interpreter& in, const std::string& spec) {
  // torch's Tensor.__format__: a 0-dim tensor formats its item(), others only take an empty spec.
  if (tensor.dim() == 0) return in.format(scalarToValue(tensor.item()), spec);
  if (spec.empty()) return toString(tensor);
  throwTypeError("unsupported format string passed to Tensor.__format__");
}

// ------------------------------------------------------------------------------ attributes

std::optional<Value> TensorObject::getAttr(Interpreter& in, const std::string& name) {
  const Tensor t = tensor;
  auto self = shared_from_this();
  auto method = [&](const std::string& spec, std::function<Value(Interpreter&, ValueList&)> fn) {
    return std::optional<Value>(makeBuiltin("Tensor." + name, spec, std::move(fn)));
  };
  auto raw = [&](BuiltinFn fn) { return std::optional<Value>(makeBuiltin("Tensor." + name, std::move(fn))); };
  auto sizeTuple = [](const Shape& s) {
    ValueList items;
    for (int64_t d : s) items.push_back(Value::integer(d));
    return makeObject<TupleObject>(std::move(items), true);
  };

  // --- attributes
  if (name == "shape") return sizeTuple(t.shape());
  if (name == "dtype") return makeDType(t.dtype());
  if (name == "device") return makeDevice(t.device());
  if (name == "is_cuda") return Value::boolean(t.isCuda());
  if (name == "ndim") return Value::integer(t.dim());
  if (name == "T" || name == "mT") return makeTensor(name == "T" ? t.T() : t.transpose(-2, -1));
  if (name == "data") return Value(self);
  if (name == "requires_grad") return Value::boolean(false);
  if (name == "grad") return Value();

  // --- shape and layout
  if (name == "size" || name == "stride") {
    const bool isSize = name == "size";
    return method("dim=None", [t, isSize, sizeTuple](Interpreter& in2, ValueList& a) -> Value {
      if (a[0].isNone()) {
        if (isSize) return sizeTuple(t.shape());
        ValueList items;
        for (int64_t s : t.strides()) items.push_back(Value::integer(s));
        return makeTuple(std::move(items));
      }
      const int64_t d = in2.toIndex(a[0], "dim");
      return Value::integer(isSize ? t.size(d) : t.stride(d));
    });
  }
  if (name == "numel" || name == "nelement") return method("", [t](Interpreter&, ValueList&) { return Value::integer(t.numel()); });
  if (name == "dim") return method("", [t](Interpreter&, ValueList&) { return Value::integer(t.dim()); });
  if (name == "element_size") return method("", [t](Interpreter&, ValueList&) { return Value::integer(t.elementSize()); });
  if (name == "is_contiguous") return method("", [t](Interpreter&, ValueList&) { return Value::boolean(t.isContiguous()); });
  if (name == "is_floating_point") return method("", [t](Interpreter&, ValueList&) { return Value::boolean(t.isFloatingPoint()); });
  if (name == "storage_offset") return method("", [t](Interpreter&, ValueList&) { return Value::integer(t.storageOffset()); });
  if (name == "data_ptr")
    return method("", [t](Interpreter& in2, ValueList&) { return Value::integer(AddressBook::dataPtr(in2, t)); });
  if (name == "view" || name == "reshape") {
    const bool view = name == "view";
    return raw([t, view](Interpreter& in2, CallArgs& a) {
      if (a.positional.size() == 1) {
        if (auto d = toDType(a.positional[0])) {
          if (*d == t.dtype()) return makeTensor(t);
          throw PyError("RuntimeError", "view(dtype) with a different element type is not supported by tilescope");
        }
      }
      const Shape s = toShape(in2, a.positional, view ? "view" : "reshape");
      return makeTensor(view ? t.view(s) : t.reshape(s));
    });
  }
  if (name == "permute") return raw([t](Interpreter& in2, CallArgs& a) { return makeTensor(t.permute(dimsArg(in2, a.positional, "permute"))); });
  if (name == "transpose")
    return method("dim0, dim1", [t](Interpreter& in2, ValueList& a) {
      return makeTensor(t.transpose(in2.toIndex(a[0], "dim0"), in2.toIndex(a[1], "dim1")));
    });
  if (name == "t") return method("", [t](Interpreter&, ValueList&) { return makeTensor(t.t()); });
  if (name == "contiguous") return method("memory_format=None", [t](Interpreter&, ValueList&) { return makeTensor(t.contiguous()); });
  if (name == "clone") return method("memory_format=None", [t](Interpreter&, ValueList&) { return makeTensor(t.clone()); });
  if (name == "detach") return method("", [t](Interpreter&, ValueList&) { return makeTensor(t); });
  if (name == "unsqueeze") return method("dim", [t](Interpreter& in2, ValueList& a) { return makeTensor(t.unsqueeze(in2.toIndex(a[0], "dim"))); });
  if (name == "squeeze")
    return method("dim=None", [t](Interpreter& in2, ValueList& a) {
      return makeTensor(a[0].isNone() ? t.squeeze() : t.squeeze(in2.toIndex(a[0], "dim")));
    });
  if (name == "flatten") return method("", [t](Interpreter&, ValueList&) { return makeTensor(t.flatten()); });
  if (name == "expand") return raw([t](Interpreter& in2, CallArgs& a) { return makeTensor(t.expand(toShape(in2, a.positional, "expand"))); });
  if (name == "expand_as")
    return method("other", [t](Interpreter&, ValueList& a) { return makeTensor(t.expand(requireTensor(a[0], "other").shape())); });

  // --- conversions
  if (name == "to") {
    return raw([t](Interpreter& in2, CallArgs& a) {
      std::optional<DType> dtype;
      std::optional<Device> device;
      for (const Value& v : a.positional) {
        if (auto d = toDType(v)) dtype = d;
        else if (const Tensor* other = tensorOf(v)) { dtype = other->dtype(); device = other->device(); }
        else device = toDevice(in2, v);
      }
      for (const auto& [k, v] : a.keywords) {
        if (k == "dtype") dtype = requireDType(v, "dtype");
        else if (k == "device") device = toDevice(in2, v);
        else if (k != "non_blocking" && k != "copy") throwTypeError("to() got an unexpected keyword argument '" + k + "'");
      }
      if (dtype && device) return makeTensor(t.to(*device, *dtype));
      if (dtype) return makeTensor(t.to(*dtype));
      if (device) return makeTensor(t.to(*device));
      return makeTensor(t);
    });
  }
  static const std::pair<const char*, DType> casts[] = {{"float", DType::FP32}, {"half", DType::FP16},   {"double", DType::FP64},
                                                        {"bfloat16", DType::BF16}, {"int", DType::I32}, {"long", DType::I64},
                                                        {"short", DType::I16}, {"char", DType::I8},     {"byte", DType::U8},
                                                        {"bool", DType::I1}};
  for (const auto& [castName, dtype] : casts) {
    if (name == castName) {
      const DType d = dtype;
      return method("", [t, d](Interpreter&, ValueList&) { return makeTensor(t.to(d)); });
    }
  }
  if (name == "type") {
    return method("dtype=None", [t](Interpreter&, ValueList& a) -> Value {
      if (a[0].isNone()) {
        static const std::map<DType, std::string> names = {{DType::FP32, "Float"}, {DType::FP16, "Half"}, {DType::FP64, "Double"},
                                                           {DType::BF16, "BFloat16"}, {DType::I32, "Int"}, {DType::I64, "Long"},
                                                           {DType::I16, "Short"}, {DType::I8, "Char"}, {DType::U8, "Byte"},
                                                           {DType::I1, "Bool"}};
        return makeStr(std::string(t.isCuda() ? "torch.cuda." : "torch.") + names.at(t.dtype()) + "Tensor");
      }
      return makeTensor(t.to(requireDType(a[0], "dtype")));
    });
  }
  if (name == "cpu") return method("", [t](Interpreter&, ValueList&) { return makeTensor(t.cpu()); });
  if (name == "cuda") return method("device=None, non_blocking=False", [t](Interpreter&, ValueList&) { return makeTensor(t.cuda()); });
  if (name == "item") return method("", [t](Interpreter&, ValueList&) { return scalarToValue(t.item()); });
  if (name == "tolist") return method("", [t](Interpreter&, ValueList&) { return nestedToValue(t.tolist()); });

  // --- in-place writes
  if (name == "fill_") return method("value", [self, t](Interpreter& in2, ValueList& a) {
    Tensor copy = t;
    copy.fill_(requireScalar(in2, a[0], "fill_() value"));
    return Value(self);
  });
  if (name == "masked_fill_") return method("mask, value", [self, t](Interpreter& in2, ValueList& a) {
    Tensor copy = t;
    copy.copy_(maskedFill(t, requireTensor(a[0], "mask"), requireScalar(in2, a[1], "masked_fill_() value")));
    return Value(self);
  });
  if (name == "zero_") return method("", [self, t](Interpreter&, ValueList&) {
    Tensor copy = t;
    copy.fill_(Scalar(int64_t{0}));
    return Value(self);
  });
  if (name == "copy_") return method("src, non_blocking=False", [self, t](Interpreter&, ValueList& a) {
    Tensor copy = t;
    copy.copy_(requireTensor(a[0], "copy_() src"));
    return Value(self);
  });
  if (name == "uniform_") return method("from_=0.0, to=1.0", [self, t](Interpreter& in2, ValueList& a) {
    Tensor copy = t;
    uniform_(copy, in2.toFloat(a[0], "uniform_"), in2.toFloat(a[1], "uniform_"));
    return Value(self);
  });
  if (name == "normal_") return method("mean=0.0, std=1.0", [self, t](Interpreter& in2, ValueList& a) {
    Tensor copy = t;
    normal_(copy, in2.toFloat(a[0], "normal_"), in2.toFloat(a[1], "normal_"));
    return Value(self);
  });
  static const std::pair<const char*, BinOp> inplaceOps[] = {{"add_", BinOp::Add}, {"sub_", BinOp::Sub}, {"mul_", BinOp::Mul},
                                                             {"div_", BinOp::Div}};
  for (const auto& [opName, op] : inplaceOps) {
    if (name == opName) {
      const BinOp o = op;
      return method("other", [self, o](Interpreter& in2, ValueList& a) { return *self->inplace(in2, o, a[0]); });
    }
  }

  // --- torch functions that are also methods (x.sum(), x.max(dim=1), x.softmax(-1), ...)
  if (auto fn = torchFunctionAsMethod(in, name)) {
    Value f = *fn;
    Value selfValue(self);
    return raw([f, selfValue](Interpreter& in2, CallArgs& a) {
      CallArgs args = a;
      args.positional.insert(args.positional.begin(), selfValue);
      return in2.call(f, args);
    });
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------------ dtype, device

std::string DTypeObject::repr(Interpreter&) const { return torchDTypeName(dtype); }

std::optional<Value> DTypeObject::getAttr(Interpreter&, const std::string& name) {
  if (name == "is_floating_point") return Value::boolean(isFloatingType(dtype));
  if (name == "itemsize") return Value::integer(elementSize(dtype));
  if (name == "is_signed") return Value::boolean(dtype != DType::U8 && dtype != DType::I1);
  return std::nullopt;
}

std::optional<Value> DTypeObject::compare(Interpreter&, CmpOp op, const Value& other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  auto* o = other.as<DTypeObject>();
  const bool eq = o && o->dtype == dtype;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

std::optional<std::string> DTypeObject::hashKey(Interpreter&) const { return "dtype:" + torchDTypeName(dtype); }

std::string DeviceObject::repr(Interpreter&) const {
  if (device.isCpu()) return "device(type='cpu')";
  return "device(type='cuda', index=" + std::to_string(device.index()) + ")";
}

std::optional<Value> DeviceObject::getAttr(Interpreter&, const std::string& name) {
  if (name == "type") return makeStr(device.isCpu() ? "cpu" : "cuda");
  if (name == "index") return device.isCpu() ? Value() : Value::integer(device.index());
  return std::nullopt;
}

std::optional<Value> DeviceObject::compare(Interpreter& in, CmpOp op, const Value& other) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
  bool eq = false;
  if (auto* o = other.as<DeviceObject>()) eq = o->device == device;
  else if (other.is<StrObject>()) eq = toDevice(in, other) == device;
  return Value::boolean(op == CmpOp::Eq ? eq : !eq);
}

// ------------------------------------------------------------------------------ named tuples

std::string NamedTupleObject::repr(Interpreter& in) const {
  std::string out = name + "(\n";
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string value = in.repr(items[i]);
    // torch indents continuation lines of each field.
    std::string indented;
    for (char c : value) {
      indented += c;
      if (c == '\n') indented += "       ";
    }
    out += fields[i] + "=" + indented + (i + 1 < fields.size() ? ",\n" : ")");
  }
  return out;
}

std::optional<Value> NamedTupleObject::getAttr(Interpreter& in, const std::string& attr) {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i] == attr) return items[i];
  return TupleObject::getAttr(in, attr);
}

}  // namespace tilescope::host
