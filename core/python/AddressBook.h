#pragma once
// Addresses of tensors that host code has seen (`tensor.data_ptr()`), so that kernels can read
// addresses from memory and turn them into pointers (`tl.load(ptrs + g).to(tl.pointer_type(...))`,
// as in Triton's grouped GEMM).
//
// data_ptr() returns the address the kernel's backend understands: on the simulator a simulated
// address (core/sim/DeviceAddress) of a tensor id that stays the storage's for its life; on the GPU
// its device copy's address. Such storages are "exposed": a launch of a kernel that makes pointers
// from integers also maps every live exposed storage (the simulator into its memory under that id,
// the GPU by uploading it and marking it written afterwards), even when the launch does not pass
// it as an argument. Addresses of storages that died belong to no tensor any more: a kernel using
// one gets the simulator's out-of-bounds error naming the address.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "core/tensor/Tensor.h"
#include "core/ir/Kernel.h"

namespace tilescope::host {

class LaunchContext;

class AddressBook {
public:
  struct Entry {
    Tensor tensor;        // the storage's elements as the tensor whose address was taken first saw them
    int simulatedId = 0;  // the tensor id of its simulated addresses
  };

  // The simulated tensor id of the tensor's storage, fixed at its first data_ptr().
  int simulatedId(const Tensor& tensor);
  // The id an exposed storage has, or 0.
  int exposedId(const Storage* storage) const;
  // Live exposed storages (those that died are dropped here).
  std::vector<Entry> live();

  // tensor.data_ptr(): the address of the tensor's first element for the backend kernels run on.
  static int64_t dataPtr(LaunchContext& in, const Tensor& tensor);
  // Whether the kernel turns integers into pointers (then every exposed storage must be mapped);
  // remembered per kernel, since GPU launches ask on every call.
  bool makesPointersFromIntegers(const ir::KernelPtr& kernel);

  // Simulated ids of exposed storages: above those a launch gives its arguments (1, 2, ...), and
  // small enough that id * 2^40 stays a positive int64.
  static constexpr int kFirstId = 1 << 22;
  static constexpr int kLastId = (1 << 23) - 1;

private:
  struct Slot {
    std::weak_ptr<Storage> storage;
    const Storage* key = nullptr;
    int simulatedId = 0;
    DType dtype = DType::U8;
    Shape shape;  // the tensor's shape when it covered its whole storage, else the elements
  };
  std::vector<Slot> slots_;
  int nextId_ = kFirstId;
  std::map<const ir::Kernel*, std::pair<std::weak_ptr<const ir::Kernel>, bool>> kernels_;
};

}  // namespace tilescope::host
