// _tilescope.BoundLaunch: what `kernel[grid]` returns (resources/python/triton's JITFunction). Calling
// it launches the kernel the way JITFunction.run does, in C++ for the common call: the call's binding
// plan (JITFunction._plan_for, cached per call shape in JITFunction._plans), the grid (a tuple, or a
// callable given the meta dict of the bound arguments, as in Triton), the kernel's globals checked for
// changes (JITFunction._globals_read), then one launch (launchKernel). Calls the plan cannot bind
// (launch options, parameters named like them) go to JITFunction.run.
//
// Both types here are plain CPython types, not pybind11 classes: a launch from a Python loop pays
// for every call into C++, and pybind11's dispatch (argument tuples and dicts, overload matching)
// cost more than the launch itself. BoundLaunch takes vectorcalls and keeps the last call shape's
// plan compiled to argument positions; _tilescope.LaunchSubscript, JITFunction's base class, answers
// `kernel[grid]` for the grid object of the previous launch without running Python.
#include <pybind11/pybind11.h>
#include <structmember.h>

#include <exception>
#include <memory>
#include <vector>

#include "core/python/LaunchFastPath.h"
#include "core/python/PythonKernel.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

PyObject* interned(const char* name) {
  PyObject* s = PyUnicode_InternFromString(name);  // kept for the process's life
  if (!s) throw py::error_already_set();
  return s;
}

// C++ exceptions become Python exceptions through pybind11's translators (PythonErrors registers
// the engine's): the exception is rethrown inside a pybind11 function, whose dispatcher translates it.
std::exception_ptr pendingException;
PyObject* rethrower = nullptr;  // kept for the process's life

PyObject* raiseCurrentException() {
  pendingException = std::current_exception();
  PyObject* r = PyObject_CallNoArgs(rethrower);
  Py_XDECREF(r);
  pendingException = nullptr;
  return nullptr;
}

// One parameter's value in a call of a known shape: the vectorcall argument at `index` (keywords
// follow the positional ones), or a default.
struct Step {
  Py_ssize_t index = -1;
  PyObject* value = nullptr;  // the default (a strong reference) when index < 0
};

// JITFunction's base: `kernel[grid]` answers the previous launch's grid object with its launcher;
// any other grid asks JITFunction._launcher_for (which keeps one launcher per grid object). It also
// holds JITFunction._globals_read, which every launch reads.
struct SubscriptObject {
  PyObject_HEAD
  PyObject* lastGrid;
  PyObject* lastLauncher;
  PyObject* globalsRead;  // [(scope, name, value)]: the globals the kernel read when last resolved
};

PyTypeObject* subscriptType = nullptr;

struct BoundLaunchObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* jit;
  PyObject* kernelObject;  // the _tilescope.Kernel, which owns `kernel`
  PythonKernel* kernel;
  PyObject* grid;
  PyObject* missing;  // JITFunction._MISSING: a missing name's value in _globals_read
  // The plan of the last call shape: positional count and keyword names (the call site's constant
  // tuple, compared by identity; the plans dict compares by value).
  Py_ssize_t shapeArgs;
  PyObject* shapeNames;
  bool general;  // the plan is None: JITFunction.run binds the call
  std::vector<Step>* steps;
};

void forgetShape(BoundLaunchObject* b) {
  if (b->steps) {
    for (Step& s : *b->steps) Py_XDECREF(s.value);
    delete b->steps;
    b->steps = nullptr;
  }
  Py_CLEAR(b->shapeNames);
  b->shapeArgs = -1;
  b->general = false;
}

