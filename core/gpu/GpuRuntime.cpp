#include "core/gpu/GpuRuntime.h"

#include <array>
#include <chrono>
#include <cstring>

#include "core/gpu/CudaDriver.h"

namespace tilescope::gpu {

namespace {
// Driver enum values we use (stable ABI; spelled out so the build needs no cuda.h).
constexpr int kAttrMaxThreads = 0, kAttrSharedBytes = 1, kAttrLocalBytes = 3, kAttrNumRegs = 4, kAttrMaxDynamicShared = 8;
constexpr int kDeviceAttrMaxSharedOptin = 97;

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
  CUresult (*deviceGetAttribute)(int*, int, CUdevice) = nullptr;
};

struct GpuRuntime::Loaded {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  KernelResources resources;
};

std::string KernelResources::str() const {
  return std::to_string(registers) + " registers, " + std::to_string(staticSharedBytes) + "+" +
         std::to_string(dynamicSharedBytes) + " bytes shared, " + std::to_string(localBytes) + " bytes local (spills/stack)";
}

GpuRuntime& GpuRuntime::instance() {
  static GpuRuntime runtime;
  return runtime;
}

GpuRuntime::GpuRuntime() : api_(std::make_unique<Api>()) {
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
  bind(api_->deviceGetAttribute, "cuDeviceGetAttribute");
  api_->ctxCreate = reinterpret_cast<decltype(api_->ctxCreate)>(d.symbol("cuCtxCreate_v2"));
  api_->ctxDestroy = reinterpret_cast<decltype(api_->ctxDestroy)>(d.symbol("cuCtxDestroy_v2"));
  if (!ok) reason_ = "the CUDA driver lacks " + reason_;
  else reason_.clear();
}

bool GpuRuntime::available() const { return reason_.empty(); }
std::string GpuRuntime::unavailableReason() const { return reason_; }

void GpuRuntime::check(CUresult r, const char* call, const std::string& kernel) {
  if (r == CUDA_SUCCESS) return;
  const std::string text = std::string(call) + " failed for kernel '" + kernel + "': " + CudaDriver::instance().errorString(r) +
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

void GpuRuntime::ensureContext(const std::string& kernel) {
  if (!available()) throw GpuError("no usable CUDA driver: " + reason_);
  if (!context_) {
    CUdevice dev{};
    check(api_->deviceGet(&dev, 0), "cuDeviceGet", kernel);
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
      throw GpuError("cannot create a CUDA context for kernel '" + kernel + "': " + CudaDriver::instance().errorString(r) +
                     (resets_ > 0 ? " (after an earlier fault the driver keeps this process's GPU state broken; restart "
                                    "the program or the notebook's kernel process)"
                                  : ""));
    }
  }
  check(api_->ctxSetCurrent(context_), "cuCtxSetCurrent", kernel);
}

GpuRuntime::Loaded& GpuRuntime::load(const CompiledKernel& compiled) {
  const std::string& name = compiled.cuda.entryName;
  ensureContext(name);
  auto it = modules_.find(compiled.cacheKey);
  if (it != modules_.end()) return *it->second;
  auto l = std::make_unique<Loaded>();
  check(api_->moduleLoadData(&l->module, compiled.ptx.c_str()), "cuModuleLoadData", name);
  check(api_->moduleGetFunction(&l->function, l->module, name.c_str()), "cuModuleGetFunction", name);
  KernelResources& r = l->resources;
  check(api_->funcGetAttribute(&r.registers, kAttrNumRegs, l->function), "cuFuncGetAttribute", name);
  check(api_->funcGetAttribute(&r.staticSharedBytes, kAttrSharedBytes, l->function), "cuFuncGetAttribute", name);
  check(api_->funcGetAttribute(&r.localBytes, kAttrLocalBytes, l->function), "cuFuncGetAttribute", name);
  check(api_->funcGetAttribute(&r.maxThreadsPerBlock, kAttrMaxThreads, l->function), "cuFuncGetAttribute", name);
  r.dynamicSharedBytes = static_cast<int>(compiled.cuda.dynamicSharedBytes);
  if (compiled.cuda.dynamicSharedBytes > 48 * 1024) {
    CUdevice dev{};
    int optin = 0;
    check(api_->deviceGet(&dev, 0), "cuDeviceGet", name);
    check(api_->deviceGetAttribute(&optin, kDeviceAttrMaxSharedOptin, dev), "cuDeviceGetAttribute", name);
    if (static_cast<int>(compiled.cuda.dynamicSharedBytes) + r.staticSharedBytes > optin)
      throw GpuError("kernel '" + name + "' needs " + std::to_string(compiled.cuda.dynamicSharedBytes) +
                     " bytes of shared memory per program and the device allows " + std::to_string(optin) +
                     "; use smaller blocks or --backend sim");
    check(api_->funcSetAttribute(l->function, kAttrMaxDynamicShared, static_cast<int>(compiled.cuda.dynamicSharedBytes)),
          "cuFuncSetAttribute", name);
  }
  Loaded& ref = *l;
  modules_.emplace(compiled.cacheKey, std::move(l));
  return ref;
}

KernelResources GpuRuntime::resources(const CompiledKernel& compiled) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return load(compiled).resources;
}

