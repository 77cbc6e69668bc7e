#pragma once
// Host calls from inside kernels: a kernel that calls a plain Python function (the seeds'
// print_if(f'pid = {pid} | offs = {offs}', '')) runs that function on the host, once per
// program, with tiles as NumPy-like arrays (what Triton's interpreter hands it) and f-strings already
// rendered the way TRITON_INTERPRET renders them.
#include <string>

#include "core/python/PyError.h"
#include "core/python/Value.h"
#include "core/sim/Launch.h"
#include "core/sim/Tile.h"

namespace tilescope::host {

class LaunchContext;

// A tile value seen from host code: str() prints like NumPy ("[0 1]", "[ True  True]").
class TileArray : public Object {
public:
  explicit TileArray(sim::TileRef t) : tile(std::move(t)) {}
  std::string typeName() const override { return "ndarray"; }
  std::string repr(LaunchContext& in) const override;
  std::string str(LaunchContext& in) const override;
  bool truthy(LaunchContext& in) const override;
  std::optional<Value> getAttr(LaunchContext& in, const std::string& name) override;
  std::optional<Value> getItem(LaunchContext& in, const Value& index) override;
  std::optional<int64_t> length(LaunchContext& in) const override;
  std::optional<Value> number(LaunchContext& in) const override;
  std::optional<Value> compare(LaunchContext& in, CmpOp op, const Value& other) override;

  sim::TileRef tile;
};

class KernelHostCalls {
public:
  // The simulator's HostCallback: "" to continue, or the message that stops the launch. A Python
  // error raised by the called function is kept (takePendingError) so that the launch re-raises it
  // with its own traceback.
  static std::string call(LaunchContext& in, const sim::HostCallEvent& event);
  static std::optional<PyError> takePendingError(LaunchContext& in);
  // The kernel whose host calls run now (named in tracebacks).
  static void setCurrentKernel(LaunchContext& in, const std::string& name);
};

}  // namespace tilescope::host
