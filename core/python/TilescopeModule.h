#pragma once
// The native module `_tilescope` that our pure-Python packages (resources/python: triton, torch,
// tilescope) wrap: the tensor library (TensorBindings), kernels and launches (KernelBindings), and the
// output streams of the running cell. Registered with the embedded interpreter before it starts.
struct _object;  // PyObject

namespace pybind11 {
class module_;
}

namespace tilescope::python {

// CPython's init function for `import _tilescope` (PyImport_AppendInittab).
_object* initTilescopeModule();

// The parts, one per file pair.
void bindTensors(pybind11::module_& m);
void bindKernels(pybind11::module_& m);
void bindTesting(pybind11::module_& m);
void bindDriver(pybind11::module_& m);
void bindCupy(pybind11::module_& m);

}  // namespace tilescope::python
