#include "core/python/DeviceMemory.h"

#include <cstdio>

#include "core/gpu/runtime/GpuRuntime.h"

namespace tilescope::host {

namespace {

using Side = Storage::DeviceMirror::Side;

bool alive(const Storage::DeviceMirror& m) {
  return m.address && m.generation == gpu::GpuRuntime::instance().generation();
}

void fetch(Storage& s) {
  Storage::DeviceMirror& m = s.deviceMirror();
  if (m.newer != Side::Device) return;
  if (!alive(m)) {
    // The context died (a GPU fault, reported at that launch): what the device held is gone and the
    // host keeps the bytes from before the failed launch.
    m = Storage::DeviceMirror{};
    return;
  }
  try {
    gpu::GpuRuntime::instance().download(s.hostBytes(), m.address, s.nbytes(), "reading a tensor back from the GPU");
    m.newer = Side::Both;
  } catch (const std::exception& e) {
    // Storage::data() cannot throw into every host op: report, and keep the host bytes.
    std::fprintf(stderr, "tilescope: %s\n", e.what());
    m = Storage::DeviceMirror{};
  }
}

void release(Storage& s) {
  Storage::DeviceMirror& m = s.deviceMirror();
  if (!m.borrowed) gpu::GpuRuntime::instance().release(m.address, s.nbytes(), m.generation);
  m = Storage::DeviceMirror{};
}

}  // namespace

void DeviceMemory::install() {
  static const bool installed = [] {
    Storage::setDeviceHooks({&fetch, &release});
    return true;
  }();
  (void)installed;
}

uint64_t DeviceMemory::addressFor(Storage& storage, const std::string& forWhat) {
  install();
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  Storage::DeviceMirror& m = storage.deviceMirror();
  if (m.address && !alive(m)) m = Storage::DeviceMirror{};  // from a context that died
  if (!m.address) {
    m.address = rt.allocate(storage.nbytes(), forWhat);
    m.generation = rt.generation();
    m.newer = Side::Host;
    if (storage.uninitialisedBytes() == storage.nbytes()) {
      // Nothing to copy: the host bytes are zeros no one wrote (torch.empty).
      rt.fillZero(m.address, storage.nbytes(), forWhat);
      m.newer = Side::Both;
    }
  }
  if (m.newer == Side::Host) {
    rt.upload(m.address, storage.hostBytes(), storage.nbytes(), forWhat);
    m.newer = Side::Both;
  }
  return m.address;
}

void DeviceMemory::markDeviceNewer(Storage& storage) {
  Storage::DeviceMirror& m = storage.deviceMirror();
  if (m.address) m.newer = Side::Device;
}

}  // namespace tilescope::host
