#pragma once
// A kernel's parameters with their default values, and the binding of a launch's arguments to
// them. The rule (positional, keyword, defaults, *args, **kwargs, keyword-only) and its messages are
// util::ArgumentBinding's, shared with the kernel checker.
#include <optional>
#include <string>
#include <vector>

#include "core/python/Value.h"
#include "core/base/ArgumentBinding.h"

namespace tilescope::host {

struct ParamSpec {
  using Kind = util::ParameterKind;
  std::string name;
  Kind kind = Kind::Normal;
  std::optional<Value> defaultValue;
};

class Signature {
public:
  Signature() = default;
  Signature(std::string functionName, std::vector<ParamSpec> params);

  // One value per parameter, in order: *args becomes a tuple, **kwargs a dict. Unfilled parameters
  // without a default raise TypeError ("f() missing 1 required positional argument: 'x'").
  ValueList bind(LaunchContext& in, const CallArgs& args) const;

  const std::string& name() const { return name_; }
  const std::vector<ParamSpec>& params() const { return params_; }
  int indexOf(const std::string& param) const;

private:
  std::string name_;
  std::vector<ParamSpec> params_;
  std::vector<util::ParameterInfo> shape_;  // params_ without the values, for the binder
};

}  // namespace tilescope::host
