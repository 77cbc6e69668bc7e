#include "core/gpu/runtime/GpuRuntime.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/gpu/runtime/LaunchStream.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "core/ir/Numerics.h"

namespace tilescope::gpu {

namespace {
// Driver enum values we use (stable ABI; spelled out so the build needs no cuda.h).
constexpr int kAttrMaxThreads = 0, kAttrSharedBytes = 1, kAttrLocalBytes = 3, kAttrNumRegs = 4, kAttrMaxDynamicShared = 8;

bool isStickyError(CUresult r) {
  // illegal address, launch timeout, launch failed, misaligned address, illegal instruction,
  // hardware stack error, invalid pc, assert/trap: the context is unusable afterwards.
  const int c = static_cast<int>(r);
  return c == 700 || c == 702 || c == 719 || c == 716 || c == 715 || c == 714 || c == 718 || c == 710 || c == 999;
}
}  // namespace

struct GpuRuntime::Api {
  CUresult (*devicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*devicePrimaryCtxReset)(CUdevice) = nullptr;
  CUresult (*devicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*ctxCreate)(CUcontext*, unsigned, CUdevice) = nullptr;   // optional (recovery)
  CUresult (*ctxDestroy)(CUcontext) = nullptr;                       // optional (recovery)
  CUresult (*ctxSetCurrent)(CUcontext) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;
  CUresult (*moduleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*moduleUnload)(CUmodule) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*funcGetAttribute)(int*, int, CUfunction) = nullptr;
  CUresult (*funcSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*memFree)(CUdeviceptr) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*memsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                           void**, void**) = nullptr;
  CUresult (*deviceGet)(CUdevice*, int) = nullptr;
  CUresult (*eventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*eventDestroy)(CUevent) = nullptr;
  CUresult (*eventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*eventSynchronize)(CUevent) = nullptr;
  CUresult (*eventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*memsetD32)(CUdeviceptr, unsigned, size_t) = nullptr;
  CUresult (*memsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
};

struct GpuRuntime::Loaded {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  KernelResources resources;
  bool launchedOnce = false;  // a launch of it waited for the GPU and found no failure
};

namespace {

// TILESCOPE_GPU_SYNC=1: every launch waits for the GPU and is checked where it runs.
bool syncEveryLaunch() {
  static const bool sync = [] {
    const char* v = std::getenv("TILESCOPE_GPU_SYNC");
    return v && *v && *v != '0';
  }();
  return sync;
}

// TILESCOPE_GPU_LOAD=ptx always hands the driver the PTX, to compare its compiler's code with NVRTC's.
bool loadsPtx() {
  static const bool loadPtx = [] {
    const char* v = std::getenv("TILESCOPE_GPU_LOAD");
    return v && std::string(v) == "ptx";
  }();
  return loadPtx;
}

}  // namespace

GpuRuntime& GpuRuntime::instance() {
  // Never destroyed: tensors released during static destruction still give their device memory back.
  static GpuRuntime* runtime = new GpuRuntime();
  return *runtime;
}

