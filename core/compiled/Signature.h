#pragma once
// A kernel specialization written as text, in Triton's AOT signature convention that
// `tilescope-cli compile --signature` takes: "*fp32,*fp32,*fp32,i32:16,1024" (pointer element types,
// scalar types, 'i32:16' for an integer that is a multiple of 16, a literal for a constexpr). The
// Compiled view's specialization field reads and shows this text.
#include <optional>
#include <string>

#include "core/kernel/Checker.h"
#include "core/kernel/Program.h"

namespace tilescope::compiled {

// The argument specs of `text` (options left at their defaults), or nothing with `error` set.
std::optional<lang::Specialization> parseSignature(const std::string& text, std::string* error);
// The text parseSignature reads back as `spec`'s positional arguments.
std::string formatSignature(const lang::Specialization& spec);

// A signature for `kernel` read from the program's first launch of it (`kernel[grid](x, y, n,
// BLOCK=1024)`, core/kernel/LaunchSites), with launch options (num_warps, num_stages) in
// `options`; where the launch does not show a type, a pointer is fp32 and a scalar i32, and a
// constexpr takes its default (or 16). Nothing when the program has no such jit function.
std::optional<std::string> suggestSignature(const lang::Program& program, const std::string& kernel,
                                            ir::KernelOptions* options);

}  // namespace tilescope::compiled
