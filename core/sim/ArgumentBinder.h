#pragma once
// Checks a launch's arguments against the kernel's runtime parameters and turns them into the
// scalar tiles ParamRef reads: a pointer parameter gets the address of its tensor (plus the view
// offset), a scalar parameter its value in the parameter's dtype. Also records which parameter
// holds which tensor (for messages and traces) and checks Triton's divisible-by-16
// specialization, which compiled code relies on.
#include <optional>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/sim/Launch.h"
#include "core/sim/LaunchContext.h"

namespace tilescope::sim {

// The error that prevents the launch, if any; warnings are added to `warnings`.
std::optional<lang::Diagnostic> bindArguments(LaunchContext& launch, const std::vector<LaunchArg>& args,
                                              lang::DiagnosticList& warnings);

}  // namespace tilescope::sim