GpuRuntime::GpuRuntime() : api_(std::make_unique<Api>()), status_(std::make_unique<LaunchStatus>()) {
  const CudaDriver& d = CudaDriver::instance();
  if (!d.available()) {
    reason_ = d.unavailableReason();
    return;
  }
  bool ok = true;
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(d.symbol(name));
    if (!fn) {
      ok = false;
      reason_ += std::string(reason_.empty() ? "" : ", ") + name;
    }
  };
  bind(api_->devicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(api_->devicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2");
  bind(api_->devicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  bind(api_->ctxSetCurrent, "cuCtxSetCurrent");
  bind(api_->ctxSynchronize, "cuCtxSynchronize");
  bind(api_->moduleLoadData, "cuModuleLoadData");
  bind(api_->moduleUnload, "cuModuleUnload");
  bind(api_->moduleGetFunction, "cuModuleGetFunction");
  bind(api_->funcGetAttribute, "cuFuncGetAttribute");
  bind(api_->funcSetAttribute, "cuFuncSetAttribute");
  bind(api_->memAlloc, "cuMemAlloc_v2");
  bind(api_->memFree, "cuMemFree_v2");
  bind(api_->memcpyHtoD, "cuMemcpyHtoD_v2");
  bind(api_->memcpyDtoH, "cuMemcpyDtoH_v2");
  bind(api_->memsetD8, "cuMemsetD8_v2");
  bind(api_->launchKernel, "cuLaunchKernel");
  bind(api_->deviceGet, "cuDeviceGet");
  bind(api_->eventCreate, "cuEventCreate");
  bind(api_->eventDestroy, "cuEventDestroy_v2");
  bind(api_->eventRecord, "cuEventRecord");
  bind(api_->eventSynchronize, "cuEventSynchronize");
  bind(api_->memsetD32, "cuMemsetD32_v2");
  bind(api_->memsetD32Async, "cuMemsetD32Async");
  // CUDA 12.8 renamed it; older drivers only have the first name.
  api_->eventElapsedTime = reinterpret_cast<decltype(api_->eventElapsedTime)>(d.symbol("cuEventElapsedTime_v2"));
  if (!api_->eventElapsedTime) bind(api_->eventElapsedTime, "cuEventElapsedTime");
  api_->ctxCreate = reinterpret_cast<decltype(api_->ctxCreate)>(d.symbol("cuCtxCreate_v2"));
  api_->ctxDestroy = reinterpret_cast<decltype(api_->ctxDestroy)>(d.symbol("cuCtxDestroy_v2"));
  if (!ok) {
    reason_ = "the CUDA driver lacks " + reason_;
    return;
  }
  reason_.clear();
  GpuCompiler::warmUpInBackground(GpuCompiler::defaultArch());
}

void GpuRuntime::prepareInBackground() {
  if (!available()) return;
  static std::once_flag once;
  std::call_once(once, [this] {
    static std::thread worker([this] {
      std::lock_guard<std::recursive_mutex> lock(mutex_);
      try {
        ensureContext("preparing the GPU");
      } catch (const std::exception&) {
        // context_ stays empty; the next call that needs it tries again and reports the error there.
      }
    });
    std::atexit([] {
      if (worker.joinable()) worker.join();
    });
  });
}

bool GpuRuntime::available() const { return reason_.empty(); }
std::string GpuRuntime::unavailableReason() const { return reason_; }

void GpuRuntime::check(CUresult r, const char* call, const std::string& what) {
  if (r == CUDA_SUCCESS) return;
  const std::string text = std::string(call) + " failed for " + what + ": " + CudaDriver::instance().errorString(r) +
                           " (CUDA error " + std::to_string(static_cast<int>(r)) + ")";
  if (isStickyError(r)) {
    resetContext();
    throw GpuError(text + "; the CUDA context is unusable after this error (the next launch tries a fresh one; "
                          "if the driver refuses, restart the program or the notebook's kernel process)");
  }
  throw GpuError(text);
}

void GpuRuntime::resetContext() {
  // Modules and buffers of the broken context die with it. A sticky error poisons the context:
  // drop our reference to it and reset it; ensureContext() makes a new one (a private context when
  // the primary one cannot be revived).
  modules_.clear();
  freeBlocks_.clear();
  releasedWhileQueued_.clear();
  cachedBytes_ = 0;
  flushBuffer_ = 0;
  eventStart_ = eventEnd_ = nullptr;
  ++generation_;  // every device address handed out so far is dead
  api_->ctxSetCurrent(nullptr);
  CUdevice dev{};
  if (api_->deviceGet(&dev, 0) == CUDA_SUCCESS) {
    if (ownContext_) {
      if (api_->ctxDestroy) api_->ctxDestroy(context_);
    } else if (context_) {
      api_->devicePrimaryCtxRelease(dev);
      api_->devicePrimaryCtxReset(dev);
    }
  }
  context_ = nullptr;
  ownContext_ = false;
  ++resets_;
}

void GpuRuntime::ensureContext(const std::string& what) {
  if (!available()) throw GpuError("no usable CUDA driver: " + reason_);
  if (!context_) {
    CUdevice dev{};
    check(api_->deviceGet(&dev, 0), "cuDeviceGet", what);
    CUresult r = api_->devicePrimaryCtxRetain(&context_, dev);
    if (r == CUDA_SUCCESS) r = api_->ctxSetCurrent(context_);
    if (r != CUDA_SUCCESS && resets_ > 0 && api_->ctxCreate) {
      // The primary context stays broken after a fault on some drivers: use a context of our own.
      if (context_) api_->devicePrimaryCtxRelease(dev);
      context_ = nullptr;
      const CUresult created = api_->ctxCreate(&context_, 0, dev);
      if (created == CUDA_SUCCESS) {
        ownContext_ = true;
        r = CUDA_SUCCESS;
      }
    }
    if (r != CUDA_SUCCESS) {
      context_ = nullptr;
      throw GpuError("cannot create a CUDA context for " + what + ": " + CudaDriver::instance().errorString(r) +
                     (resets_ > 0 ? " (after an earlier fault the driver keeps this process's GPU state broken; restart "
                                    "the program or the notebook's kernel process)"
                                  : ""));
    }
  }
  check(api_->ctxSetCurrent(context_), "cuCtxSetCurrent", what);
}

GpuRuntime::Loaded& GpuRuntime::load(const CompiledKernel& compiled, const std::string& what) {
  // A device binary loads as is; PTX is compiled by the driver (ptxas) first.
  const bool binary = !compiled.cubin.empty() && !loadsPtx();
  return loadImage(compiled.cacheKey + (binary ? "" : ".ptx"), binary ? compiled.cubin.data() : compiled.ptx.c_str(),
                   compiled.cuda.entryName, compiled.cuda.dynamicSharedBytes, what);
}

GpuRuntime::Loaded& GpuRuntime::loadImage(const std::string& key, const char* image, const std::string& name,
                                          size_t dynamicShared, const std::string& what) {
  ensureContext(what);
  auto it = modules_.find(key);
  if (it != modules_.end()) return *it->second;
  auto l = std::make_unique<Loaded>();
  check(api_->moduleLoadData(&l->module, image), "cuModuleLoadData", what);
  check(api_->moduleGetFunction(&l->function, l->module, name.c_str()), "cuModuleGetFunction", what);
  KernelResources& r = l->resources;
  check(api_->funcGetAttribute(&r.registers, kAttrNumRegs, l->function), "cuFuncGetAttribute", what);
  check(api_->funcGetAttribute(&r.staticSharedBytes, kAttrSharedBytes, l->function), "cuFuncGetAttribute", what);
  check(api_->funcGetAttribute(&r.localBytes, kAttrLocalBytes, l->function), "cuFuncGetAttribute", what);
  check(api_->funcGetAttribute(&r.maxThreadsPerBlock, kAttrMaxThreads, l->function), "cuFuncGetAttribute", what);
  r.dynamicSharedBytes = static_cast<int>(dynamicShared);
  if (dynamicShared > 48 * 1024) {
    // Device 0's opt-in limit, read once when the driver enumerated the devices.
    const int optin = CudaDriver::instance().devices().front().maxSharedBytesPerProgram;
    if (static_cast<int>(dynamicShared) + r.staticSharedBytes > optin)
      throw GpuError(what + " needs " + std::to_string(dynamicShared) +
                     " bytes of shared memory per program and the device allows " + std::to_string(optin) +
                     "; use smaller blocks or --backend sim");
    check(api_->funcSetAttribute(l->function, kAttrMaxDynamicShared, static_cast<int>(dynamicShared)),
          "cuFuncSetAttribute", what);
  }
  Loaded& ref = *l;
  modules_.emplace(key, std::move(l));
  return ref;
}

KernelResources GpuRuntime::resources(const CompiledKernel& compiled) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return load(compiled, "kernel '" + compiled.cuda.entryName + "'").resources;
}

// --- device memory

void GpuRuntime::dropCachedBlocks() {
  if (status_->used()) {  // queued launches may still use the blocks; once done, theirs are free too
    api_->ctxSynchronize();
    checkLaunches("freeing cached GPU memory", false);
  }
  for (auto& [bytes, address] : freeBlocks_) api_->memFree(address);
  freeBlocks_.clear();
  cachedBytes_ = 0;
}

uint64_t GpuRuntime::allocate(size_t bytes, const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
  bytes = std::max<size_t>(bytes, 256);
  if (auto it = freeBlocks_.find(bytes); it != freeBlocks_.end()) {
    const uint64_t address = it->second;
    freeBlocks_.erase(it);
    cachedBytes_ -= bytes;
    return address;
  }
  CUdeviceptr p = 0;
  CUresult r = api_->memAlloc(&p, bytes);
  if (r != CUDA_SUCCESS && (!freeBlocks_.empty() || !releasedWhileQueued_.empty())) {
    dropCachedBlocks();
    r = api_->memAlloc(&p, bytes);
  }
  if (r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */)
    throw GpuError("out of GPU memory allocating " + std::to_string(bytes) + " bytes for " + forWhat +
                   "; free tensors you no longer need (del x) or use smaller sizes");
  check(r, "cuMemAlloc", forWhat);
  return p;
}

void GpuRuntime::release(uint64_t address, size_t bytes, uint64_t generation) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!address || generation != generation_ || !context_) return;  // died with an older context
  bytes = std::max<size_t>(bytes, 256);
  if (status_ && status_->used()) {
    // Launches still queued may use the block (a kernel's TMA scratch, a tensor freed right after
    // the launch that reads it): it is reused only after the next synchronisation finds them done.
    releasedWhileQueued_.emplace_back(address, bytes);
    return;
  }
  // Keep up to 4 GiB of freed blocks: do_bench allocates the same output sizes over and over.
  constexpr size_t kMaxCachedBytes = size_t{4} << 30;
  if (cachedBytes_ + bytes <= kMaxCachedBytes) {
    freeBlocks_.emplace(bytes, address);
    cachedBytes_ += bytes;
    return;
  }
  api_->ctxSetCurrent(context_);
  if (status_->used()) api_->ctxSynchronize();  // queued launches may still use the block
  api_->memFree(address);
}

