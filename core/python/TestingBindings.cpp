// _tilescope's triton.testing part: what resources/python/triton/testing.py needs from the engine
// (with BenchmarkRunner's constants and column format): one timed call
// (host clock on the simulator, CUDA events with the L2 flushed on the GPU backend), pandas' float
// column format, torch's assert_close message, and rich outputs (the benchmark series the GUI plots,
// images) sent to the running cell through the worker's display_data path.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>

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

// Milliseconds of one call of fn: device time on the GPU backend, host time otherwise.
double timeCall(const py::function& fn) {
  EngineSession* session = EngineSession::active();
  if (session) {
    host::LaunchContext& context = session->launchContext();
    if (gpu::GpuRuntime* rt = host::backendOf(context).gpuRuntime()) {
      const double start = nowMs();
      double deviceMs = 0;
      int operations = 0;
      try {
        std::tie(deviceMs, operations) = rt->timeDeviceWork([&] { fn(); });
      } catch (const gpu::GpuError& e) {
        throw host::PyError("RuntimeError", e.what());
      }
      if (operations > 0) return deviceMs;
      if (context.noteOnce("do_bench-host-time"))
        context.writeStderr("note: do_bench timed a call that ran no GPU work by the host clock\n");
      return nowMs() - start;
    }
  }
  const double start = nowMs();
  fn();
  return nowMs() - start;
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
  m.def("simulated", &simulated);
  m.def("display", &display, py::arg("bundle_json"));
  m.def("format_float_column", &host::BenchmarkRunner::formatFloatColumn, py::arg("values"));
  m.def("assert_close_message", &assertCloseMessage, py::arg("x"), py::arg("y"), py::arg("atol"), py::arg("rtol"));
}

}  // namespace tilescope::python
