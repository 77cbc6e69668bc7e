#pragma once
// Device copies of host tensors' storages for the GPU backend. A storage gets a device copy the first
// time a GPU kernel (or cuBLAS, or a RawKernel) uses it, and keeps it: later launches upload it again
// only when the host side changed it since, and host code reads a kernel's results lazily, when it
// touches them (Storage::data()). So `do_bench(lambda: add(x, y))` moves no input bytes after the
// first call, as with real device tensors.
#include <cstdint>
#include <string>

#include "core/tensor/Storage.h"

namespace tilescope::host {

class DeviceMemory {
public:
  // The device address of the storage's first byte, uploading the host bytes when they are newer.
  // A storage no one ever wrote (torch.empty) is zero-filled on the device instead, as on the host.
  static uint64_t addressFor(Storage& storage, const std::string& forWhat);
  // After a launch that may have written the storage: host readers fetch the device bytes first.
  static void markDeviceNewer(Storage& storage);
  // Installs Storage's hooks (idempotent; addressFor does it too).
  static void install();
};

}  // namespace tilescope::host