void GpuRuntime::upload(uint64_t dst, const void* src, size_t bytes, const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
  beforeNullStreamWork(forWhat);
  if (bytes) check(api_->memcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", forWhat);
  bytesUploaded_ += bytes;
}

void GpuRuntime::download(void* dst, uint64_t src, size_t bytes, const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
  beforeNullStreamWork(forWhat);
  if (bytes) checkPending(api_->memcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", forWhat);
  nullStreamWork_ = false;  // the copy returned once the null stream's work before it was done
  bytesDownloaded_ += bytes;
  // The copy waited for the launches before it: check them, keeping a failure for the next launch
  // or synchronize() (this read's callers cannot raise; Storage::data() reads through it).
  if (status_->used()) checkLaunches(forWhat, false);
}

void GpuRuntime::fillZero(uint64_t dst, size_t bytes, const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
  beforeNullStreamWork(forWhat);
  if (bytes) check(api_->memsetD8(dst, 0, bytes), "cuMemsetD8", forWhat);
}

void GpuRuntime::makeCurrent(const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
}

void GpuRuntime::synchronize(const std::string& forWhat) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ensureContext(forWhat);
  checkPending(api_->ctxSynchronize(), "cuCtxSynchronize", forWhat);
  launchedOffNullStream_ = nullStreamWork_ = false;
  checkLaunches(forWhat, true);
}

void GpuRuntime::beforeLaunchOn(CUstream stream, const std::string& what) {
  if (!stream) return;
  if (nullStreamWork_) {  // an upload, zero fill or status clear the kernel must see
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize (before launching on the current stream)", what);
    nullStreamWork_ = false;
  }
  launchedOffNullStream_ = true;
}

void GpuRuntime::beforeNullStreamWork(const std::string& what) {
  if (launchedOffNullStream_) {  // kernels on another stream may still use the memory
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize", what);
    launchedOffNullStream_ = false;
  }
  nullStreamWork_ = true;
}

namespace {
std::atomic<bool> failureKept{false};  // GpuRuntime::keptFailure_ holds one (read without the runtime)
}  // namespace

bool GpuRuntime::launchesPending() { return LaunchStatus::anyPending() || failureKept.load(std::memory_order_relaxed); }

void GpuRuntime::checkPending(CUresult r, const char* call, const std::string& what, size_t ownLaunches) {
  if (r != CUDA_SUCCESS) check(r, call, pendingWhat(what, ownLaunches));  // named only on failure: O(launches)
}

std::string GpuRuntime::pendingWhat(const std::string& what, size_t ownLaunches) const {
  if (status_->used() <= ownLaunches) return what;
  return what + " (kernels launched since the last synchronisation, one of which may have caused this: " +
         status_->pendingKernels() + ")";
}

uint64_t GpuRuntime::takeStatusSlot(const std::shared_ptr<const CompiledKernel>& compiled, const std::string& name,
                                    const std::string& what) {
  if (status_->generation != generation_) {  // the area died with an older context, and its launches
    status_->clear();
    status_->area = 0;
  }
  if (!status_->area) {
    status_->area = allocate(LaunchStatus::kSlots * LaunchStatus::kSlotBytes, "the status words of kernel launches");
    status_->generation = generation_;
    beforeNullStreamWork(what);
    check(api_->memsetD8(status_->area, 0, LaunchStatus::kSlots * LaunchStatus::kSlotBytes), "cuMemsetD8", what);
  }
  if (status_->full()) {
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize", what);
    checkLaunches(what, true);
  }
  return status_->add(compiled, name);
}

void GpuRuntime::raiseKeptFailure() {
  if (!keptFailure_) return;
  const GpuKernelFailure failure = std::move(*keptFailure_);
  keptFailure_.reset();
  failureKept.store(false, std::memory_order_relaxed);
  throw failure;
}

std::optional<lang::Diagnostic> GpuRuntime::checkLaunches(const std::string& where, bool raise, bool lastLaunchWaited) {
  if (status_->generation != generation_) {
    status_->clear();
    status_->area = 0;
  }
  if (status_->used()) {
    const size_t used = status_->used();
    beforeNullStreamWork(where);  // the status read below must see kernels queued on other streams
    std::vector<uint32_t> words(used * 4);
    check(api_->memcpyDtoH(words.data(), status_->area, used * LaunchStatus::kSlotBytes), "cuMemcpyDtoH",
          "reading the status of kernel launches");
    std::optional<LaunchStatus::Failure> failure = status_->firstFailure(words);
    if (failure) {
      // Kernels write their slot only when they fail: the rest are zero already.
      nullStreamWork_ = true;  // the next launch on another stream waits for this clear
      check(api_->memsetD8(status_->area, 0, used * LaunchStatus::kSlotBytes), "cuMemsetD8",
            "clearing the status of kernel launches");
      status_->clear();
      if (lastLaunchWaited && failure->slot + 1 == used && !keptFailure_) return std::move(failure->diagnostic);
      failure->diagnostic.message +=
            " (found at " + where +
            ": GPU launches run asynchronously, so code after the launch ran before this was found; "
            "TILESCOPE_GPU_SYNC=1 checks every launch where it runs)";
      if (!keptFailure_) keptFailure_.emplace(std::move(failure->diagnostic), failure->kernel);
      failureKept.store(true, std::memory_order_relaxed);
    }
    status_->clear();
    // Every queued launch has finished (the status read waited for them): their blocks are free.
    std::vector<std::pair<uint64_t, size_t>> released = std::move(releasedWhileQueued_);
    releasedWhileQueued_.clear();
    for (const auto& [address, bytes] : released) release(address, bytes, generation_);
  }
  if (raise) raiseKeptFailure();
  return std::nullopt;
}

// --- timing

void GpuRuntime::beginTiming() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  timing_ = true;
  timedMs_ = 0;
  timedOps_ = 0;
}

