// _tilescope's kernel part: _tilescope.Kernel, the engine side of a @triton.jit function
// (PythonKernel), which resources/python/triton wraps as JITFunction. Python binds the launch's
// arguments (inspect.Signature, exactly Python's rules) and evaluates the grid; this file converts the
// values and hands them to the launch path the hand-written interpreter uses.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/host/Containers.h"
#include "core/python/PythonKernel.h"
#include "core/python/PythonValues.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

void bindKernels(py::module_& m) {
  py::class_<PythonKernel, std::shared_ptr<PythonKernel>>(m, "Kernel")
      .def(py::init<const std::string&, const std::string&, const std::string&, int, const std::vector<std::string>&,
                    const std::vector<std::string>&>(),
           py::arg("name"), py::arg("source"), py::arg("file"), py::arg("first_line"),
           py::arg("do_not_specialize") = std::vector<std::string>{},
           py::arg("do_not_specialize_on_alignment") = std::vector<std::string>{})
      .def_property_readonly("name", &PythonKernel::name)
      .def_property_readonly("parameters", &PythonKernel::parameterNames)
      .def_property_readonly("has_globals", &PythonKernel::hasGlobals)
      .def("set_globals",
           [](PythonKernel& k, const py::dict& globals, const std::vector<std::shared_ptr<PythonKernel>>& helpers) {
             std::vector<std::pair<std::string, lang::Value>> values;
             for (auto [name, value] : globals) {
               const std::string n = name.cast<std::string>();
               values.emplace_back(n, kernelGlobalOf(value, n));
             }
             k.setGlobals(values, helpers);
           })
      .def("launch", [](PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
        const std::vector<std::string> names = k.parameterNames();
        host::ValueList dims;
        for (py::handle d : grid) dims.push_back(launchArgumentOf(d, "grid"));
        host::ValueList values;
        for (size_t i = 0; i < args.size(); ++i)
          values.push_back(launchArgumentOf(args[i], i < names.size() ? names[i] : "?"));
        std::vector<std::pair<std::string, host::Value>> launchOptions;
        for (auto [name, value] : options) {
          const std::string n = name.cast<std::string>();
          launchOptions.emplace_back(n, launchArgumentOf(value, n));
        }
        k.launch(host::makeTuple(std::move(dims)), std::move(values), std::move(launchOptions));
      });
}

}  // namespace tilescope::python