// Looks up (or makes, with JITFunction._plan_for) the plan of this call shape and compiles it.
void learnShape(BoundLaunchObject* b, Py_ssize_t nargs, PyObject* kwnames) {
  static PyObject* const plansName = interned("_plans");
  static PyObject* const planForName = interned("_plan_for");
  static PyObject* const argName = interned("arg");
  static PyObject* const kwName = interned("kw");
  forgetShape(b);
  const py::object names = kwnames ? py::reinterpret_borrow<py::object>(kwnames) : py::object(py::tuple());
  const py::object plans = py::reinterpret_steal<py::object>(PyObject_GetAttr(b->jit, plansName));
  if (!plans) throw py::error_already_set();
  const py::tuple key = py::make_tuple(py::int_(nargs), names);
  py::object plan;
  if (PyDict_Check(plans.ptr())) {
    PyObject* cached = PyDict_GetItemWithError(plans.ptr(), key.ptr());
    if (!cached && PyErr_Occurred()) throw py::error_already_set();
    if (cached) plan = py::reinterpret_borrow<py::object>(cached);
  }
  if (!plan) {
    plan = py::reinterpret_steal<py::object>(
        PyObject_CallMethodObjArgs(b->jit, planForName, key[0].ptr(), names.ptr(), nullptr));
    if (!plan) throw py::error_already_set();
    if (PyObject_SetItem(plans.ptr(), key.ptr(), plan.ptr()) < 0) throw py::error_already_set();
  }
  auto steps = std::make_unique<std::vector<Step>>();
  bool general = plan.is_none() || !PyList_Check(plan.ptr());
  for (Py_ssize_t p = 0; !general && p < PyList_GET_SIZE(plan.ptr()); ++p) {
    PyObject* step = PyList_GET_ITEM(plan.ptr(), p);  // ('arg', index) | ('kw', name) | ('default', value)
    if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 2) {
      general = true;
      break;
    }
    PyObject* how = PyTuple_GET_ITEM(step, 0);
    PyObject* what = PyTuple_GET_ITEM(step, 1);
    Step s;
    if (PyUnicode_Compare(how, argName) == 0) {
      s.index = PyLong_AsSsize_t(what);
      if (s.index < 0 || s.index >= nargs) general = true;
    } else if (PyUnicode_Compare(how, kwName) == 0) {
      for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k)
        if (PyUnicode_Compare(PyTuple_GET_ITEM(kwnames, k), what) == 0) s.index = nargs + k;
      if (s.index < 0) general = true;
    } else {
      s.value = Py_NewRef(what);
    }
    PyErr_Clear();
    steps->push_back(s);
  }
  if (general) {
    for (Step& s : *steps) Py_XDECREF(s.value);
    steps->clear();
  }
  b->steps = steps.release();
  b->general = general;
  b->shapeArgs = nargs;
  b->shapeNames = Py_XNewRef(kwnames);
}

// Whether a global the kernel read (scope, name, value) is no longer that value.
bool globalsChanged(const BoundLaunchObject* b) {
  static PyObject* const readName = interned("_globals_read");
  py::object held;
  PyObject* read = nullptr;
  if (PyObject_TypeCheck(b->jit, subscriptType)) {
    read = reinterpret_cast<SubscriptObject*>(b->jit)->globalsRead;
  } else {
    held = py::reinterpret_steal<py::object>(PyObject_GetAttr(b->jit, readName));
    if (!held) PyErr_Clear();
    read = held.ptr();
  }
  if (!read || !PyList_Check(read)) return true;
  const py::object keep = py::reinterpret_borrow<py::object>(read);  // a dict lookup below may run Python
  const Py_ssize_t n = PyList_GET_SIZE(read);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* entry = PyList_GET_ITEM(read, i);
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) return true;
    PyObject* scope = PyTuple_GET_ITEM(entry, 0);
    if (!PyDict_Check(scope)) return true;
    PyObject* now = PyDict_GetItemWithError(scope, PyTuple_GET_ITEM(entry, 1));
    if (!now) {
      if (PyErr_Occurred()) throw py::error_already_set();
      now = b->missing;
    }
    if (now != PyTuple_GET_ITEM(entry, 2)) return true;
  }
  return false;
}

// JITFunction.run(*args, grid=grid, **kwargs): calls the plan cannot bind.
PyObject* callRun(BoundLaunchObject* b, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static PyObject* const runName = interned("run");
  static PyObject* const gridName = interned("grid");
  const py::object run = py::reinterpret_steal<py::object>(PyObject_GetAttr(b->jit, runName));
  if (!run) return nullptr;
  const py::object positional = py::reinterpret_steal<py::object>(PyTuple_New(nargs));
  if (!positional) return nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) PyTuple_SET_ITEM(positional.ptr(), i, Py_NewRef(args[i]));
  const py::object keywords = py::reinterpret_steal<py::object>(PyDict_New());
  if (!keywords) return nullptr;
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k)
    if (PyDict_SetItem(keywords.ptr(), PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) return nullptr;
  if (PyDict_SetItem(keywords.ptr(), gridName, b->grid) < 0) return nullptr;
  return PyObject_Call(run.ptr(), positional.ptr(), keywords.ptr());
}

