#pragma once
// The checker's public API: turns a @triton.jit function of a parsed Program plus a launch
// specialization into a typed ir::Kernel, or into clang-style diagnostics.
//
//   Program program;                       // modules (notebook cells) in execution order
//   program.addModule(parsedModule);
//   Specialization spec;
//   spec.args = {ArgSpec::pointer(DType::FP32), ArgSpec::pointer(DType::FP32),
//                ArgSpec::pointer(DType::FP32), ArgSpec::scalar(DType::I32)};
//   spec.kwargs = {{"BLOCK_SIZE", ArgSpec::constexprValue(ConstValue::integer(1024))}};
//   CheckResult r = checkKernel(program, "add_kernel", spec);
//   if (r.kernel) std::cout << r.kernel->dump();
//   else std::cout << r.diagnostics.render();
//
// Checking stops at the first error (like Triton); warnings and static_print notes are kept.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/kernel/ConstValue.h"
#include "core/base/Diagnostic.h"
#include "core/kernel/Program.h"

namespace tilescope::lang {

// What a launch passes for one kernel parameter.
struct ArgSpec {
  enum class Kind { Pointer, Scalar, Constexpr };
  Kind kind = Kind::Scalar;
  ir::DType dtype = ir::DType::I32;  // Pointer: the pointee; Scalar: the scalar's dtype
  ConstValue value;                  // Constexpr
  bool divisibleBy16 = false;        // Triton's specialization of addresses and integers
  // Constexpr: a run-time int parameter that the launch specialized to its value (Triton compiles an
  // int of 1 as a constant). It is checked as an i32 scalar of that value, so the kernel computes
  // exactly what it computes for a run-time argument (`s.to(tl.int64)`, i32 arithmetic) while the
  // code generator sees the constant.
  bool scalarValue = false;

  static ArgSpec pointer(ir::DType pointee, bool divisibleBy16 = true);
  static ArgSpec scalar(ir::DType t, bool divisibleBy16 = false);
  static ArgSpec constexprValue(ConstValue v);
  // A Python int passed to a non-constexpr parameter, specialized as Triton does: i32 when it fits
  // (else i64, or u64 above INT64_MAX), with divisibility by 16 noted.
  static ArgSpec fromInt(int64_t v);
  // Triton's specialization of a run-time int argument of 1 (see scalarValue).
  static ArgSpec unitInt();
  // "*fp32", "i32", "constexpr=16", "i32=1"
  std::string str() const;
};

struct Specialization {
  std::vector<ArgSpec> args;                            // positional, in parameter order
  std::vector<std::pair<std::string, ArgSpec>> kwargs;  // by parameter name
  ir::KernelOptions options;
};

struct CheckResult {
  std::shared_ptr<const ir::Kernel> kernel;  // null when the check failed
  DiagnosticList diagnostics;
  // When the failure was a pointer operation on a scalar kernel parameter: that parameter's index
  // (checkAllKernels uses it to infer which parameters are pointers).
  std::optional<int> pointerDemand;
  bool ok() const { return kernel != nullptr; }
};

// Checks the current definition of the jit function `kernelName`.
CheckResult checkKernel(const Program& program, std::string_view kernelName, const Specialization& spec);
// Checks one particular definition (also one that a later cell shadows).
CheckResult checkKernel(const Program& program, const JitFunctionInfo& function, const Specialization& spec);

// Checks every @triton.jit function that no other jit function calls (the kernels) as far as
// possible without running the program (`tilescope-cli check`; core/kernel/CheckAllKernels.cpp).
// A kernel that the program launches (`kernel[grid](x, out, n)`) is checked with the argument types
// of those launches, as far as the host code shows them (LaunchSites). Constexpr parameters take, in
// order: a `-D NAME=VALUE` override from `constexprs`, a constant the launch passes, the first
// @triton.autotune config, the parameter's default, else the placeholder 16 (reported in a note if
// the kernel then fails). Other parameters whose type no launch shows are unknown: scalars or, when
// the kernel uses them as pointers, pointers to an unknown element type. The check tries the types
// a launch could pass for them (one parameter at a time, and all pointers together, keeping what
// gets furthest) and reports an error only when none of those avoids it.
DiagnosticList checkAllKernels(const Program& program, const std::map<std::string, ConstValue>& constexprs);

// True when a kernel parameter is annotated tl.constexpr.
bool isConstexprParam(const Param& p);

// The jit functions checkAllKernels treats as kernels: not called by another jit function and not
// returning a value.
std::vector<const JitFunctionInfo*> kernelRoots(const Program& program);

}  // namespace tilescope::lang
