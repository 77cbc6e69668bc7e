#include "core/ir/passes/Pass.h"

#include <string>

#include "core/ir/IRVerifier.h"

namespace tilescope::ir::passes {

Kernel runPass(const Pass& pass, const Kernel& kernel, Verify verify, PipelineObserver* observer) {
  Kernel out = pass.run(kernel);
  const std::string stage = "pass '" + std::string(pass.name) + "'";
  if (verify == Verify::Always)
    IRVerifier::verifyOrThrow(out, stage);
  else
    verifyInDebug(out, stage);
  if (observer) observer->afterPass(pass.name, out);
  return out;
}

}  // namespace tilescope::ir::passes
