#pragma once
// A tensor of the tensor library as a launch argument (the pointer a kernel gets), and torch's dtypes
// (torch.float16, passed as constexpr kernel arguments).
#include "core/python/Value.h"
#include "core/tensor/Tensor.h"

namespace tilescope::host {

class TensorObject : public Object {
public:
  explicit TensorObject(Tensor t) : tensor(std::move(t)) {}
  std::string typeName() const override { return "Tensor"; }
  std::string repr(LaunchContext& in) const override;
  bool truthy(LaunchContext& in) const override;
  std::optional<Value> number(LaunchContext& in) const override;

  Tensor tensor;
};

class DTypeObject : public Object {
public:
  explicit DTypeObject(DType t) : dtype(t) {}
  std::string typeName() const override { return "dtype"; }
  std::string repr(LaunchContext& in) const override;
  std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other) override;
  std::optional<std::string> hashKey(LaunchContext& in) const override;

  DType dtype;
};

}  // namespace tilescope::host