std::pair<double, int> GpuRuntime::endTiming() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  timing_ = false;
  flushBeforeNextTimed_ = false;
  return {timedMs_, timedOps_};
}

void GpuRuntime::timed(const std::string& what, const std::function<void()>& issue, CUstream stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!timing_) {
    issue();
    return;
  }
  ensureContext(what);
  if (!eventStart_) {
    check(api_->eventCreate(&eventStart_, 0), "cuEventCreate", what);
    check(api_->eventCreate(&eventEnd_, 0), "cuEventCreate", what);
  }
  if (flushBeforeNextTimed_) {
    flushBeforeNextTimed_ = false;
    flushL2(stream);
  }
  check(api_->eventRecord(eventStart_, stream), "cuEventRecord", what);
  issue();
  check(api_->eventRecord(eventEnd_, stream), "cuEventRecord", what);
  check(api_->eventSynchronize(eventEnd_), "cuEventSynchronize", what);
  float ms = 0;
  check(api_->eventElapsedTime(&ms, eventStart_, eventEnd_), "cuEventElapsedTime", what);
  timedMs_ += ms;
  ++timedOps_;
}

std::pair<double, int> GpuRuntime::timeDeviceWork(const std::function<void()>& work) {
  beginTiming();
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    flushBeforeNextTimed_ = true;
  }
  try {
    work();
  } catch (...) {
    endTiming();
    throw;
  }
  const std::pair<double, int> measured = endTiming();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (status_->used() || keptFailure_) {
    // Every timed operation waited for its end event: the launches are done.
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize", "the end of a do_bench measurement");
    checkLaunches("the end of a do_bench measurement", true);
  }
  return measured;
}

