#pragma once
// Conversions between Python objects and the engine's values, shared by the bindings: Python numbers
// and nested lists for the tensor library, launch arguments for KernelLauncher (host::Value), and a
// kernel's globals for the checker (lang::Value). Only for core/python's own files: it includes
// pybind11.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "core/tensor/NestedValue.h"
#include "core/tensor/Scalar.h"
#include "core/tensor/TypePromotion.h"
#include "core/python/Value.h"
#include "core/kernel/Value.h"

namespace tilescope::python {

// torch.float32 and friends: _tilescope.dtype.
struct TorchDType {
  host::DType dtype;
};

// bool, int (OverflowError beyond 64 bits) or float; nullopt for anything else.
std::optional<host::Scalar> scalarOf(pybind11::handle h);
// Like scalarOf, TypeError naming `what` for anything else.
host::Scalar requireScalar(pybind11::handle h, const char* what);
// A Python int (or an object with __index__) that fits in 64 bits.
int64_t integerOf(pybind11::handle h, const char* what);
// A number or a (nested) list/tuple of numbers, as torch.tensor takes them.
host::NestedValue nestedOf(pybind11::handle h);
pybind11::object objectOf(const host::Scalar& s);
pybind11::object objectOf(const host::NestedValue& v);

// A kernel launch argument: a Tensor (the pointer), bool, int, float, None, str, or a dtype
// (torch's or triton.language's, a constexpr). TypeError naming the parameter otherwise.
host::Value launchArgumentOf(pybind11::handle h, const std::string& param);

// What a kernel sees for a global name of its Python module: a constexpr (numbers, str, None,
// tl.constexpr values, dtypes), or one of the modules and builtins the checker knows (triton,
// triton.language, tl.arange imported by name, ...). Other objects: undefined, with a message saying
// to pass the value as an argument.
lang::Value kernelGlobalOf(pybind11::handle h, const std::string& name);

}  // namespace tilescope::python
