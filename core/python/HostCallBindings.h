#pragma once
// Host calls from kernels on embedded CPython: a kernel that calls a plain Python function (the seeds'
// print_if(f'pid = {pid} ...', '')) runs it on the simulator once per program (KernelHostCalls).
// The function becomes a host builtin that the launch context finds under the kernel's global name;
// tiles reach it as _tilescope.HostTile, which prints like NumPy (KernelHostCalls' TileArray) and indexes,
// compares and converts like a small array.
// Only for core/python's own files: it includes pybind11.
#include <pybind11/pybind11.h>

#include <string>

#include "core/python/Value.h"

namespace tilescope::python {

// Whether a kernel global is a plain Python function to call from the kernel (not one of the modules
// the checker knows).
bool isHostFunction(pybind11::handle h);
// The host builtin that calls `fn` with the program's values.
host::Value hostFunctionOf(pybind11::handle fn, const std::string& name);

void bindHostCalls(pybind11::module_& m);

}  // namespace tilescope::python