void GpuRuntime::flushL2(CUstream stream) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  constexpr size_t kFlushBytes = size_t{256} << 20;  // Triton's do_bench clears a 256 MB buffer
  ensureContext("the L2 flush");
  if (!flushBuffer_) flushBuffer_ = allocate(kFlushBytes, "the L2 flush");
  beforeLaunchOn(stream, "the L2 flush");
  check(api_->memsetD32Async(flushBuffer_, 0, kFlushBytes / 4, stream), "cuMemsetD32Async", "the L2 flush");
}

// --- launches

std::shared_ptr<const CompiledKernel> GpuRuntime::buildForLaunch(const ir::KernelPtr& kernel, bool programTiming) {
  const auto key = std::make_pair(kernel.get(), programTiming);
  if (auto it = launchBuilds_.find(key); it != launchBuilds_.end()) {
    if (it->second.kernel.lock() == kernel) return it->second.compiled;
    launchBuilds_.erase(it);  // that kernel died; this one lives at its address
  }
  CudaCodegenOptions codegen;
  codegen.programTiming = programTiming;
  // A quick build may run the first launch while the optimized one compiles; timed launches wait for
  // the optimized build, so that no measurement sees the quick one.
  std::shared_ptr<const CompiledKernel> compiled =
      GpuCompiler::instance().compileForLaunch(*kernel, GpuCompiler::defaultArch(), codegen, !timing_ && !programTiming);
  if (compiled->tier == CompileTier::Optimized) {
    if (launchBuilds_.size() >= 256)
      std::erase_if(launchBuilds_, [](const auto& entry) { return entry.second.kernel.expired(); });
    launchBuilds_[key] = LaunchBuild{kernel, compiled};
  }
  return compiled;
}

