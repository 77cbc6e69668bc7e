#pragma once
// Running generated kernels through the CUDA driver API (libcuda.so.1, dlopen'd by CudaDriver):
// the primary context of device 0, modules loaded from PTX (cached by the PTX's hash), device
// buffers, launches. Every CUDA call is checked; a failure names the call and the kernel. After a
// sticky fault (illegal address, trap, ...) the context is reset, so the next launch works.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/gpu/CudaApi.h"
#include "core/gpu/GpuCompiler.h"

namespace tilescope::gpu {

// A CUDA call failed: "cuLaunchKernel failed for kernel 'add_kernel': an illegal memory access...".
class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct KernelResources {
  int registers = 0;
  int staticSharedBytes = 0;
  int dynamicSharedBytes = 0;
  int localBytes = 0;  // per thread: spills and stack
  int maxThreadsPerBlock = 0;
  std::string str() const;  // "38 registers, 0+4096 bytes shared, 0 bytes local (spills)"
};

// Host memory a launch reads and writes: copied to the device before and back after the launch.
struct GpuBuffer {
  void* host = nullptr;
  size_t bytes = 0;
};

// A runtime argument: a pointer into buffer `buffer` at `byteOffset`, or a scalar.
struct GpuArg {
  int buffer = -1;
  int64_t byteOffset = 0;
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;
  static GpuArg pointer(int buffer, int64_t byteOffset) { return GpuArg{buffer, byteOffset, false, 0, 0}; }
  static GpuArg integer(int64_t v) { return GpuArg{-1, 0, false, v, 0}; }
  static GpuArg real(double v) { return GpuArg{-1, 0, true, 0, v}; }
};

struct GpuLaunchResult {
  std::shared_ptr<const CompiledKernel> compiled;
  KernelResources resources;
  double kernelSeconds = 0;  // launch + synchronize
  std::optional<lang::Diagnostic> failure;  // a device assertion or zero loop step, with the pid
};

class GpuRuntime {
public:
  static GpuRuntime& instance();
  bool available() const;
  std::string unavailableReason() const;

  // Compiles (cached), loads, copies the buffers in, launches grid x numThreads, synchronizes and
  // copies the buffers back. Throws lang::CompileError (unsupported IR), GpuError (CUDA failures).
  GpuLaunchResult launch(const ir::Kernel& kernel, const int64_t grid[3], const std::vector<GpuBuffer>& buffers,
                         const std::vector<GpuArg>& args);
  // Registers, shared and local memory of a compiled kernel (loads it).
  KernelResources resources(const CompiledKernel& compiled);

private:
  GpuRuntime();
  struct Loaded;
  struct Api;
  void ensureContext(const std::string& kernel);
  Loaded& load(const CompiledKernel& compiled);
  void check(CUresult r, const char* call, const std::string& kernel);
  void resetContext();

  std::recursive_mutex mutex_;
  std::unique_ptr<Api> api_;
  std::string reason_;
  CUcontext context_ = nullptr;
  bool ownContext_ = false;  // made by cuCtxCreate after the primary context could not be revived
  int resets_ = 0;
  std::map<std::string, std::unique_ptr<Loaded>> modules_;  // by PTX cache key
};

}  // namespace tilescope::gpu
