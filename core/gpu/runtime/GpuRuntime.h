#pragma once
// Running generated kernels through the CUDA driver API (libcuda.so.1, dlopen'd by CudaDriver):
// the primary context of device 0, modules loaded from device binaries or PTX (cached by the code's hash), device
// buffers, launches. Every CUDA call is checked; a failure names the call and the kernel. After a
// sticky fault (illegal address, trap, ...) the context is reset, so the next launch works.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/gpu/runtime/CudaApi.h"
#include "core/gpu/runtime/GpuCompiler.h"

namespace tilescope::gpu {

// A CUDA call failed: "cuLaunchKernel failed for kernel 'add_kernel': an illegal memory access...".
class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A runtime argument: a device address (pointer parameters) or a scalar.
struct GpuArg {
  bool isPointer = false;
  bool isFloat = false;
  int64_t intValue = 0;  // the device address for a pointer
  double floatValue = 0;
  static GpuArg pointer(uint64_t deviceAddress) { return GpuArg{true, false, static_cast<int64_t>(deviceAddress), 0}; }
  static GpuArg integer(int64_t v) { return GpuArg{false, false, v, 0}; }
  static GpuArg real(double v) { return GpuArg{false, true, 0, v}; }
};

struct GpuLaunchResult {
  std::shared_ptr<const CompiledKernel> compiled;
  KernelResources resources;
  double kernelSeconds = 0;  // launch + synchronize (host clock)
  double waitSeconds = 0;    // waiting for the runtime (another launch, the context's creation)
  double loadSeconds = 0;    // cuModuleLoadData (the driver's PTX -> SASS) and attributes; 0 when loaded
  std::optional<lang::Diagnostic> failure;  // a device assertion or zero loop step, with the pid
  // With programTiming: per program (linear index x + y*gx + z*gx*gy) its start and end time
  // (%globaltimer, ns) and SM (%smid), 3 words each.
  std::vector<uint64_t> programTiming;
};

// A kernel the user wrote in CUDA C++ (cupy.RawKernel), compiled by NVRTC.
struct RawModule {
  std::string name;       // the __global__ function
  std::string arch;
  std::string ptx;
  std::string cacheKey;
  std::string nvrtcLog;
};

class GpuRuntime {
public:
  static GpuRuntime& instance();
  bool available() const;
  std::string unavailableReason() const;
  // Creates the CUDA context on a background thread, once per process, as torch does when the first
  // CUDA tensor is made: the first launch then does not wait for the driver's set-up. A failure is
  // reported where the context is next needed.
  void prepareInBackground();

  // --- device memory. Freed blocks are kept for reuse (keyed by size); when an allocation fails the
  // cache is emptied and the allocation retried. Addresses of an older generation() died with the
  // context they came from (after a fault) and must not be used or released.
  uint64_t allocate(size_t bytes, const std::string& forWhat);
  void release(uint64_t address, size_t bytes, uint64_t generation);
  void upload(uint64_t dst, const void* src, size_t bytes, const std::string& forWhat);
  void download(void* dst, uint64_t src, size_t bytes, const std::string& forWhat);
  void fillZero(uint64_t dst, size_t bytes, const std::string& forWhat);
  uint64_t generation() const { return generation_; }
  // A sticky fault happened in this process: CUDA may refuse every later context (driver 580 does),
  // so long-lived processes (the notebook worker) restart themselves.
  bool hadStickyFault() const { return resets_ > 0; }
  // Bytes copied host -> device and device -> host so far (tests check that inputs stay resident).
  uint64_t bytesUploaded() const { return bytesUploaded_; }
  uint64_t bytesDownloaded() const { return bytesDownloaded_; }

  // Compiles (cached), loads and launches grid x numThreads with device-address arguments, then
  // synchronizes and reads the status word. Throws lang::CompileError (unsupported IR), GpuError
  // (CUDA failures).
  // A kernel launched again while alive skips code generation and hashing (its optimized build is
  // remembered by the kernel object).
  GpuLaunchResult launch(const ir::KernelPtr& kernel, const int64_t grid[3], const std::vector<GpuArg>& args,
                         bool programTiming = false);
  // Registers, shared and local memory of a compiled kernel (loads it).
  KernelResources resources(const CompiledKernel& compiled);

