#pragma once
// Pointer arguments that are not the built-in torch's tensors, as Triton takes them: any object with
// data_ptr() (an installed PyTorch's tensors), __cuda_array_interface__, __array_interface__ (NumPy)
// or __dlpack__. The engine sees a tensor over the object's own memory (host::Storage::borrow): CPU
// memory is used in place by the simulator and copied to and from the GPU around a GPU launch;
// device memory is used in place by the GPU backend (tilescope's runtime shares the primary context
// with PyTorch) and copied to and from the host around a simulated launch. Only for core/python's own
// files: it includes pybind11.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "core/tensor/Tensor.h"

namespace tilescope::python {

// Memory a launch borrowed: synced back to its owner after the launch.
struct BorrowedMemory {
  std::shared_ptr<host::Storage> storage;
  bool onDevice = false;
  pybind11::object keepAlive;  // a DLPack capsule, say: alive until the launch ends
};

// Whether `h` is a pointer argument this file converts (not one of our tensors, not a number).
bool isForeignPointer(pybind11::handle h);
// The tensor the engine sees for it; TypeError naming the parameter when its dtype, memory or extent
// cannot be read.
host::Tensor borrowTensor(pybind11::handle h, const std::string& param, std::vector<BorrowedMemory>& borrowed);
// The element type of a data_ptr() object's dtype attribute (a torch dtype, ours or installed
// PyTorch's, a triton.language dtype, a NumPy dtype); TypeError naming the parameter otherwise.
host::DType pointerDTypeOf(pybind11::handle h, const std::string& param);
// After the launch: results written on the other side go back to the owner's memory. Never throws
// (a failure is printed, as Storage::data() reports a failed copy).
void syncBorrowed(std::vector<BorrowedMemory>& borrowed) noexcept;

}  // namespace tilescope::python
