#pragma once
// triton.language's dtypes as launch values: tl.float16, tl.int32, ... passed as constexpr kernel
// arguments.
#include <string>

#include "core/python/Value.h"
#include "core/ir/DType.h"

namespace tilescope::host {

// Printed like Triton ("fp16"), compared by dtype.
class TlDTypeObject : public Object {
public:
  explicit TlDTypeObject(ir::DType t) : dtype(t) {}
  std::string typeName() const override { return "dtype"; }
  std::string repr(LaunchContext&) const override { return std::string(ir::dtypeName(dtype)); }
  std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other) override;
  std::optional<std::string> hashKey(LaunchContext&) const override { return "tl." + std::string(ir::dtypeName(dtype)); }

  ir::DType dtype;
};

}  // namespace tilescope::host
