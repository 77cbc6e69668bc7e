#pragma once
// The bytes behind one or more tensors (views share a Storage through shared_ptr).
//
// Besides the 64-byte-aligned buffer, a Storage remembers which bytes were never written: torch.empty /
// empty_like hand out memory whose contents are garbage in real torch, and the kernel simulator warns
// when a kernel reads such an element. Every write through the tensor API marks its bytes written; an
// external writer (the simulator storing through a pointer) must call markWritten itself.
//
// Buffers are 64-byte aligned and always zero-filled (large ones come zeroed from the OS).
// Tracking costs nothing once a storage is fully written (the bitmap is dropped) and nothing for storages
// created initialised (zeros, ones, rand, results of operations).
//
// Not thread-safe: one interpreter thread owns its tensors.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tilescope::host {

class Storage {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t npos = static_cast<size_t>(-1);

  // The bytes are zero-filled either way (so results are reproducible even when a kernel does read
  // garbage); `initialised` only decides whether they count as written.
  static std::shared_ptr<Storage> create(size_t nbytes, bool initialised);
  // Someone else's host bytes (a NumPy array, an installed PyTorch's CPU tensor), used in place and
  // never freed here; the caller keeps their owner alive while the storage is in use.
  static std::shared_ptr<Storage> borrow(std::byte* data, size_t nbytes);

  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  ~Storage();

  std::byte* data() {
    if (mirror_.address && mirror_.newer != DeviceMirror::Side::Host) syncForHostWrite();
    return data_;
  }
  const std::byte* data() const {
    if (mirror_.address && mirror_.newer == DeviceMirror::Side::Device) syncForHostRead();
    return data_;
  }
  size_t nbytes() const { return nbytes_; }

  // --- initialisation tracking (per byte) ---
  bool fullyInitialised() const { return uninitialisedBytes_ == 0; }
  size_t uninitialisedBytes() const { return uninitialisedBytes_; }
  // True when every byte of [offset, offset + length) has been written.
  bool isInitialised(size_t offset, size_t length) const;
  // First never-written byte in [offset, offset + length), or npos.
  size_t firstUninitialised(size_t offset, size_t length) const;
  void markWritten(size_t offset, size_t length);
  void markAllWritten();

  // --- device copy (GPU backend). DeviceMemory keeps a device copy of a storage a GPU kernel used and
  // records here which side holds the newest bytes. Every host access through data() first fetches
  // newer device bytes, and a mutable access makes the host side the newest (the caller may write),
  // so the next launch uploads again. Storages no GPU kernel touched pay one predictable branch.
  struct DeviceMirror {
    enum class Side : uint8_t { Host, Device, Both };
    uint64_t address = 0;     // 0: no device copy
    uint64_t generation = 0;  // the GPU context generation the address belongs to
    Side newer = Side::Host;
    bool borrowed = false;    // someone else's device memory (installed PyTorch): never given back here
  };
  DeviceMirror& deviceMirror() { return mirror_; }
  const DeviceMirror& deviceMirror() const { return mirror_; }
  // Installed by DeviceMemory: fetch the device bytes into data_ (and set newer = Both), and give the
  // device copy back when the storage dies.
  struct DeviceHooks {
    void (*fetch)(Storage&) = nullptr;
    void (*release)(Storage&) = nullptr;
  };
  static void setDeviceHooks(DeviceHooks hooks);
  // Storages alive in the process (tests check that finished calls free their tensors).
  static long liveCount();
  // The host bytes without syncing (DeviceMemory's own copies).
  std::byte* hostBytes() { return data_; }

 private:
  Storage(std::byte* data, size_t nbytes, bool initialised);
  void syncForHostWrite();
  void syncForHostRead() const;

  std::byte* data_;
  size_t nbytes_;
  bool mapped_ = false;  // large buffers are mmap'd (see Storage.cpp)
  bool borrowed_ = false;  // data_ belongs to someone else (borrow)
  size_t uninitialisedBytes_ = 0;
  std::vector<uint64_t> writtenBits_;  // bit i set = byte i written; empty when fully initialised
  mutable DeviceMirror mirror_;
};

}  // namespace tilescope::host
