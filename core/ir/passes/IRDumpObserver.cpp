#include "core/ir/passes/IRDumpObserver.h"

namespace tilescope::ir::passes {

void IRDumpObserver::afterPass(std::string_view passName, const Kernel& kernel) {
  if (only_ && *only_ != passName) return;
  dumps_.emplace_back(std::string(passName), kernel.dump());
}

std::optional<std::string> IRDumpObserver::dumpAfter(std::string_view passName) const {
  for (const auto& [name, text] : dumps_)
    if (name == passName) return text;
  return std::nullopt;
}

}  // namespace tilescope::ir::passes
