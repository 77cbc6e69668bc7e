#include "core/python/AddressBook.h"

#include <algorithm>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/DeviceMemory.h"
#include "core/python/LaunchContext.h"
#include "core/python/PyError.h"
#include "core/ir/IRVisitor.h"
#include "core/sim/DeviceAddress.h"

namespace tilescope::host {

namespace {

class IntToPointerFinder : public ir::IRVisitor {
public:
  bool found = false;

protected:
  void visitCast(const ir::Cast& n) override {
    if (n.type.isPointer() && !n.value.type().isPointer()) found = true;
    ir::IRVisitor::visitCast(n);
  }
};

}  // namespace

int AddressBook::simulatedId(const Tensor& tensor) {
  const std::shared_ptr<Storage>& storage = tensor.storage();
  if (int id = exposedId(storage.get())) return id;
  // Ids of dead storages are not reused, so that their addresses stay invalid.
  if (nextId_ > kLastId)
    throw PyError("RuntimeError", "data_ptr(): more than " + std::to_string(kLastId - kFirstId + 1) +
                                      " tensors had their address taken in this session; restart the kernel");
  const int64_t elements = static_cast<int64_t>(storage->nbytes()) / tensor.elementSize();
  const bool whole = tensor.storageOffset() == 0 && tensor.isContiguous() && tensor.numel() == elements;
  slots_.push_back({storage, storage.get(), nextId_, tensor.dtype(), whole ? tensor.shape() : Shape{elements}});
  return nextId_++;
}

int AddressBook::exposedId(const Storage* storage) const {
  for (const Slot& s : slots_)
    if (s.key == storage && !s.storage.expired()) return s.simulatedId;
  return 0;
}

std::vector<AddressBook::Entry> AddressBook::live() {
  std::vector<Entry> out;
  slots_.erase(std::remove_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.storage.expired(); }), slots_.end());
  for (const Slot& s : slots_)
    if (auto p = s.storage.lock()) {
      out.push_back({Tensor(std::move(p), s.dtype, s.shape, contiguousStrides(s.shape), 0, Device{}), s.simulatedId});
    }
  return out;
}

int64_t AddressBook::dataPtr(LaunchContext& in, const Tensor& tensor) {
  AddressBook& book = in.extension<AddressBook>();
  const int id = book.simulatedId(tensor);
  const int64_t byteOffset = tensor.storageOffset() * tensor.elementSize();
  const Backend backend = in.launchSettings().backend;
  const bool gpu = backend == Backend::Gpu || (backend == Backend::Auto && gpu::GpuRuntime::instance().available());
  if (!gpu) return sim::DeviceAddress::make(id, byteOffset);
  try {
    return static_cast<int64_t>(DeviceMemory::addressFor(*tensor.storage(), "data_ptr()")) + byteOffset;
  } catch (const gpu::GpuError& e) {
    throw PyError("RuntimeError", e.what());
  }
}

bool AddressBook::makesPointersFromIntegers(const ir::KernelPtr& kernel) {
  auto it = kernels_.find(kernel.get());
  if (it != kernels_.end() && it->second.first.lock() == kernel) return it->second.second;
  if (kernels_.size() > 256) {
    for (auto k = kernels_.begin(); k != kernels_.end();) k = k->second.first.expired() ? kernels_.erase(k) : std::next(k);
  }
  IntToPointerFinder finder;
  finder.visitKernel(*kernel);
  kernels_[kernel.get()] = {kernel, finder.found};
  return finder.found;
}

}  // namespace tilescope::host
