// _tilescope.BoundLaunch: what `kernel[grid]` returns (resources/python/triton's JITFunction). Calling
// it launches the kernel the way JITFunction.run does, in C++ for the common call: the call's binding
// plan (JITFunction._plan_for, cached per call shape in JITFunction._plans), the grid (a tuple, or a
// callable given the meta dict of the bound arguments, as in Triton), the kernel's globals checked for
// changes (JITFunction._globals_read), then one launch (launchKernel). Calls the plan cannot bind
// (launch options, parameters named like them) go to JITFunction.run.
#include <pybind11/pybind11.h>

#include <memory>

#include "core/python/LaunchFastPath.h"
#include "core/python/PythonKernel.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

struct BoundLaunch {
  py::object jit;
  std::shared_ptr<PythonKernel> kernel;
  py::object grid;
};

// Whether a global the kernel read (scope, name, value) is no longer that value.
bool globalsChanged(const py::handle jit) {
  const py::object read = jit.attr("_globals_read");
  const py::object missing = jit.attr("_MISSING");
  if (!PyList_Check(read.ptr())) return true;
  const Py_ssize_t n = PyList_GET_SIZE(read.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* entry = PyList_GET_ITEM(read.ptr(), i);
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) return true;
    PyObject* scope = PyTuple_GET_ITEM(entry, 0);
    if (!PyDict_Check(scope)) return true;
    PyObject* now = PyDict_GetItemWithError(scope, PyTuple_GET_ITEM(entry, 1));
    if (!now && PyErr_Occurred()) throw py::error_already_set();
    if ((now ? now : missing.ptr()) != PyTuple_GET_ITEM(entry, 2)) return true;
  }
  return false;
}

py::object call(const BoundLaunch& b, const py::args& args, const py::kwargs& kwargs) {
  const py::handle jit = b.jit;
  py::tuple names(kwargs.size());
  size_t i = 0;
  for (auto item : kwargs) names[i++] = item.first;
  const py::dict plans = jit.attr("_plans");
  const py::tuple key = py::make_tuple(args.size(), names);
  py::object plan;
  if (PyObject* cached = PyDict_GetItemWithError(plans.ptr(), key.ptr())) {
    plan = py::reinterpret_borrow<py::object>(cached);
  } else {
    if (PyErr_Occurred()) throw py::error_already_set();
    plan = jit.attr("_plan_for")(args.size(), names);
    plans[key] = plan;
  }
  if (plan.is_none() || !PyList_Check(plan.ptr())) {
    py::dict all(kwargs);
    all["grid"] = b.grid;
    return jit.attr("run")(*args, **all);
  }
  const Py_ssize_t count = PyList_GET_SIZE(plan.ptr());
  py::list values(count);
  for (Py_ssize_t p = 0; p < count; ++p) {
    PyObject* step = PyList_GET_ITEM(plan.ptr(), p);  // ('arg', index) | ('kw', name) | ('default', value)
    PyObject* how = PyTuple_GET_ITEM(step, 0);
    PyObject* what = PyTuple_GET_ITEM(step, 1);
    PyObject* value = what;
    if (PyUnicode_CompareWithASCIIString(how, "arg") == 0) {
      value = PyTuple_GET_ITEM(args.ptr(), PyLong_AsSsize_t(what));
    } else if (PyUnicode_CompareWithASCIIString(how, "kw") == 0) {
      value = PyDict_GetItemWithError(kwargs.ptr(), what);
      if (!value) {
        if (PyErr_Occurred()) throw py::error_already_set();
        throw py::key_error(py::str(what));
      }
    }
    Py_INCREF(value);
    PyList_SET_ITEM(values.ptr(), p, value);
  }
  py::object grid = b.grid;
  if (PyCallable_Check(grid.ptr())) {
    py::dict meta;
    const py::list argNames = jit.attr("arg_names");
    for (Py_ssize_t p = 0; p < count && p < static_cast<Py_ssize_t>(argNames.size()); ++p)
      meta[argNames[static_cast<size_t>(p)]] = values[static_cast<size_t>(p)];
    grid = grid(meta);
  }
  py::tuple dims;
  if (PyTuple_Check(grid.ptr())) dims = py::reinterpret_borrow<py::tuple>(grid);
  else if (PyList_Check(grid.ptr())) dims = py::tuple(grid);
  else dims = py::make_tuple(grid);
  if (!b.kernel->hasGlobals() || globalsChanged(jit)) jit.attr("_resolve_globals")();
  static const py::dict* const noOptions = new py::dict();  // never filled; lives as long as the process
  launchKernel(*b.kernel, dims, values, *noOptions);
  return py::none();
}

}  // namespace

void bindBoundLaunch(py::module_& m) {
  py::class_<BoundLaunch>(m, "BoundLaunch")
      .def(py::init([](py::object jit, std::shared_ptr<PythonKernel> kernel, py::object grid) {
             return BoundLaunch{std::move(jit), std::move(kernel), std::move(grid)};
           }),
           py::arg("jit"), py::arg("kernel"), py::arg("grid"))
      .def("__call__", &call);
}

}  // namespace tilescope::python
