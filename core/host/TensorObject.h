#pragma once
// torch.Tensor as a Python value (the tensor library's Tensor inside), torch.dtype and torch.device,
// and torch's named-tuple results (torch.max(x, dim) -> values, indices).
#include "core/host/Containers.h"
#include "core/tensor/Tensor.h"
#include "core/host/Value.h"

namespace tilescope::host {

class TensorObject : public Object {
public:
  explicit TensorObject(Tensor t) : tensor(std::move(t)) {}
  std::string typeName() const override { return "Tensor"; }
  std::string repr(Interpreter& in) const override;
  bool truthy(Interpreter& in) const override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> getItem(Interpreter& in, const Value& index) override;
  bool setItem(Interpreter& in, const Value& index, const Value& value) override;
  std::optional<Value> binary(Interpreter& in, BinOp op, const Value& other, bool reflected) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<Value> unary(Interpreter& in, lang::UnaryOp op) override;
  std::optional<Value> inplace(Interpreter& in, BinOp op, const Value& other) override;
  std::optional<int64_t> length(Interpreter& in) const override;
  std::unique_ptr<Iterator> iterate(Interpreter& in) override;
  std::optional<bool> contains(Interpreter& in, const Value& item) override;
  std::optional<std::string> format(Interpreter& in, const std::string& spec) override;
  std::optional<Value> number(Interpreter& in) const override;

  Tensor tensor;
};

class DTypeObject : public Object {
public:
  explicit DTypeObject(DType t) : dtype(t) {}
  std::string typeName() const override { return "dtype"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<std::string> hashKey(Interpreter& in) const override;

  DType dtype;
};

class DeviceObject : public Object {
public:
  explicit DeviceObject(Device d) : device(d) {}
  std::string typeName() const override { return "device"; }
  std::string repr(Interpreter& in) const override;
  std::string str(Interpreter&) const override { return device.str(); }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;

  Device device;
};

// torch.return_types.max(values=..., indices=...): a tuple with named fields.
class NamedTupleObject : public TupleObject {
public:
  NamedTupleObject(std::string name, std::vector<std::string> fields, ValueList items)
      : TupleObject(std::move(items)), name(std::move(name)), fields(std::move(fields)) {}
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& attr) override;

  std::string name;
  std::vector<std::string> fields;
};

}  // namespace tilescope::host