GpuLaunchResult GpuRuntime::launch(const ir::KernelPtr& kernelPtr, const int64_t grid[3], const std::vector<GpuArg>& args,
                                   bool programTiming) {
  const ir::Kernel& kernel = *kernelPtr;
  const auto entered = std::chrono::steady_clock::now();
  const CUstream stream = LaunchStream::current();  // before the lock: its source may run Python
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  GpuLaunchResult result;
  ensureContext("kernel '" + kernel.name + "'");
  const auto ready = std::chrono::steady_clock::now();
  result.waitSeconds = std::chrono::duration<double>(ready - entered).count();
  result.compiled = buildForLaunch(kernelPtr, programTiming);
  const CompiledKernel& ck = *result.compiled;
  const std::string& name = kernel.name;
  const std::string what = "kernel '" + name + "'";
  if (grid[0] > 2147483647 || grid[1] > 65535 || grid[2] > 65535)
    throw GpuError("grid (" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
                   ") of kernel '" + name + "' exceeds the device's limits (2^31-1, 65535, 65535)");
  const auto compiled = std::chrono::steady_clock::now();
  Loaded& loaded = load(ck, what);
  result.resources = loaded.resources;
  result.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - compiled).count();

  raiseKeptFailure();  // an earlier launch's failure that a read of device memory found

  // Parameter values in the kernel's runtime-parameter order, then the status pointer.
  std::vector<const ir::KernelParam*> params = kernel.runtimeParams();
  if (params.size() != args.size())
    throw lang::InternalError("gpu launch of '" + name + "': " + std::to_string(args.size()) + " arguments for " +
                              std::to_string(params.size()) + " parameters");
  std::vector<std::array<unsigned char, 8>> storage(params.size() + 3);
  std::vector<void*> pointers;
  for (size_t i = 0; i < params.size(); ++i) {
    packArgument(params[i]->type, args[i], storage[i].data(), params[i]->range);
    pointers.push_back(storage[i].data());
  }
  // The status words (code, pid) a device assertion or a zero loop step writes: this launch's slot.
  const uint64_t status = takeStatusSlot(result.compiled, name, what);
  std::memcpy(storage[params.size()].data(), &status, 8);
  pointers.push_back(storage[params.size()].data());
  const size_t programs = static_cast<size_t>(grid[0] * grid[1] * grid[2]);
  // TMA's tensor maps, built by each program in its slot (CudaKernelSource::scratchBytesPerProgram).
  const size_t scratchBytes = programs * ck.cuda.scratchBytesPerProgram;
  uint64_t scratch = 0;
  struct ScratchGuard {
    GpuRuntime& rt;
    uint64_t& address;
    size_t bytes;
    uint64_t generation;
    ~ScratchGuard() { rt.release(address, bytes, generation); }
  } scratchGuard{*this, scratch, scratchBytes, generation_};
  if (scratchBytes > 0) {
    scratch = allocate(scratchBytes, "the tensor maps of kernel '" + name + "'");
    std::memcpy(storage[params.size() + 1].data(), &scratch, 8);
    pointers.push_back(storage[params.size() + 1].data());
  }
  uint64_t timing = 0;
  const uint64_t timingGeneration = generation_;
  struct TimingGuard {
    GpuRuntime& rt;
    uint64_t& address;
    size_t bytes;
    uint64_t generation;
    ~TimingGuard() { rt.release(address, bytes, generation); }
  } timingGuard{*this, timing, programs * 24, timingGeneration};
  if (programTiming) {
    timing = allocate(programs * 24, "the program timing of kernel '" + name + "'");
    std::memcpy(storage.back().data(), &timing, 8);
    pointers.push_back(storage.back().data());
  }

  const auto t0 = std::chrono::steady_clock::now();
  beforeLaunchOn(stream, what);
  timed(what, [&] {
    checkPending(api_->launchKernel(loaded.function, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
                             static_cast<unsigned>(grid[2]), static_cast<unsigned>(ck.cuda.numThreads), 1, 1,
                             static_cast<unsigned>(ck.cuda.dynamicSharedBytes), stream, pointers.data(), nullptr),
          "cuLaunchKernel", what, 1);
  }, stream);
  // The first launch of a loaded kernel waits for the GPU (a kernel that fails on its first run is
  // reported at its launch), and so does one that records program timing (read back below).
  if (programTiming || !loaded.launchedOnce || syncEveryLaunch()) {
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize (after launching the kernel)", what, 1);
    result.kernelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (programTiming) {
      result.programTiming.resize(programs * 3);
      check(api_->memcpyDtoH(result.programTiming.data(), timing, programs * 24), "cuMemcpyDtoH", what);
    }
    result.failure = checkLaunches("the launch of kernel '" + name + "'", true, true);
    loaded.launchedOnce = !result.failure;
  } else {
    result.kernelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return result;
}

