#include "core/host/TritonDriver.h"

#include "core/gpu/runtime/CudaDriver.h"
#include "core/host/Builtins.h"
#include "core/host/Containers.h"
#include "core/tensor/Device.h"
#include "core/host/Function.h"
#include "core/host/Interpreter.h"
#include "core/host/TorchConvert.h"

namespace tilescope::host {

namespace {

// The device the properties describe: device 0 of the driver, or, in simulator mode, an H100's
// figures, so occupancy arithmetic in host code (the fused-softmax tutorial) gives sensible grids.
gpu::GpuDeviceInfo describedDevice() {
  const gpu::CudaDriver& driver = gpu::CudaDriver::instance();
  if (driver.available() && !driver.devices().empty()) return driver.devices().front();
  gpu::GpuDeviceInfo h100;
  h100.computeMajor = 9;
  h100.multiprocessors = 132;
  h100.maxSharedBytesPerProgram = 232448;
  return h100;
}

}  // namespace

Value tritonRuntimeNamespace(Interpreter&) {
  auto active = std::make_shared<NamespaceObject>("triton.runtime.driver.active");
  auto& a = active->attrs;
  a["get_active_torch_device"] = makeBuiltin("get_active_torch_device", "", [](Interpreter&, ValueList&) {
    return makeDevice(Device::parse("cuda:0"));
  });
  a["get_current_device"] = makeBuiltin("get_current_device", "", [](Interpreter&, ValueList&) { return Value::integer(0); });
  a["set_current_device"] = makeBuiltin("set_current_device", "device", [](Interpreter&, ValueList&) { return Value(); });
  a["get_current_stream"] = makeBuiltin("get_current_stream", "device=None", [](Interpreter&, ValueList&) { return Value::integer(0); });
  a["get_current_target"] = makeBuiltin("get_current_target", "", [](Interpreter&, ValueList&) {
    // GPUTarget(backend, arch, warp_size)
    auto target = std::make_shared<NamespaceObject>("GPUTarget");
    target->attrs["backend"] = makeStr("cuda");
    const gpu::GpuDeviceInfo d = describedDevice();
    target->attrs["arch"] = Value::integer(d.computeMajor * 10 + d.computeMinor);
    target->attrs["warp_size"] = Value::integer(32);
    return Value(target);
  });
  a["get_device_interface"] = makeBuiltin("get_device_interface", "", [](Interpreter& in, ValueList&) {
    return in.importModule("torch.cuda");
  });
  a["get_benchmarker"] = makeBuiltin("get_benchmarker", "", [](Interpreter& in, ValueList&) {
    return in.getAttr(in.importModule("triton.testing"), "do_bench");
  });
  auto utils = std::make_shared<NamespaceObject>("triton.runtime.driver.active.utils");
  utils->attrs["get_device_properties"] = makeBuiltin("get_device_properties", "device", [](Interpreter& in, ValueList&) {
    const gpu::GpuDeviceInfo d = describedDevice();
    auto props = std::make_shared<DictObject>();
    props->set(in, makeStr("max_shared_mem"), Value::integer(d.maxSharedBytesPerProgram));
    props->set(in, makeStr("multiprocessor_count"), Value::integer(d.multiprocessors));
    props->set(in, makeStr("max_num_regs"), Value::integer(65536));
    props->set(in, makeStr("warpSize"), Value::integer(32));
    return Value(props);
  });
  a["utils"] = Value(utils);
  auto driver = std::make_shared<NamespaceObject>("triton.runtime.driver");
  driver->attrs["active"] = Value(active);
  auto runtime = std::make_shared<NamespaceObject>("triton.runtime");
  runtime->attrs["driver"] = Value(driver);
  return Value(runtime);
}

}  // namespace tilescope::host