PyObject* boundCall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* b = reinterpret_cast<BoundLaunchObject*>(self);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  try {
    if (nargs != b->shapeArgs || kwnames != b->shapeNames || !b->steps) learnShape(b, nargs, kwnames);
    if (b->general) return callRun(b, args, nargs, kwnames);
    const std::vector<Step>& steps = *b->steps;
    const size_t count = steps.size();
    PyObject* inline_[kMaxKeyedParams];
    std::vector<PyObject*> many;
    PyObject** values = inline_;
    if (count > kMaxKeyedParams) {
      many.resize(count);
      values = many.data();
    }
    for (size_t p = 0; p < count; ++p) values[p] = steps[p].index >= 0 ? args[steps[p].index] : steps[p].value;
    py::object grid = py::reinterpret_borrow<py::object>(b->grid);
    if (!PyTuple_Check(grid.ptr()) && PyCallable_Check(grid.ptr())) {
      static PyObject* const argNamesName = interned("arg_names");
      const py::object argNames = py::reinterpret_steal<py::object>(PyObject_GetAttr(b->jit, argNamesName));
      if (!argNames) throw py::error_already_set();
      py::dict meta;
      const py::list names = py::reinterpret_borrow<py::list>(argNames);
      for (size_t p = 0; p < count && p < names.size(); ++p)
        if (PyDict_SetItem(meta.ptr(), names[p].ptr(), values[p]) < 0) throw py::error_already_set();
      grid = grid(meta);
    }
    py::object dims = grid;
    if (PyList_Check(grid.ptr())) dims = py::tuple(grid);
    else if (!PyTuple_Check(grid.ptr())) dims = py::make_tuple(grid);
    if (!b->kernel->hasGlobals() || globalsChanged(b)) {
      static PyObject* const resolveName = interned("_resolve_globals");
      PyObject* r = PyObject_CallMethodNoArgs(b->jit, resolveName);
      if (!r) throw py::error_already_set();
      Py_DECREF(r);
    }
    static const py::dict* const noOptions = new py::dict();  // never filled; lives as long as the process
    launchKernel(*b->kernel, dims.ptr(), values, count, *noOptions);
    Py_RETURN_NONE;
  } catch (...) {
    return raiseCurrentException();
  }
}

int boundTraverse(PyObject* self, visitproc visit, void* arg) {
  auto* b = reinterpret_cast<BoundLaunchObject*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(b->jit);
  Py_VISIT(b->kernelObject);
  Py_VISIT(b->grid);
  Py_VISIT(b->missing);
  Py_VISIT(b->shapeNames);
  if (b->steps)
    for (const Step& s : *b->steps) Py_VISIT(s.value);
  return 0;
}

int boundClear(PyObject* self) {
  auto* b = reinterpret_cast<BoundLaunchObject*>(self);
  forgetShape(b);
  Py_CLEAR(b->jit);
  Py_CLEAR(b->kernelObject);
  Py_CLEAR(b->grid);
  Py_CLEAR(b->missing);
  b->kernel = nullptr;
  return 0;
}

void boundDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  boundClear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* boundNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"jit", "kernel", "grid", nullptr};
  PyObject *jit = nullptr, *kernelObject = nullptr, *grid = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:BoundLaunch", const_cast<char**>(keywords), &jit, &kernelObject,
                                   &grid))
    return nullptr;
  PythonKernel* kernel = nullptr;
  try {
    kernel = py::handle(kernelObject).cast<PythonKernel*>();
  } catch (...) {
    return raiseCurrentException();
  }
  if (!kernel) {
    PyErr_SetString(PyExc_TypeError, "BoundLaunch: kernel must be a _tilescope.Kernel");
    return nullptr;
  }
  static PyObject* const missingName = interned("_MISSING");
  PyObject* missing = PyObject_GetAttr(jit, missingName);  // a new reference
  if (!missing) return nullptr;
  auto* b = reinterpret_cast<BoundLaunchObject*>(type->tp_alloc(type, 0));
  if (!b) {
    Py_DECREF(missing);
    return nullptr;
  }
  b->missing = missing;
  b->vectorcall = &boundCall;
  b->jit = Py_NewRef(jit);
  b->kernelObject = Py_NewRef(kernelObject);
  b->kernel = kernel;
  b->grid = Py_NewRef(grid);
  b->shapeArgs = -1;
  b->shapeNames = nullptr;
  b->general = false;
  b->steps = nullptr;
  return reinterpret_cast<PyObject*>(b);
}