void GpuRuntime::packArgument(const ir::Type& t, const GpuArg& a, unsigned char slot[8], const lang::SourceRange& range) {
  std::memset(slot, 0, 8);
  if (t.isPointer()) {
    const uint64_t raw = static_cast<uint64_t>(a.intValue);
    std::memcpy(slot, &raw, 8);
  } else if (t.dtype() == ir::DType::FP32) {
    const float f = static_cast<float>(a.isFloat ? a.floatValue : static_cast<double>(a.intValue));
    std::memcpy(slot, &f, 4);
  } else if (t.dtype() == ir::DType::FP64) {
    const double f = a.isFloat ? a.floatValue : static_cast<double>(a.intValue);
    std::memcpy(slot, &f, 8);
  } else if (ir::isInt(t.dtype())) {
    const int64_t v = a.isFloat ? static_cast<int64_t>(a.floatValue) : a.intValue;
    std::memcpy(slot, &v, static_cast<size_t>(std::max(1, ir::bitWidth(t.dtype()) / 8)));  // little-endian
    if (t.dtype() == ir::DType::I1) slot[0] = v != 0;
  } else if (t.dtype() == ir::DType::FP16 || t.dtype() == ir::DType::BF16) {
    // Passed as its 16 bits (the kernel's ts_u16 parameter), rounded like the simulator rounds it.
    const uint16_t bits =
        static_cast<uint16_t>(sim::floatToBits(t.dtype(), a.isFloat ? a.floatValue : static_cast<double>(a.intValue)));
    std::memcpy(slot, &bits, 2);
  } else {
    throw lang::CompileError(lang::Diagnostic::error(
        range, "a " + std::string(ir::dtypeName(t.dtype())) + " scalar parameter is not supported on the GPU backend yet; use --backend sim"));
  }
}

std::shared_ptr<const GpuLaunchHandle> GpuRuntime::launchHandle(const ir::KernelPtr& kernel) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!context_ || !kernel) return nullptr;
  auto build = launchBuilds_.find(std::make_pair(kernel.get(), false));
  if (build == launchBuilds_.end() || build->second.kernel.lock() != kernel) return nullptr;
  const std::shared_ptr<const CompiledKernel>& compiled = build->second.compiled;
  // A kernel that builds TMA tensor maps needs its per-launch scratch, which only launch() gives.
  if (compiled->cuda.scratchBytesPerProgram > 0) return nullptr;
  const bool binary = !compiled->cubin.empty() && !loadsPtx();
  auto module = modules_.find(compiled->cacheKey + (binary ? "" : ".ptx"));
  if (module == modules_.end() || !module->second->launchedOnce) return nullptr;
  auto handle = std::make_shared<GpuLaunchHandle>();
  handle->compiled = compiled;
  handle->function = module->second->function;
  handle->generation = generation_;
  for (const ir::KernelParam* p : kernel->runtimeParams()) handle->paramTypes.push_back(p->type);
  handle->name = kernel->name;
  handle->what = "kernel '" + kernel->name + "'";
  return handle;
}

