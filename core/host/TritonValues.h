#pragma once
// Values of the `triton` and `triton.language` modules that host code handles: tl dtypes
// (tl.float16, passed as constexpr kernel arguments) and triton.Config.
#include <string>
#include <utility>
#include <vector>

#include "core/host/Containers.h"
#include "core/ir/DType.h"

namespace tilescope::host {

// tl.float16, tl.int32, ...: printed like Triton ("fp16"), compared by dtype.
class TlDTypeObject : public Object {
public:
  explicit TlDTypeObject(ir::DType t) : dtype(t) {}
  std::string typeName() const override { return "dtype"; }
  std::string repr(Interpreter&) const override { return std::string(ir::dtypeName(dtype)); }
  std::optional<Value> compare(Interpreter& in, CmpOp op, const Value& other) override;
  std::optional<std::string> hashKey(Interpreter&) const override { return "tl." + std::string(ir::dtypeName(dtype)); }
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;

  ir::DType dtype;
};

// triton.Config({'BLOCK': 128}, num_warps=4, num_stages=3, pre_hook=None)
class ConfigObject : public Object {
public:
  std::string typeName() const override { return "Config"; }
  std::string repr(Interpreter& in) const override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& name) override;

  Value kwargs;  // dict of meta-parameters
  int numWarps = 4;
  int numStages = 3;
};

}  // namespace tilescope::host
