#pragma once
// Launching a @triton.jit kernel from host code: binds the call's arguments to the kernel's
// parameters (exactly like Python), builds the checker's Specialization (tensor -> pointer with the
// tensor's dtype, int -> i32/i64 by value, float -> fp32, bool -> i1, constexprs by value), checks the
// kernel once per specialization, evaluates the grid, and runs every program on the simulator.
//
// Tensors are copied into the simulator's memory before the launch and the bytes back afterwards
// (sim::Memory owns its own byte buffers; the copy is one memcpy per tensor and keeps the tensor
// library and the simulator independent).
#include <memory>
#include <string>
#include <vector>

#include "core/python/Value.h"
#include "core/ir/Kernel.h"
#include "core/kernel/Checker.h"

namespace tilescope::host {

class JitFunction;

struct CheckedKernelCache;

struct PreparedLaunch {
  ir::KernelPtr kernel;
  ValueList runtimeArgs;       // in the kernel's runtime-parameter order
  std::vector<std::string> runtimeNames;
  std::vector<int64_t> grid;   // 3 entries
  int numWarps = 4;
  int numStages = 3;
  double checkSeconds = 0;     // type-checking and lowering this specialization (0 when cached)
  lang::Specialization spec;   // what the kernel was checked for
  std::string specKey;         // its key in the JitFunction's cache
};

class KernelLauncher {
public:
  // Throws PyError("CompilationError", ...) with the clang-style diagnostics as detail when the
  // kernel does not check for these arguments; TypeError for binding mistakes.
  static PreparedLaunch prepare(LaunchContext& in, JitFunction& jit, const Value& grid, const CallArgs& args);
  // Runs all programs; simulator errors (out-of-bounds accesses, ...) become Python errors.
  static void run(LaunchContext& in, JitFunction& jit, const PreparedLaunch& launch);
  // Seconds spent running kernels in this interpreter (for benchmarks: total minus this = host overhead).
  static double simulatorSeconds(LaunchContext& in);
  // A @triton.jit def that redefines a kernel this session launched on the GPU (a notebook cell
  // run again after an edit): starts compiling the new code, in the background, for the
  // specializations the old one was launched with, so that the next launch finds it compiled.
  // Does nothing on the simulator, and nothing visible when the new code does not check or compile
  // for them (the launch reports that).
  static void prefetchRedefined(LaunchContext& in, JitFunction& jit);
  // kernel.cache: the specializations checked so far.
  static Value cacheSummary(LaunchContext& in, JitFunction& jit);
};

}  // namespace tilescope::host
