#pragma once
// Helpers shared by the CUDA generation tests: a kernel checked from source text, the options of
// Hopper's arch-specific target (sm_90a: wgmma, TMA, unrolled per-thread arrays), a generated
// kernel cut for the CPU warp emulation (tests/gpu/emulation), and ptxas's verdict on PTX.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
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

// A generated kernel without the prelude, its dynamic shared memory the emulation's buffer g_smem:
// what tests/gpu/emulation's mains include as kernel_body.inc.
inline std::string emulatedKernelBody(const std::string& cuda) {
  std::string body = cuda.substr(cuda.find("extern \"C\" __global__") + 11);
  const std::string smem = "extern __shared__ __align__(128) unsigned char ts_smem[];";
  if (const size_t at = body.find(smem); at != std::string::npos) body.replace(at, smem.size(), "unsigned char* ts_smem = g_smem;");
  return body;
}

struct PtxasRun {
  int exitCode = 0;
  std::string log;  // with -v: registers, spills, and warnings such as serialised wgmmas
};

// `ptx` assembled by the toolkit's ptxas for `arch` with -v; nullopt where ptxas is not installed
// (the caller skips, saying so).
inline std::optional<PtxasRun> runPtxas(const std::string& ptx, const std::string& arch) {
  namespace fs = std::filesystem;
  fs::path ptxas = "/usr/local/cuda/bin/ptxas";
  if (const char* home = std::getenv("CUDA_HOME")) ptxas = fs::path(home) / "bin" / "ptxas";
  if (!fs::exists(ptxas)) return std::nullopt;
  const fs::path dir = fs::temp_directory_path() / ("tilescope-ptxas-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.ptx") << ptx;
  const std::string cmd = "\"" + ptxas.string() + "\" -arch=" + arch + " -v \"" + (dir / "k.ptx").string() +
                          "\" -o /dev/null > \"" + (dir / "log").string() + "\" 2>&1";
  PtxasRun run;
  run.exitCode = std::system(cmd.c_str());
  std::ifstream in(dir / "log");
  run.log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::error_code ec;
  fs::remove_all(dir, ec);
  return run;
}

}  // namespace tilescope::gpu::test
