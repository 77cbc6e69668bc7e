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
#include "core/gpu/runtime/LaunchStatus.h"

namespace tilescope::gpu {

// A CUDA call failed: "cuLaunchKernel failed for kernel 'add_kernel': an illegal memory access...".
class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A kernel's failure (a device assertion, a zero loop step) found when its launch was checked: the
// diagnostic names the kernel's file:line:col and the program.
class GpuKernelFailure : public GpuError {
public:
  GpuKernelFailure(lang::Diagnostic diagnostic, std::string kernel)
      : GpuError(diagnostic.range.str() + ": " + diagnostic.message), diagnostic_(std::move(diagnostic)),
        kernel_(std::move(kernel)) {}
  const lang::Diagnostic& diagnostic() const { return diagnostic_; }
  const std::string& kernel() const { return kernel_; }

private:
  lang::Diagnostic diagnostic_;
  std::string kernel_;
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
  double kernelSeconds = 0;  // queuing the launch (host clock); with its run when the launch waited for the GPU
  // This launch's device assertion or zero loop step, with the pid, when it waited for the GPU
  // (an asynchronous launch's failure is thrown, as GpuKernelFailure, where it is found).
  std::optional<lang::Diagnostic> failure;
  double waitSeconds = 0;    // waiting for the runtime (another launch, the context's creation)
  double loadSeconds = 0;    // cuModuleLoadData (the driver's PTX -> SASS) and attributes; 0 when loaded
  // With programTiming: per program (linear index x + y*gx + z*gx*gy) its start and end time
  // (%globaltimer, ns) and SM (%smid), 3 words each.
  std::vector<uint64_t> programTiming;
};

// A kernel built, loaded and launched once (that launch waited for the GPU): what launchAgain needs
// to launch it again without looking anything up. Valid while the context lives (generation).
struct GpuLaunchHandle {
  std::shared_ptr<const CompiledKernel> compiled;
  CUfunction function = nullptr;
  uint64_t generation = 0;
  std::vector<ir::Type> paramTypes;  // the kernel's runtime parameters, in order
  std::string name;
  std::string what;  // "kernel 'add_kernel'"
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

  // Compiles (cached), loads and queues grid x numThreads with device-address arguments (waiting for
  // the GPU only at a kernel's first launch, for program timing, or with TILESCOPE_GPU_SYNC=1).
  // Throws lang::CompileError (unsupported IR), GpuError (CUDA failures), GpuKernelFailure (an
  // earlier launch's failure found since).
  // A kernel launched again while alive skips code generation and hashing (its optimized build is
  // remembered by the kernel object).
  GpuLaunchResult launch(const ir::KernelPtr& kernel, const int64_t grid[3], const std::vector<GpuArg>& args,
                         bool programTiming = false);
  // The handle of a kernel whose optimized build this runtime loaded and launched before (nullptr
  // otherwise: launch() it first).
  std::shared_ptr<const GpuLaunchHandle> launchHandle(const ir::KernelPtr& kernel);
  // Queues the kernel again: `params` holds one pointer per runtime parameter (slots packed by
  // packArgument) and one more entry that this call fills with the status slot. False when the
  // handle's context died (launch() then rebuilds). Throws GpuError, GpuKernelFailure (an earlier
  // launch's failure found since) like launch().
  bool launchAgain(const GpuLaunchHandle& handle, const int64_t grid[3], void** params);
  // A runtime argument's bytes as the kernel's parameter of type `type` takes them (8-byte slot).
  // Throws lang::CompileError for a scalar type the GPU backend does not take.
  static void packArgument(const ir::Type& type, const GpuArg& arg, unsigned char slot[8],
                           const lang::SourceRange& range);
  // Whether any launch waits to be checked (does not create the runtime: a simulator run asks too).
  static bool launchesPending();
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
  // Brackets work issued by `issue` (on `stream`, current context) when timing is on.
  void timed(const std::string& what, const std::function<void()>& issue, CUstream stream = nullptr);
  // Queues (does not wait for) the overwrite of a 256 MB buffer on `stream`, so that work queued
  // after it starts with a cold L2 (do_bench's flush).
  void flushL2(CUstream stream = nullptr);
  // Makes the runtime's context current on this thread (for libraries such as cuBLAS).
  void makeCurrent(const std::string& forWhat);
  // Waits for all queued work, then checks the launches since the last check: throws
  // GpuKernelFailure for the first that failed (or one a read of device memory found earlier).
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
  // Asynchronous launches (LaunchStatus): the status slot of the next launch (a full area is
  // synchronised and checked first), and the check of the launches so far after a synchronisation.
  // `raise`: throw the first failure (else it is kept for the next launch or synchronize()).
  // `lastLaunchWaited`: the check follows a launch that waited for the GPU: a failure of that launch
  // (and none before it) is returned instead, for that launch to report.
  uint64_t takeStatusSlot(const std::shared_ptr<const CompiledKernel>& compiled, const std::string& name,
                          const std::string& what);
  std::optional<lang::Diagnostic> checkLaunches(const std::string& where, bool raise, bool lastLaunchWaited = false);
  void raiseKeptFailure();
  // `what` naming the kernels launched since the last check too (beyond the `ownLaunches` last: the
  // launch that reports), as a sticky fault may come from any of them.
  std::string pendingWhat(const std::string& what, size_t ownLaunches = 0) const;
  void checkPending(CUresult r, const char* call, const std::string& what, size_t ownLaunches = 0);
  // Launches go on LaunchStream::current(); memory copies, fills and the status area's clears on the
  // null stream, which does not order with a non-blocking stream (torch.cuda.Stream()): each side
  // waits for the whole context (cuCtxSynchronize covers every stream) when the other has work queued.
  void beforeLaunchOn(CUstream stream, const std::string& what);
  void beforeNullStreamWork(const std::string& what);
  bool launchedOffNullStream_ = false;  // since the last such wait
  bool nullStreamWork_ = false;

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
  std::vector<std::pair<uint64_t, size_t>> releasedWhileQueued_;  // freed while launches were queued
  uint64_t flushBuffer_ = 0;
  bool timing_ = false;
  bool flushBeforeNextTimed_ = false;
  double timedMs_ = 0;
  int timedOps_ = 0;
  CUevent eventStart_ = nullptr, eventEnd_ = nullptr;
  std::map<std::string, std::shared_ptr<const RawModule>> raw_;
  std::unique_ptr<LaunchStatus> status_;
  std::optional<GpuKernelFailure> keptFailure_;  // found by a read that could not raise
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