PyMemberDef boundMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(BoundLaunchObject, vectorcall), READONLY, nullptr},
    {"grid", T_OBJECT, offsetof(BoundLaunchObject, grid), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyType_Slot boundSlots[] = {{Py_tp_new, reinterpret_cast<void*>(&boundNew)},
                            {Py_tp_dealloc, reinterpret_cast<void*>(&boundDealloc)},
                            {Py_tp_traverse, reinterpret_cast<void*>(&boundTraverse)},
                            {Py_tp_clear, reinterpret_cast<void*>(&boundClear)},
                            {Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
                            {Py_tp_members, boundMembers},
                            {Py_tp_doc, const_cast<char*>("kernel[grid]: calling it launches the kernel on that grid.")},
                            {0, nullptr}};

PyType_Spec boundSpec = {"_tilescope.BoundLaunch", sizeof(BoundLaunchObject), 0,
                         Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL, boundSlots};


PyObject* subscript(PyObject* self, PyObject* grid) {
  static PyObject* const launcherForName = interned("_launcher_for");
  auto* s = reinterpret_cast<SubscriptObject*>(self);
  if (s->lastGrid == grid && s->lastLauncher) return Py_NewRef(s->lastLauncher);
  PyObject* launcher = PyObject_CallMethodOneArg(self, launcherForName, grid);
  if (!launcher) return nullptr;
  // The launcher holds its grid, so this grid object stays alive (its identity unique) while kept here.
  Py_XSETREF(s->lastGrid, Py_NewRef(grid));
  Py_XSETREF(s->lastLauncher, Py_NewRef(launcher));
  return launcher;
}

int subscriptTraverse(PyObject* self, visitproc visit, void* arg) {
  auto* s = reinterpret_cast<SubscriptObject*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(s->lastGrid);
  Py_VISIT(s->lastLauncher);
  Py_VISIT(s->globalsRead);
  return 0;
}

int subscriptClear(PyObject* self) {
  auto* s = reinterpret_cast<SubscriptObject*>(self);
  Py_CLEAR(s->lastGrid);
  Py_CLEAR(s->lastLauncher);
  Py_CLEAR(s->globalsRead);
  return 0;
}

void subscriptDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  subscriptClear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMemberDef subscriptMembers[] = {
    {"_globals_read", T_OBJECT_EX, offsetof(SubscriptObject, globalsRead), 0, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyType_Slot subscriptSlots[] = {{Py_tp_new, reinterpret_cast<void*>(&PyType_GenericNew)},
                                {Py_tp_dealloc, reinterpret_cast<void*>(&subscriptDealloc)},
                                {Py_tp_traverse, reinterpret_cast<void*>(&subscriptTraverse)},
                                {Py_tp_clear, reinterpret_cast<void*>(&subscriptClear)},
                                {Py_mp_subscript, reinterpret_cast<void*>(&subscript)},
                                {Py_tp_members, subscriptMembers},
                                {Py_tp_doc, const_cast<char*>("kernel[grid] without Python for a repeated grid.")},
                                {0, nullptr}};

PyType_Spec subscriptSpec = {"_tilescope.LaunchSubscript", sizeof(SubscriptObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, subscriptSlots};

}  // namespace

void bindBoundLaunch(py::module_& m) {
  if (!rethrower) {
    py::cpp_function rethrow([] {
      if (pendingException) std::rethrow_exception(pendingException);
    });
    rethrower = rethrow.release().ptr();
  }
  PyObject* bound = PyType_FromSpec(&boundSpec);
  if (!bound) throw py::error_already_set();
  m.attr("BoundLaunch") = py::reinterpret_steal<py::object>(bound);
  PyObject* base = PyType_FromSpec(&subscriptSpec);
  if (!base) throw py::error_already_set();
  subscriptType = reinterpret_cast<PyTypeObject*>(base);  // the module keeps it alive
  m.attr("LaunchSubscript") = py::reinterpret_steal<py::object>(base);
}

}  // namespace tilescope::python
