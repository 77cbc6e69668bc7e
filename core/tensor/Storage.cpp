#include "core/tensor/Storage.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <new>

#include <sys/mman.h>

namespace tilescope::host {

namespace {

// Large buffers come straight from mmap: the kernel hands out zeroed pages (no memset pass) and
// transparent huge pages cut the page-fault cost of a fresh 64 MiB tensor by ~500x the fault count,
// which is most of the time of an elementwise op on 2^24 floats.
constexpr size_t kMmapThreshold = size_t{1} << 20;

std::atomic<long> liveStorages{0};

size_t roundedSize(size_t nbytes) {
  // Round up (and never zero) so that even an empty tensor has a valid, aligned pointer for a kernel.
  return (nbytes + Storage::kAlignment - 1) / Storage::kAlignment * Storage::kAlignment + Storage::kAlignment;
}

}  // namespace

std::shared_ptr<Storage> Storage::create(size_t nbytes, bool initialised) {
  // Callers check sizes against memory (allocateStorageFor); this only keeps the rounding below from
  // wrapping around for a size no allocator could satisfy.
  if (nbytes > std::numeric_limits<size_t>::max() / 2) throw std::bad_alloc();
  const size_t allocBytes = roundedSize(nbytes);
  std::byte* data = nullptr;
  bool mapped = false;
  if (allocBytes >= kMmapThreshold) {
    void* p = ::mmap(nullptr, allocBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
#ifdef MADV_HUGEPAGE
      ::madvise(p, allocBytes, MADV_HUGEPAGE);  // a hint; ignored where THP is off
#endif
      data = static_cast<std::byte*>(p);
      mapped = true;
    }
  }
  if (!data) {
    data = static_cast<std::byte*>(::operator new(allocBytes, std::align_val_t(kAlignment)));
    std::memset(data, 0, allocBytes);
  }
  auto storage = std::shared_ptr<Storage>(new Storage(data, nbytes, initialised));
  storage->mapped_ = mapped;
  return storage;
}

std::shared_ptr<Storage> Storage::borrow(std::byte* data, size_t nbytes) {
  auto storage = std::shared_ptr<Storage>(new Storage(data, nbytes, true));
  storage->borrowed_ = true;
  return storage;
}

Storage::Storage(std::byte* data, size_t nbytes, bool initialised) : data_(data), nbytes_(nbytes) {
  ++liveStorages;
  if (!initialised && nbytes > 0) {
    uninitialisedBytes_ = nbytes;
    writtenBits_.assign((nbytes + 63) / 64, 0);
  }
}

namespace {
Storage::DeviceHooks deviceHooks;
}  // namespace

long Storage::liveCount() { return liveStorages.load(); }

void Storage::setDeviceHooks(DeviceHooks hooks) { deviceHooks = hooks; }

void Storage::syncForHostRead() const {
  if (deviceHooks.fetch) deviceHooks.fetch(const_cast<Storage&>(*this));
}

void Storage::syncForHostWrite() {
  if (mirror_.newer == DeviceMirror::Side::Device && deviceHooks.fetch) deviceHooks.fetch(*this);
  mirror_.newer = DeviceMirror::Side::Host;
}

Storage::~Storage() {
  --liveStorages;
  if (mirror_.address && deviceHooks.release) deviceHooks.release(*this);
  if (borrowed_) return;
  if (mapped_) ::munmap(data_, roundedSize(nbytes_));
  else ::operator delete(data_, std::align_val_t(kAlignment));
}

bool Storage::isInitialised(size_t offset, size_t length) const {
  return firstUninitialised(offset, length) == npos;
}

size_t Storage::firstUninitialised(size_t offset, size_t length) const {
  if (uninitialisedBytes_ == 0 || length == 0) return npos;
  const size_t end = std::min(offset + length, nbytes_);
  size_t i = offset;
  while (i < end) {
    const size_t word = i / 64;
    const unsigned bit = static_cast<unsigned>(i % 64);
    // Bits not yet written, from `bit` upward within this word.
    uint64_t missing = ~writtenBits_[word] >> bit;
    const size_t span = std::min<size_t>(64 - bit, end - i);
    if (span < 64) missing &= (uint64_t{1} << span) - 1;
    if (missing) return i + static_cast<size_t>(std::countr_zero(missing));
    i += span;
  }
  return npos;
}

void Storage::markWritten(size_t offset, size_t length) {
  if (uninitialisedBytes_ == 0 || length == 0) return;
  const size_t end = std::min(offset + length, nbytes_);
  size_t i = offset;
  while (i < end) {
    const size_t word = i / 64;
    const unsigned bit = static_cast<unsigned>(i % 64);
    const size_t span = std::min<size_t>(64 - bit, end - i);
    const uint64_t mask = (span == 64 ? ~uint64_t{0} : ((uint64_t{1} << span) - 1)) << bit;
    const uint64_t newly = mask & ~writtenBits_[word];
    writtenBits_[word] |= mask;
    uninitialisedBytes_ -= static_cast<size_t>(std::popcount(newly));
    i += span;
  }
  if (uninitialisedBytes_ == 0) {
    writtenBits_.clear();
    writtenBits_.shrink_to_fit();
  }
}

void Storage::markAllWritten() {
  uninitialisedBytes_ = 0;
  writtenBits_.clear();
  writtenBits_.shrink_to_fit();
}

}  // namespace tilescope::host