  // --- raw CUDA C++ kernels. compileRaw throws GpuError with NVRTC's log when the code does not compile.
  std::shared_ptr<const RawModule> compileRaw(const std::string& code, const std::string& name,
                                              const std::vector<std::string>& options);
  // params: each argument's bytes as the kernel's signature declares them.
  void launchRaw(const RawModule& module, const int64_t grid[3], const int64_t block[3], int sharedBytes,
                 const std::vector<std::vector<unsigned char>>& params);

  // --- device timing (do_bench). Between begin and end, every device operation (kernel launch,
  // library call) is bracketed by CUDA events; end returns the summed milliseconds and how many
  // operations ran.
  void beginTiming();
  std::pair<double, int> endTiming();
  // Runs `work` between beginTiming and endTiming (also when it throws) with the L2 flushed before
  // its first device operation, and returns endTiming's (milliseconds, operations): one do_bench or
  // autotune sample. As in Triton's do_bench, the flush is queued without waiting for it and the
  // start event right behind it, so the GPU is still busy when the operation is launched and the
  // host's launch latency is not counted.
  std::pair<double, int> timeDeviceWork(const std::function<void()>& work);
  // Brackets work issued by `issue` (on the null stream, current context) when timing is on.
  void timed(const std::string& what, const std::function<void()>& issue);
  // Queues (does not wait for) the overwrite of a 256 MB buffer, so that work queued after it starts
  // with a cold L2 (do_bench's flush).
  void flushL2();
  // Makes the runtime's context current on this thread (for libraries such as cuBLAS).
  void makeCurrent(const std::string& forWhat);
  void synchronize(const std::string& forWhat);
  // Checks a CUDA driver result; a sticky error rebuilds the context (see check()).
  void checkResult(CUresult r, const char* call, const std::string& what) { check(r, call, what); }

private:
  GpuRuntime();
  struct Loaded;
  struct Api;
  // `what` names the work in messages: "kernel 'add_kernel'", "the L2 flush", "RawKernel 'vadd'".
  void ensureContext(const std::string& what);
  Loaded& load(const CompiledKernel& compiled, const std::string& what);
  // image: PTX text or a device binary (cubin), as cuModuleLoadData takes either.
  Loaded& loadImage(const std::string& key, const char* image, const std::string& entry, size_t dynamicShared,
                    const std::string& what);
  void check(CUresult r, const char* call, const std::string& what);
  void resetContext();
  void dropCachedBlocks();

  std::recursive_mutex mutex_;
  std::unique_ptr<Api> api_;
  std::string reason_;
  CUcontext context_ = nullptr;
  bool ownContext_ = false;  // made by cuCtxCreate after the primary context could not be revived
  int resets_ = 0;
  uint64_t generation_ = 1;
  uint64_t bytesUploaded_ = 0, bytesDownloaded_ = 0;
  std::map<std::string, std::unique_ptr<Loaded>> modules_;  // by PTX cache key
  std::multimap<size_t, uint64_t> freeBlocks_;              // released allocations by size
  size_t cachedBytes_ = 0;
  uint64_t flushBuffer_ = 0;
  bool timing_ = false;
  bool flushBeforeNextTimed_ = false;
  double timedMs_ = 0;
  int timedOps_ = 0;
  CUevent eventStart_ = nullptr, eventEnd_ = nullptr;
  std::map<std::string, std::shared_ptr<const RawModule>> raw_;
  // Optimized builds by the kernel object they were built from, and whether with program timing.
  // The weak pointer tells the kernel that was built from a later one at a reused address.
  struct LaunchBuild {
    std::weak_ptr<const ir::Kernel> kernel;
    std::shared_ptr<const CompiledKernel> compiled;
  };
  std::map<std::pair<const ir::Kernel*, bool>, LaunchBuild> launchBuilds_;
  std::shared_ptr<const CompiledKernel> buildForLaunch(const ir::KernelPtr& kernel, bool programTiming);
};

}  // namespace tilescope::gpu
