#pragma once
// The kernel launches a script or notebook writes (`kernel[grid](x, out, n, BLOCK=256)`) and what
// their arguments are, read from the host code without running it, so that `tilescope-cli check`
// checks a kernel with the element types its launches pass instead of guessing fp32. What cannot be
// read that way (a tensor that came in as a function parameter, a computed dtype) stays unknown.
//
//   x = torch.randint(0, 10, (n,), dtype=torch.int32)   ->  x: tensor of i32
//   out = torch.zeros_like(x)                            ->  out: tensor of i32
//   hist[(1,)](x, out, n, BINS=16)                       ->  *i32, *i32, int, constexpr 16
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/DType.h"
#include "core/kernel/ConstValue.h"
#include "core/kernel/Program.h"

namespace tilescope::lang {

// One argument of a launch, as far as the code shows it.
struct LaunchArg {
  enum class Kind { Unknown, Tensor, Int, Float, Bool, Constant };
  Kind kind = Kind::Unknown;
  std::optional<ir::DType> dtype;   // Tensor: its element type, when known
  std::optional<ConstValue> value;  // Int, Float, Bool: the value when it is a literal; Constant: always

  static LaunchArg unknown() { return {}; }
  static LaunchArg tensor(std::optional<ir::DType> dtype) { return {Kind::Tensor, dtype, std::nullopt}; }
  static LaunchArg integer(std::optional<int64_t> v = std::nullopt);
  static LaunchArg floating(std::optional<double> v = std::nullopt);
  static LaunchArg boolean(std::optional<bool> v = std::nullopt);
  static LaunchArg constant(ConstValue v) { return {Kind::Constant, std::nullopt, std::move(v)}; }
};

struct LaunchSite {
  std::string kernel;  // the name launched
  SourceRange range;   // the launch call
  std::vector<LaunchArg> args;
  std::vector<std::pair<std::string, LaunchArg>> kwargs;  // launch options (num_warps, ...) included
};

// Every `name[grid](...)` call in the program's host code (module level, functions, lambdas), in
// source order, whose name is a @triton.jit function of the program.
std::vector<LaunchSite> findLaunchSites(const Program& program);

}  // namespace tilescope::lang
