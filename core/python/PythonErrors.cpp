#include "core/python/PythonErrors.h"

#include <pybind11/pybind11.h>

#include "core/python/PyError.h"
#include "core/tensor/TensorError.h"
#include "core/base/Diagnostic.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

PyObject* compilationError = nullptr;  // _tilescope.CompilationError (a new reference, kept forever)

PyObject* exceptionClass(const std::string& type) {
  if (type == "CompilationError") return compilationError;
  PyObject* builtins = PyEval_GetBuiltins();  // borrowed
  PyObject* cls = builtins ? PyDict_GetItemString(builtins, type.c_str()) : nullptr;
  if (cls && PyType_Check(cls) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls),
                                                   reinterpret_cast<PyTypeObject*>(PyExc_BaseException)))
    return cls;
  return PyExc_RuntimeError;
}

std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void raise(const host::PyError& e) {
  // The diagnostic is the message: what Triton users read in str(exception).
  const std::string message = e.detail.empty() ? e.message() : trimmed(e.detail);
  PyObject* cls = exceptionClass(e.type());
  py::list diagnostics;
  for (const host::DiagnosticEntry& d : e.diagnostics) {
    py::dict item;
    item["file"] = d.file;
    item["line"] = d.line;
    item["col"] = d.column;
    item["severity"] = d.severity;
    item["message"] = d.message;
    item["snippet"] = d.snippet;
    diagnostics.append(item);
  }
  try {
    py::object exc = py::reinterpret_borrow<py::object>(cls)(message);
    exc.attr("diagnostics") = diagnostics;
    PyErr_SetObject(cls, exc.ptr());
  } catch (py::error_already_set& failed) {
    failed.restore();
  }
}

}  // namespace

void bindErrors(py::module_& m) {
  if (!compilationError) {
    compilationError = PyErr_NewExceptionWithDoc(
        "triton.compiler.errors.CompilationError", "A @triton.jit kernel does not compile; the message is the diagnostic.",
        PyExc_Exception, nullptr);
  }
  m.attr("CompilationError") = py::reinterpret_borrow<py::object>(compilationError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const host::PyError& e) {
      raise(e);
    } catch (const host::TensorError& e) {
      raise(host::PyError(std::string(e.pythonType()), e.what()));
    } catch (const lang::CompileError& e) {
      host::PyError err("CompilationError", e.diagnostic().headline());
      err.setDiagnostics(e.diagnostic());
      raise(err);
    }
  });
}

}  // namespace tilescope::python