bool GpuRuntime::launchAgain(const GpuLaunchHandle& h, const int64_t grid[3], void** params) {
  const CUstream stream = LaunchStream::current();  // before the lock: its source may run Python
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (h.generation != generation_ || !context_) return false;
  raiseKeptFailure();
  if (grid[0] > 2147483647 || grid[1] > 65535 || grid[2] > 65535)
    throw GpuError("grid (" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
                   ") of kernel '" + h.name + "' exceeds the device's limits (2^31-1, 65535, 65535)");
  check(api_->ctxSetCurrent(context_), "cuCtxSetCurrent", h.what);
  uint64_t status = takeStatusSlot(h.compiled, h.name, h.what);
  params[h.paramTypes.size()] = &status;
  beforeLaunchOn(stream, h.what);
  const CudaKernelSource& cuda = h.compiled->cuda;
  auto issue = [&] {
    checkPending(api_->launchKernel(h.function, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
                             static_cast<unsigned>(grid[2]), static_cast<unsigned>(cuda.numThreads), 1, 1,
                             static_cast<unsigned>(cuda.dynamicSharedBytes), stream, params, nullptr),
          "cuLaunchKernel", h.what, 1);
  };
  if (timing_) timed(h.what, issue, stream);
  else issue();
  if (syncEveryLaunch()) {
    checkPending(api_->ctxSynchronize(), "cuCtxSynchronize (after launching the kernel)", h.what, 1);
    if (std::optional<lang::Diagnostic> failure = checkLaunches("the launch of kernel '" + h.name + "'", true, true))
      throw GpuKernelFailure(std::move(*failure), h.name);
  }
  return true;
}

std::shared_ptr<const RawModule> GpuRuntime::compileRaw(const std::string& code, const std::string& name,
                                                        const std::vector<std::string>& options) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const Nvrtc& nvrtc = Nvrtc::instance();
  if (!nvrtc.available()) throw GpuError("RawKernel needs NVRTC: " + nvrtc.unavailableReason());
  auto m = std::make_shared<RawModule>();
  m->name = name;
  m->arch = GpuCompiler::defaultArch();
  std::string keyText = code + '\0' + name + '\0' + m->arch + '\0' + nvrtc.version();
  for (const std::string& o : options) keyText += '\0' + o;
  m->cacheKey = "raw" + GpuCompiler::hashText(keyText);
  if (auto it = raw_.find(m->cacheKey); it != raw_.end()) return it->second;
  const NvrtcOutput r = nvrtc.compileToPtx(code, name + ".cu", m->arch, options);
  m->nvrtcLog = r.log;
  if (!r.ok) throw GpuError("the CUDA C++ of RawKernel '" + name + "' does not compile:\n" + r.log);
  m->ptx = r.ptx;
  raw_[m->cacheKey] = m;
  return m;
}

void GpuRuntime::launchRaw(const RawModule& module, const int64_t grid[3], const int64_t block[3], int sharedBytes,
                           const std::vector<std::vector<unsigned char>>& params) {
  const CUstream stream = LaunchStream::current();  // before the lock: its source may run Python
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string& name = module.name;
  const std::string what = "RawKernel '" + name + "'";
  Loaded& loaded = loadImage(module.cacheKey, module.ptx.c_str(), name, static_cast<size_t>(std::max(0, sharedBytes)), what);
  std::vector<void*> pointers;
  for (const auto& p : params) pointers.push_back(const_cast<unsigned char*>(p.data()));
  beforeLaunchOn(stream, what);
  timed(what, [&] {
    checkPending(api_->launchKernel(loaded.function, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
                             static_cast<unsigned>(grid[2]), static_cast<unsigned>(block[0]), static_cast<unsigned>(block[1]),
                             static_cast<unsigned>(block[2]), static_cast<unsigned>(std::max(0, sharedBytes)), stream,
                             pointers.data(), nullptr),
          "cuLaunchKernel", what);
  }, stream);
  check(api_->ctxSynchronize(), "cuCtxSynchronize (after launching the kernel)", what);
}

}  // namespace tilescope::gpu
