// _tilescope's driver part: the device that triton.runtime.driver.active describes
// (resources/python/triton/runtime): device 0 of the CUDA driver, or, without one, an H100's figures,
// so that occupancy arithmetic in host code (the fused-softmax tutorial) gives sensible grids in the
// simulator.
#include <pybind11/pybind11.h>

#include "core/gpu/runtime/CudaDriver.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

gpu::GpuDeviceInfo describedDevice() {
  const gpu::CudaDriver& driver = gpu::CudaDriver::instance();
  if (driver.available() && !driver.devices().empty()) return driver.devices().front();
  gpu::GpuDeviceInfo h100;
  h100.name = "NVIDIA H100 (simulated)";
  h100.computeMajor = 9;
  h100.multiprocessors = 132;
  h100.maxSharedBytesPerProgram = 232448;
  h100.totalMemoryBytes = size_t{80} << 30;
  return h100;
}

}  // namespace

void bindDriver(py::module_& m) {
  m.def("device_properties", [] {
    const gpu::GpuDeviceInfo d = describedDevice();
    py::dict out;
    out["name"] = d.name;
    out["major"] = d.computeMajor;
    out["minor"] = d.computeMinor;
    out["multiprocessor_count"] = d.multiprocessors;
    out["max_shared_mem"] = d.maxSharedBytesPerProgram;
    out["total_memory"] = d.totalMemoryBytes;
    out["max_num_regs"] = 65536;
    out["warpSize"] = 32;
    out["max_threads_per_sm"] = 2048;
    return out;
  });
  m.def("gpu_available", [] {
    const gpu::CudaDriver& driver = gpu::CudaDriver::instance();
    return driver.available() && !driver.devices().empty();
  });
}

}  // namespace tilescope::python
