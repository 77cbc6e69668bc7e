#pragma once
// The CUDA driver API, loaded from libcuda.so.1 at run time. Without a driver every call reports
// why, and callers fall back to the simulator.
#include <memory>
#include <string>
#include <vector>

#include "core/gpu/runtime/CudaApi.h"
#include "core/base/DynamicLibrary.h"

namespace tilescope::gpu {

struct GpuDeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessors = 0;
  int maxSharedBytesPerProgram = 0;  // what one CTA may opt into
  size_t totalMemoryBytes = 0;
  // The target to compile for: Hopper (9.0) gets its arch-specific target sm_90a, for wgmma.
  std::string arch() const {
    const int cc = computeMajor * 10 + computeMinor;
    return "sm_" + std::to_string(cc) + (cc == 90 ? "a" : "");
  }
};

class CudaDriver {
public:
  // Loads and initialises the driver once per process; never throws.
  static CudaDriver& instance();

  bool available() const { return available_; }
  // Why the driver is unusable (dlerror text or the failing call), empty when available.
  const std::string& unavailableReason() const { return reason_; }
  int driverVersion() const { return driverVersion_; }  // e.g. 13000
  const std::vector<GpuDeviceInfo>& devices() const { return devices_; }
  std::string errorString(CUresult r) const;

  // Function table, filled only when available().
  struct Api {
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDriverGetVersion)(int*) = nullptr;
    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*cuDeviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
    CUresult (*cuDeviceTotalMem)(size_t*, CUdevice) = nullptr;
    CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  };
  const Api& api() const { return api_; }
  void* symbol(const char* name) const { return library_.symbol(name); }

private:
  CudaDriver();
  bool loadApi();
  void enumerateDevices();

  util::DynamicLibrary library_;
  Api api_;
  bool available_ = false;
  std::string reason_;
  int driverVersion_ = 0;
  std::vector<GpuDeviceInfo> devices_;
};

}  // namespace tilescope::gpu