GpuLaunchResult GpuRuntime::launch(const ir::Kernel& kernel, const int64_t grid[3], const std::vector<GpuBuffer>& buffers,
                                   const std::vector<GpuArg>& args) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  GpuLaunchResult result;
  const std::string arch = GpuCompiler::defaultArch();
  result.compiled = GpuCompiler::instance().compile(kernel, arch);
  const CompiledKernel& ck = *result.compiled;
  const std::string& name = kernel.name;
  if (grid[0] > 2147483647 || grid[1] > 65535 || grid[2] > 65535)
    throw GpuError("grid (" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " + std::to_string(grid[2]) +
                   ") of kernel '" + name + "' exceeds the device's limits (2^31-1, 65535, 65535)");
  Loaded& loaded = load(ck);
  result.resources = loaded.resources;

  // Device copies of the buffers, plus the status words.
  std::vector<CUdeviceptr> device(buffers.size(), 0);
  CUdeviceptr status = 0;
  auto freeAll = [&] {
    if (!context_) return;  // reset: the allocations went with the context
    for (CUdeviceptr p : device)
      if (p) api_->memFree(p);
    if (status) api_->memFree(status);
  };
  try {
    for (size_t i = 0; i < buffers.size(); ++i) {
      check(api_->memAlloc(&device[i], std::max<size_t>(buffers[i].bytes, 16)), "cuMemAlloc", name);
      if (buffers[i].bytes) check(api_->memcpyHtoD(device[i], buffers[i].host, buffers[i].bytes), "cuMemcpyHtoD", name);
    }
    check(api_->memAlloc(&status, 16), "cuMemAlloc", name);
    check(api_->memsetD8(status, 0, 16), "cuMemsetD8", name);

    // Parameter values in the kernel's runtime-parameter order, then the status pointer.
    std::vector<const ir::KernelParam*> params = kernel.runtimeParams();
    if (params.size() != args.size())
      throw lang::InternalError("gpu launch of '" + name + "': " + std::to_string(args.size()) + " arguments for " +
                                std::to_string(params.size()) + " parameters");
    std::vector<std::array<unsigned char, 8>> storage(params.size() + 1);
    std::vector<void*> pointers;
    for (size_t i = 0; i < params.size(); ++i) {
      const ir::Type& t = params[i]->type;
      const GpuArg& a = args[i];
      unsigned char* slot = storage[i].data();
      std::memset(slot, 0, 8);
      if (t.isPointer()) {
        if (a.buffer < 0) {
          const uint64_t raw = static_cast<uint64_t>(a.intValue);
          std::memcpy(slot, &raw, 8);
        } else {
          const uint64_t p = device[static_cast<size_t>(a.buffer)] + static_cast<uint64_t>(a.byteOffset);
          std::memcpy(slot, &p, 8);
        }
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
      } else {
        throw lang::CompileError(lang::Diagnostic::error(
            params[i]->range, "a " + std::string(ir::dtypeName(t.dtype())) +
                                  " scalar parameter is not supported on the GPU backend yet; use --backend sim"));
      }
      pointers.push_back(slot);
    }
    std::memcpy(storage.back().data(), &status, 8);
    pointers.push_back(storage.back().data());

    const auto t0 = std::chrono::steady_clock::now();
    check(api_->launchKernel(loaded.function, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
                             static_cast<unsigned>(grid[2]), static_cast<unsigned>(ck.cuda.numThreads), 1, 1,
                             static_cast<unsigned>(ck.cuda.dynamicSharedBytes), nullptr, pointers.data(), nullptr),
          "cuLaunchKernel", name);
    check(api_->ctxSynchronize(), "cuCtxSynchronize (after launching the kernel)", name);
    result.kernelSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].bytes) check(api_->memcpyDtoH(buffers[i].host, device[i], buffers[i].bytes), "cuMemcpyDtoH", name);
    uint32_t words[4] = {};
    check(api_->memcpyDtoH(words, status, 16), "cuMemcpyDtoH", name);
    if (words[0] != 0) {
      const size_t index = words[0] - 1;
      if (index >= ck.cuda.failures.size()) throw lang::InternalError("gpu status code out of range");
      const KernelFailure& f = ck.cuda.failures[index];
      result.failure = lang::Diagnostic::error(
          f.range, f.message + " in kernel '" + name + "', program pid (" + std::to_string(words[1]) + ", " +
                       std::to_string(words[2]) + ", " + std::to_string(words[3]) + ")");
    }
  } catch (...) {
    freeAll();
    throw;
  }
  freeAll();
  return result;
}

}  // namespace tilescope::gpu
