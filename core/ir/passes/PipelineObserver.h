#pragma once
// Watches a pass pipeline: called with the kernel after each pass, in order. The CLI's
// `--emit ir-after=PASS` and tests dump the IR at a chosen pass through one (IRDumpObserver).
#include <string_view>

#include "core/ir/Kernel.h"

namespace tilescope::ir::passes {

class PipelineObserver {
public:
  virtual ~PipelineObserver() = default;
  virtual void afterPass(std::string_view passName, const Kernel& kernel) = 0;
};

}  // namespace tilescope::ir::passes
