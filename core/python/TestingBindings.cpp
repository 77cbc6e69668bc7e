// _tilescope's triton.testing part: what resources/python/triton/testing.py needs from the engine
// (with BenchmarkRunner's constants and column format): one timed call
// (host clock on the simulator, CUDA events with the L2 flushed on the GPU backend), pandas' float
// column format, torch's assert_close message, and rich outputs (the benchmark series the GUI plots,
// images) sent to the running cell through the worker's display_data path.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <optional>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/BenchmarkRunner.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/PyError.h"
#include "core/tensor/TensorCompare.h"
#include "core/python/EngineSession.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The GPU runtime of the running session's backend, or null on the simulator.
gpu::GpuRuntime* activeGpuRuntime() {
  EngineSession* session = EngineSession::active();
  return session ? host::backendOf(session->launchContext()).gpuRuntime() : nullptr;
}

// One call of fn on the GPU backend: the milliseconds of the device work tilescope launched in it
// (CUDA events, the L2 flushed first), or nullopt when it launched none (a call of installed
// PyTorch's own operations, which testing.py times with torch's events instead).
std::optional<double> deviceCallMs(gpu::GpuRuntime& rt, const py::function& fn) {
  double deviceMs = 0;
  int operations = 0;
  try {
    std::tie(deviceMs, operations) = rt.timeDeviceWork([&] { fn(); });
  } catch (const gpu::GpuError& e) {
    throw host::PyError("RuntimeError", e.what());
  }
  if (operations > 0) return deviceMs;
  return std::nullopt;
}

// Milliseconds of one call of fn, measured as the hand-written interpreter's do_bench measures it.
double timeCall(const py::function& fn) {
  if (gpu::GpuRuntime* rt = activeGpuRuntime()) {
    const double start = nowMs();
    if (std::optional<double> ms = deviceCallMs(*rt, fn)) return *ms;
    host::LaunchContext& context = EngineSession::active()->launchContext();
    if (context.noteOnce("do_bench-host-time"))
      context.writeStderr("note: do_bench timed a call that ran no GPU work by the host clock\n");
    return nowMs() - start;
  }
  const double start = nowMs();
  fn();
  return nowMs() - start;
}

// time_device_call(fn): deviceCallMs on the GPU backend, None elsewhere or when fn launched nothing.
py::object timeDeviceCall(const py::function& fn) {
  gpu::GpuRuntime* rt = activeGpuRuntime();
  if (!rt) {
    fn();
    return py::none();
  }
  std::optional<double> ms = deviceCallMs(*rt, fn);
  return ms ? py::object(py::float_(*ms)) : py::object(py::none());
}

bool simulated() {
  EngineSession* session = EngineSession::active();
  return !session || !host::backendOf(session->launchContext()).isGpu();
}

// A MIME bundle given as JSON text ({"mime": value, ...}) to the running cell; without one, dropped.
void display(const std::string& bundleJson) {
  host::RichOutput out;
  try {
    out.data = nlohmann::json::parse(bundleJson);
  } catch (const nlohmann::json::exception& e) {
    throw host::PyError("ValueError", std::string("display: not a JSON MIME bundle: ") + e.what());
  }
  if (!out.data.is_object()) throw host::PyError("ValueError", "display: a MIME bundle is a JSON object");
  if (EngineSession* session = EngineSession::active()) session->launchContext().display(out);
}

std::optional<std::string> assertCloseMessage(const host::Tensor& x, const host::Tensor& y, double atol, double rtol) {
  host::AssertCloseOptions o;
  o.atol = atol;
  o.rtol = rtol;
  o.checkDtype = false;
  return host::assertCloseMessage(x, y, o);
}

}  // namespace

void bindTesting(py::module_& m) {
  m.attr("BENCHMARK_MIME_TYPE") = host::kBenchmarkMimeType;
  m.attr("SIMULATED_NOTE") = host::BenchmarkRunner::kSimulatedNote;
  m.def("time_call", &timeCall, py::arg("fn"));
  m.def("time_device_call", &timeDeviceCall, py::arg("fn"));
  m.def("simulated", &simulated);
  m.def("display", &display, py::arg("bundle_json"));
  m.def("format_float_column", &host::BenchmarkRunner::formatFloatColumn, py::arg("values"));
  m.def("assert_close_message", &assertCloseMessage, py::arg("x"), py::arg("y"), py::arg("atol"), py::arg("rtol"));
}

}  // namespace tilescope::python
