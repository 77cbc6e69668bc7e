#pragma once
// IR -> CUDA C++ (CudaCodegen) -> PTX (NVRTC), with an in-memory and an on-disk cache keyed by a
// hash of (CUDA text, NVRTC options, NVRTC version, arch). The disk cache lives in
// $TILESCOPE_CACHE_DIR, else $XDG_CACHE_HOME/tilescope/ptx, else ~/.cache/tilescope/ptx.
// Needs no GPU: `tilescope-cli compile --emit ptx` and CI use it with NVRTC alone.
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/gpu/codegen/CudaCodegen.h"

namespace tilescope::gpu {

// How hard NVRTC and ptxas work. Quick (NVRTC's --Ofast-compile=mid) takes about half the time on
// tensor-core kernels and gives slower code with the same results; a launch may run it while the
// optimized build of the same code compiles in the background (GpuCompiler::compileForLaunch).
enum class CompileTier { Optimized, Quick };

struct CompiledKernel {
  CudaKernelSource cuda;
  std::string arch;  // "sm_90"
  CompileTier tier = CompileTier::Optimized;
  std::string ptx;
  std::string cubin;  // the device binary for `arch`, when compiled for a launch on a real architecture
  std::string nvrtcLog;
  std::string cacheKey;        // 32 hex digits
  std::string cacheHit;        // "", "memory" or "disk"
  double compileSeconds = 0;   // codegen + NVRTC (0 for a memory hit)
  double nvrtcSeconds = 0;     // nvrtcCompileProgram alone: the rest of compileSeconds is ours
};

// What a compiled kernel needs per program: from the driver after loading (GpuRuntime::resources),
// or from ptxas's report without a GPU (GpuCompiler::assembledResources).
struct KernelResources {
  int registers = 0;
  int staticSharedBytes = 0;
  int dynamicSharedBytes = 0;
  int localBytes = 0;  // per thread: spills and stack
  int maxThreadsPerBlock = 0;
  std::string str() const;  // "38 registers, 0+4096 bytes shared, 0 bytes local (spills)"
};

class GpuCompiler {
public:
  static GpuCompiler& instance();

  // Registers, local and shared memory as ptxas reports them when NVRTC assembles the kernel for
  // `arch` (no GPU needed). Throws std::runtime_error when NVRTC is missing.
  static KernelResources assembledResources(const ir::Kernel& kernel, const std::string& arch,
                                            const CudaCodegenOptions& options = {});

  // Throws lang::CompileError for kernels the GPU backend cannot translate yet, and
  // std::runtime_error when NVRTC is missing. Generated code that NVRTC rejects is our bug:
  // lang::InternalError with NVRTC's log.
  std::shared_ptr<const CompiledKernel> compile(const ir::Kernel& kernel, const std::string& arch,
                                                const CudaCodegenOptions& options = {});
  // What a launch on `arch` runs: like compile(), with the device binary too when `arch` is a real
  // architecture ("sm_90a"), so that loading it compiles nothing. With allowQuick, a kernel on
  // tensor cores (whose unrolled mma code costs NVVM and ptxas the most) that has no optimized
  // build yet gets the quick build at once, and its optimized build starts on a background thread;
  // later calls return the optimized build as soon as it is done. Timed launches (do_bench,
  // autotuning, per-program timing) pass allowQuick = false and wait for the optimized build.
  std::shared_ptr<const CompiledKernel> compileForLaunch(const ir::Kernel& kernel, const std::string& arch,
                                                         const CudaCodegenOptions& options, bool allowQuick);
  // Starts building, on a background thread, what compileForLaunch(kernel, arch, options, true)
  // will need, unless a cache has it or it is being built; returns at once. For a kernel redefined
  // in a notebook cell, with the specializations its earlier version was launched with, so that
  // the launch that follows finds it built (or building). Throws what code generation throws.
  void prefetchForLaunch(const ir::Kernel& kernel, const std::string& arch, const CudaCodegenOptions& options);
  // Blocks until every background build is done; their errors are left to the launches that need them.
  void waitForBackgroundBuilds();

  // Loads NVRTC and compiles a tiny kernel on a background thread, once per process, so that the
  // first real compile does not pay for initialising the compiler (called by `run` with a GPU
  // backend, by the app when it finds a GPU, and by the GPU runtime when it starts).
  static void warmUpInBackground(const std::string& arch);
  // The first device's arch when there is one, else sm_90.
  static std::string defaultArch();
  // The generator's options for a target ("sm_90", "compute_80", "sm_90a"): its compute capability
  // (the digits) and whether it is arch-specific (a trailing 'a').
  static CudaCodegenOptions optionsFor(const std::string& arch, CudaCodegenOptions base = {});
  static std::vector<std::string> nvrtcOptions(CompileTier tier = CompileTier::Optimized);
  static std::string cacheDirectory();
  // 128-bit FNV-1a of the text, as 32 hex digits.
  static std::string hashText(const std::string& text);

private:
  using Pending = std::shared_future<std::shared_ptr<const CompiledKernel>>;
  static std::string cacheKey(const std::string& source, const std::string& arch, CompileTier tier);
  // The memory cache, else the disk cache (then remembered in memory); null when neither has it.
  std::shared_ptr<const CompiledKernel> cached(const std::string& key, const CudaKernelSource& cuda,
                                               const std::string& arch, CompileTier tier);
  // Runs NVRTC (PTX, and the device binary when wantCubin) and stores the result in both caches.
  std::shared_ptr<const CompiledKernel> build(const CudaKernelSource& cuda, const std::string& kernelName,
                                              const std::string& arch, CompileTier tier, bool wantCubin,
                                              std::chrono::steady_clock::time_point started);
  // The background build of `key`, if one was started and not yet collected.
  Pending pending(const std::string& key);
  // Starts the optimized build of `cuda` on a background thread, after the quick one when
  // `quickFirst` (whose result then is the quick key's pending build).
  void startInBackground(const CudaKernelSource& cuda, const std::string& kernelName, const std::string& arch,
                         bool quickFirst);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const CompiledKernel>> memory_;
  std::map<std::string, Pending> background_;  // background builds (quick or optimized), by cache key
};

}  // namespace tilescope::gpu
