// _tilescope's cupy part: `cupy.RawKernel` (CUDA C++ written by the user, compiled by NVRTC and
// launched on the GPU backend) for host code on embedded CPython. The kernel object is RawKernel's
// (RawKernel.cpp: signature parsing, argument conversion, device copies of tensors); this file only
// converts Python values to its arguments. resources/python/cupy wraps it with CuPy's names.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/python/Containers.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/PyError.h"
#include "core/python/RawKernel.h"
#include "core/python/EngineSession.h"
#include "core/python/PythonValues.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

host::LaunchContext& context() {
  EngineSession* session = EngineSession::active();
  if (!session) throw host::PyError("RuntimeError", "cupy used while no tilescope session runs code");
  return session->launchContext();
}

host::Value tupleOf(const py::handle& items, const std::string& what) {
  host::ValueList values;
  const py::tuple tuple(py::reinterpret_borrow<py::object>(items));
  for (py::handle item : tuple) values.push_back(launchArgumentOf(item, what));
  return host::Value(std::make_shared<host::TupleObject>(std::move(values)));
}

// A RawKernel of the engine (host::Value) held by the Python object.
struct RawKernelHandle {
  host::Value kernel;
};

RawKernelHandle makeRawKernel(const std::string& code, const std::string& name, const std::vector<std::string>& options,
                              const std::string& backend) {
  if (backend != "nvrtc") throw host::PyError("ValueError", "RawKernel: only backend='nvrtc' is supported, not '" + backend + "'");
  return RawKernelHandle{host::makeRawKernel(code, name, options)};
}

}  // namespace

void bindCupy(py::module_& m) {
  py::class_<RawKernelHandle>(m, "RawKernelHandle")
      .def(py::init(&makeRawKernel), py::arg("code"), py::arg("name"), py::arg("options"), py::arg("backend"))
      .def("launch", [](const RawKernelHandle& k, const py::object& grid, const py::object& block, const py::object& args) {
        host::LaunchContext& in = context();
        in.call(k.kernel, host::ValueList{tupleOf(grid, "grid"), tupleOf(block, "block"), tupleOf(args, "args")});
      });
  // True when RawKernels can run: the GPU backend is in use and has a device.
  m.def("cupy_available", [] { return host::resolvesToGpu(context().launchSettings().backend); });
}

}  // namespace tilescope::python
