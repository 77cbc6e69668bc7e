#pragma once
// One optimisation of the tile IR: a name (what `tilescope-cli compile --emit ir-after=NAME` takes),
// one line saying what it does, and a function from a kernel to a kernel. Passes never change the
// kernel they get (the IR is immutable); they return a rewritten copy, or the same body when there
// was nothing to do. runPass runs one and checks its result, so every pass of a pipeline is verified
// and observable the same way.
#include <functional>
#include <string_view>

#include "core/ir/Kernel.h"
#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::ir::passes {

struct Pass {
  std::string_view name;     // kebab-case, stable: dumps and the CLI select passes by it
  std::string_view summary;  // one line for `--emit passes`
  std::function<Kernel(const Kernel&)> run;
};

// When runPass checks the IR a pass returns: in debug builds (the product) or always (tests).
enum class Verify { InDebugBuilds, Always };

// Runs `pass`, verifies its result (IRVerifier; a broken invariant is a lang::InternalError naming
// the pass) and shows it to `observer` (may be null).
Kernel runPass(const Pass& pass, const Kernel& kernel, Verify verify, PipelineObserver* observer);

}  // namespace tilescope::ir::passes
