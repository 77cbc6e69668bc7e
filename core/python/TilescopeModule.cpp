#include "core/python/TilescopeModule.h"

#include <pybind11/pybind11.h>

#include "core/python/EngineSession.h"
#include "core/python/HostCallBindings.h"
#include "core/python/PythonErrors.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

// sys.stdout / sys.stderr of the embedded interpreter: text goes to the running cell's callbacks as
// it is written (the worker streams it; the CLI prints it), in order with the kernels' own output.
struct OutputStream {
  std::string name;
  void write(const std::string& text) const { EngineSession::write(name, text); }
};

void bindOutput(py::module_& m) {
  py::class_<OutputStream>(m, "OutputStream")
      .def(py::init([](std::string name) { return OutputStream{std::move(name)}; }))
      .def("write", [](const OutputStream& s, const std::string& text) {
        s.write(text);
        return text.size();
      })
      .def("flush", [](const OutputStream&) {})
      .def("isatty", [](const OutputStream&) { return false; })
      .def("writable", [](const OutputStream&) { return true; })
      .def("readable", [](const OutputStream&) { return false; })
      .def_property_readonly("encoding", [](const OutputStream&) { return "utf-8"; })
      .def_property_readonly("name", [](const OutputStream& s) { return "<" + s.name + ">"; });
}

}  // namespace

_object* initTilescopeModule() {
  static py::module_::module_def definition;
  try {
    py::module_ m = py::module_::create_extension_module(
        "_tilescope", "tilescope's engine: tensors, kernels and launches (wrapped by triton and torch)", &definition);
    bindErrors(m);
    bindOutput(m);
    bindTensors(m);
    bindKernels(m);
    bindTesting(m);
    bindDriver(m);
    bindHostCalls(m);
    bindCupy(m);
    return m.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_ImportError, e.what());
  }
  return nullptr;
}

}  // namespace tilescope::python
