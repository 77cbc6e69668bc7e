#pragma once
// The lean GPU launch of a cached specialization from Python. A launch whose key (KernelBindings:
// the arguments' kinds, dtypes, 16-byte alignment, integer classes, constexpr values) was launched
// before on the GPU goes from the PyObject* arguments straight to the packed parameter buffer and
// cuLaunchKernel (GpuRuntime::launchAgain): no interpreter values, no specialization key rebuilt, no
// KernelLauncher. Built-in torch tensors pass their storage's device copy (uploaded only when the
// host changed it since); installed PyTorch's CUDA tensors (and other objects with data_ptr(),
// is_cuda and dtype) pass data_ptr(). Launches are asynchronous; their failures are reported at the
// next synchronisation (GpuRuntime). Only for core/python's own files: it includes pybind11.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "core/python/PythonKernel.h"
#include "core/tensor/Tensor.h"

namespace tilescope::python {

// The built-in torch's tensor behind `h`, or nullptr: without pybind11's type lookup by name when
// `h` is exactly _tilescope.Tensor (a launch asks for every argument).
const host::Tensor* builtinTensorOf(pybind11::handle h);

// The key part of a CUDA tensor of another library (installed PyTorch's): 'P', its dtype, whether
// data_ptr() (stored in `pointer`) is 16-byte aligned. False when `h` is not such a tensor (a CPU
// tensor, another object): the general path then takes it.
bool foreignCudaTensorKey(pybind11::handle h, std::string& key, uint64_t& pointer);

// The most parameters a launch keys (more take the general path).
constexpr size_t kMaxKeyedParams = 64;

// Launches `entry` with `args` (the kernel's parameters in order, as keyed) on grid `grid`;
// `foreignPointers`, by parameter, the data_ptr() foreignCudaTensorKey read (0 elsewhere). False
// when this launch cannot take the lean path (the simulator backend, traces or program timing wanted,
// GPU cross-checks, host functions, a kernel that reaches tensors through addresses it loads, no
// loaded build yet, a context that died): the caller takes the general path. Throws host::PyError.
bool launchOnGpuLean(PythonKernel& kernel, PythonKernel::FastLaunch& entry, PyObject* const* args,
                     const int64_t grid[3], const uint64_t* foreignPointers);

// _tilescope.Kernel.launch(grid, args, options) (KernelBindings.cpp): a cached key on the lean GPU
// path or without binding and checking, anything else on the general path (which remembers the key).
// `grid` is a tuple; `args` are `count` borrowed references (BoundLaunch passes its vectorcall's).
void launchKernel(PythonKernel& kernel, PyObject* grid, PyObject* const* args, size_t count,
                  const pybind11::dict& options);

// _tilescope.BoundLaunch (BoundLaunch.cpp): what `kernel[grid]` returns, and _tilescope.LaunchSubscript,
// JITFunction's base class, which answers `kernel[grid]`.
void bindBoundLaunch(pybind11::module_& m);

// _tilescope.synchronize(where): waits for the GPU when launches are pending and raises the first
// failure among them (RuntimeError with the kernel's diagnostic); nothing on the simulator.
void synchronizeLaunches(const std::string& where);

}  // namespace tilescope::python
