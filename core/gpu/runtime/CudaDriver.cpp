#include "core/gpu/runtime/CudaDriver.h"

namespace tilescope::gpu {
namespace {
// Two-step stringize so that cuda.h's versioning macros (cuDeviceTotalMem -> cuDeviceTotalMem_v2)
// name the symbol the driver really exports.
#define TILESCOPE_STR2(x) #x
#define TILESCOPE_STR(x) TILESCOPE_STR2(x)

template <typename Fn>
bool bind(const util::DynamicLibrary& lib, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(lib.symbol(name));
  return fn != nullptr;
}
}  // namespace

CudaDriver& CudaDriver::instance() {
  static CudaDriver driver;
  return driver;
}

CudaDriver::CudaDriver() {
  if (!library_.open({"libcuda.so.1", "libcuda.so"})) {
    reason_ = "libcuda.so.1 not loaded (" + library_.error() + ")";
    return;
  }
  if (!loadApi()) return;
  if (CUresult r = api_.cuInit(0); r != CUDA_SUCCESS) {
    reason_ = "cuInit failed: " + errorString(r);
    return;
  }
  api_.cuDriverGetVersion(&driverVersion_);
  enumerateDevices();
  if (devices_.empty()) {
    reason_ = "the CUDA driver found no device";
    return;
  }
  available_ = true;
}

bool CudaDriver::loadApi() {
#if defined(TILESCOPE_HAVE_CUDA_HEADERS)
#define TS_BIND(fn) bind(library_, api_.fn, TILESCOPE_STR(fn))
#else
#define TS_BIND(fn) bind(library_, api_.fn, #fn)
#endif
  const bool ok = TS_BIND(cuInit) && TS_BIND(cuDriverGetVersion) && TS_BIND(cuDeviceGetCount) &&
                  TS_BIND(cuDeviceGet) && TS_BIND(cuDeviceGetName) && TS_BIND(cuDeviceGetAttribute) &&
                  TS_BIND(cuGetErrorString) &&
                  (TS_BIND(cuDeviceTotalMem) || bind(library_, api_.cuDeviceTotalMem, "cuDeviceTotalMem_v2"));
#undef TS_BIND
  if (!ok) reason_ = "libcuda.so.1 at " + library_.path() + " lacks a driver API entry point (driver too old?)";
  return ok;
}

void CudaDriver::enumerateDevices() {
  int count = 0;
  if (api_.cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
  for (int i = 0; i < count; ++i) {
    CUdevice dev{};
    if (api_.cuDeviceGet(&dev, i) != CUDA_SUCCESS) continue;
    GpuDeviceInfo info;
    info.ordinal = i;
    char name[256] = {};
    api_.cuDeviceGetName(name, sizeof(name) - 1, dev);
    info.name = name;
    api_.cuDeviceGetAttribute(&info.computeMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    api_.cuDeviceGetAttribute(&info.computeMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    api_.cuDeviceGetAttribute(&info.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    api_.cuDeviceGetAttribute(&info.maxSharedBytesPerProgram, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
    api_.cuDeviceTotalMem(&info.totalMemoryBytes, dev);
    devices_.push_back(std::move(info));
  }
}

std::string CudaDriver::errorString(CUresult r) const {
  const char* text = nullptr;
  if (api_.cuGetErrorString && api_.cuGetErrorString(r, &text) == CUDA_SUCCESS && text) return text;
  return "CUDA error " + std::to_string(static_cast<int>(r));
}

}  // namespace tilescope::gpu
