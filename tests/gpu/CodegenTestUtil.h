#pragma once
// Helpers shared by the CUDA generation tests: a kernel checked from source text, and the options of
// Hopper's arch-specific target (sm_90a: wgmma, TMA, unrolled per-thread arrays).
#include <gtest/gtest.h>

#include <string>

#include "core/gpu/codegen/CudaCodegen.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::gpu::test {

// `name` of `source` (read as k.py) checked for `spec`; a checker error fails the test.
inline ir::KernelPtr kernelFrom(const std::string& source, const std::string& name, const lang::Specialization& spec) {
  auto program = lang::test::programFrom(source, "k.py");
  lang::CheckResult r = lang::checkKernel(*program, name, spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

// How many times `what` occurs in `text` (overlapping occurrences counted).
inline size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

inline CudaCodegenOptions hopperOptions() {
  CudaCodegenOptions options;
  options.smArch = 90;
  options.archSpecific = true;
  return options;
}

}  // namespace tilescope::gpu::test
