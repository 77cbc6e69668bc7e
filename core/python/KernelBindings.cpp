// _tilescope's kernel part: _tilescope.Kernel, the engine side of a @triton.jit function
// (PythonKernel), which resources/python/triton wraps as JITFunction. Python binds the launch's
// arguments (inspect.Signature, exactly Python's rules) and evaluates the grid; this file converts the
// values and hands them to the launch path the hand-written interpreter uses.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/host/Containers.h"
#include "core/python/HostCallBindings.h"
#include "core/python/PythonKernel.h"
#include "core/python/PythonValues.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

struct LaunchValues {
  host::Value grid;
  host::ValueList args;
  std::vector<std::pair<std::string, host::Value>> options;
};

LaunchValues launchValues(const PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
  const std::vector<std::string> names = k.parameterNames();
  LaunchValues out;
  host::ValueList dims;
  for (py::handle d : grid) dims.push_back(launchArgumentOf(d, "grid"));
  out.grid = host::makeTuple(std::move(dims));
  for (size_t i = 0; i < args.size(); ++i) out.args.push_back(launchArgumentOf(args[i], i < names.size() ? names[i] : "?"));
  for (auto [name, value] : options) {
    const std::string n = name.cast<std::string>();
    out.options.emplace_back(n, launchArgumentOf(value, n));
  }
  return out;
}

}  // namespace

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
      .def_property_readonly("cached_specializations", &PythonKernel::cachedSpecializations)
      .def("set_globals",
           [](PythonKernel& k, const py::dict& globals, const std::vector<std::shared_ptr<PythonKernel>>& helpers) {
             std::vector<std::pair<std::string, lang::Value>> values;
             std::vector<std::pair<std::string, host::Value>> hostFunctions;
             for (auto [name, value] : globals) {
               const std::string n = name.cast<std::string>();
               if (isHostFunction(value)) {
                 values.emplace_back(n, lang::Value::ofHostFunction(n));
                 hostFunctions.emplace_back(n, hostFunctionOf(value, n));
               } else {
                 values.emplace_back(n, kernelGlobalOf(value, n));
               }
             }
             k.setGlobals(values, helpers);
             k.setHostFunctions(std::move(hostFunctions));
           })
      .def("launch",
           [](PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
             LaunchValues v = launchValues(k, grid, args, options);
             k.launch(v.grid, std::move(v.args), std::move(v.options));
           })
      .def("check", [](PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
        LaunchValues v = launchValues(k, grid, args, options);
        k.check(v.grid, std::move(v.args), std::move(v.options));
      });
}

}  // namespace tilescope::python
