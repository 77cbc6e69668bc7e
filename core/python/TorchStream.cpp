#include "core/python/TorchStream.h"

#include <Python.h>

#include "core/gpu/runtime/LaunchStream.h"

namespace tilescope::python {

namespace {

PyObject* rawStreamGetter = nullptr;  // torch._C._cuda_getCurrentRawStream, kept for the process's life
PyObject* deviceIndex = nullptr;      // 0

// Finds installed PyTorch's accessor: false while torch is not imported (the next launch looks
// again); removes the source for good when torch is the built-in one or has no CUDA.
bool findRawStreamGetter() {
  static PyObject* const torchName = PyUnicode_InternFromString("torch");
  PyObject* torch = torchName ? PyImport_GetModule(torchName) : nullptr;  // a new reference, null if not imported
  if (!torch) {
    PyErr_Clear();
    return false;
  }
  PyObject* builtinMark = PyObject_GetAttrString(torch, "__tilescope_builtin__");
  const bool builtin = builtinMark && PyObject_IsTrue(builtinMark) == 1;
  Py_XDECREF(builtinMark);
  PyErr_Clear();
  PyObject* c = builtin ? nullptr : PyObject_GetAttrString(torch, "_C");
  PyObject* getter = c ? PyObject_GetAttrString(c, "_cuda_getCurrentRawStream") : nullptr;
  Py_XDECREF(c);
  Py_DECREF(torch);
  PyErr_Clear();
  PyObject* zero = getter ? PyLong_FromLong(0) : nullptr;
  if (!getter || !zero) {
    Py_XDECREF(getter);
    PyErr_Clear();
    gpu::LaunchStream::setSource(nullptr);  // launches stay on the null stream
    return false;
  }
  rawStreamGetter = getter;
  deviceIndex = zero;
  return true;
}

CUstream torchCurrentStream() {
  // Host code launches with the GIL held; another thread (none launches today) gets the null stream
  // rather than a wait for the GIL under the runtime's lock.
  if (!PyGILState_Check()) return nullptr;
  if (!rawStreamGetter && !findRawStreamGetter()) return nullptr;
  PyObject* handle = PyObject_CallOneArg(rawStreamGetter, deviceIndex);
  if (!handle) {
    PyErr_Clear();
    return nullptr;
  }
  void* stream = PyLong_AsVoidPtr(handle);
  Py_DECREF(handle);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  return static_cast<CUstream>(stream);
}

}  // namespace

void installTorchStreamSource() { gpu::LaunchStream::setSource(&torchCurrentStream); }

}  // namespace tilescope::python
