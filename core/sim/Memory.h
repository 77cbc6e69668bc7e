#pragma once
// The simulated device memory: a table of tensors, each with its element type, shape and strides
// (for messages and the host view), byte storage in the dtype's own encoding (fp16 as 2 bytes,
// bool as 1 byte, little-endian), and bookkeeping the simulator uses to check programs:
//   * initialized: one byte per element for tensors created uninitialized (torch.empty); reads of
//     never-written elements are reported as warnings;
//   * per launch: which program (linear id) wrote each element last, whether more than one program
//     wrote it, and whether they wrote different values - the coverage report.
// Launch-time access (Simulator) takes the locks of the tensor's stripes it touches (runs of
// kStripeElements storage elements): shared for loads, exclusive for stores and atomics, so programs
// running on several threads never race in C++ terms, and programs writing different parts of one
// tensor do not wait for each other. A stripe's write bookkeeping is reset for a launch by the first
// store into it (under its lock), so a launch's start costs nothing per element.
// A tensor either owns its bytes or borrows them (Memory::adopt): host code's tensors are the
// simulator's memory, so a launch copies nothing in or out.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "core/sim/SpinSharedMutex.h"

#include "core/ir/DType.h"
#include "core/sim/DeviceAddress.h"

namespace tilescope::sim {

enum class TensorInit : uint8_t {
  Zeros,          // torch.zeros, torch.tensor(...): every element counts as written
  Uninitialized,  // torch.empty: reads before a write are flagged
};

// Per-element launch bookkeeping flags.
enum WriteFlags : uint8_t { kWrittenByMany = 1, kConflicting = 2, kAtomic = 4 };

// Two programs stored different values to one element during a launch.
struct WriteConflict {
  int64_t element = 0;  // storage element index
  int32_t firstProgram = 0;
  int32_t secondProgram = 0;
};

class Tensor {
public:
  Tensor(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
         TensorInit init);
  // Borrows `external` (at least storageElements() * elementSize() bytes, alive as long as this).
  Tensor(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
         TensorInit init, std::span<uint8_t> external);
  // Hands its write bookkeeping to the next tensor of its size (fresh pages cost a launch more
  // than its stores: host code's launches each get a fresh Memory).
  ~Tensor();
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  int id() const { return id_; }
  const std::string& name() const { return name_; }
  ir::DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int64_t numel() const { return numel_; }
  // Elements in storage (>= numel for padded strides; the bounds every access is checked against).
  int64_t storageElements() const { return storageElements_; }
  int elementSize() const { return elementSize_; }
  int64_t byteSize() const { return static_cast<int64_t>(size_); }
  int64_t baseAddress() const { return DeviceAddress::make(id_, 0); }
  // "[6]", "[150x225]" - how messages name the shape.
  std::string shapeString() const;

  std::span<uint8_t> bytes() { return {data_, size_}; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }

  // Element access in the compute representation (see Tile.h), by storage element index.
  double loadFloat(int64_t element) const;
  int64_t loadInt(int64_t element) const;  // ints and bools; wrapped to the dtype
  void storeFloat(int64_t element, double v);  // rounds to the dtype
  void storeInt(int64_t element, int64_t v);   // wraps to the dtype

  // torch.empty bookkeeping. Host writes through Memory mark elements initialized.
  bool tracksInit() const { return !initialized_.empty(); }
  bool isInitialized(int64_t element) const { return initialized_.empty() || initialized_[element] != 0; }
  void markInitialized(int64_t element) {
    if (!initialized_.empty()) initialized_[element] = 1;
  }
  void markAllInitialized();
  // The per-element "written" flags (empty when not tracked), for bulk marking.
  std::span<uint8_t> initializedFlags() { return initialized_; }

  // --- lock stripes ---
  static constexpr int kStripeShift = 12;  // 4,096 elements a stripe
  static int64_t stripeOf(int64_t element) { return element >> kStripeShift; }
  int64_t stripeCount() const { return stripeCount_; }
  SpinSharedMutex& stripeMutex(int64_t stripe) const { return stripes_[stripe].mutex; }

  // --- launch bookkeeping (used by the simulator under the stripes' exclusive locks) ---
  // Starts tracking writes for launch `launchId` if not yet started (on the first store; thread-safe).
  void touchForLaunch(uint64_t launchId);
  // Resets the write bookkeeping of `stripe` for the launch unless done already. Call under the
  // stripe's exclusive lock, after touchForLaunch.
  void prepareStripe(int64_t stripe, uint64_t launchId) {
    Stripe& st = stripes_[stripe];
    if (st.launch != launchId) resetStripe(stripe, launchId);
  }
  // After the launch's programs: stripes no store reached read as never written.
  void finishLaunch(uint64_t launchId);
  bool writtenInLaunch(uint64_t launchId) const { return launchId_.load(std::memory_order_acquire) == launchId && writer_; }
  std::span<int32_t> writers() { return {writer_.get(), writer_ ? static_cast<size_t>(storageElements_) : 0}; }
  std::span<const int32_t> writers() const { return {writer_.get(), writer_ ? static_cast<size_t>(storageElements_) : 0}; }
  std::span<uint8_t> writeFlags() { return {writeFlags_.get(), writeFlags_ ? static_cast<size_t>(storageElements_) : 0}; }
  std::span<const uint8_t> writeFlags() const {
    return {writeFlags_.get(), writeFlags_ ? static_cast<size_t>(storageElements_) : 0};
  }
  // The lock (LockKey, 0 for none) the last writer of each element held, allocated at the first
  // write under a lock in the launch: writes under one lock are ordered by it, not racing.
  bool hasWriteLocks() const { return writeLocksReady_.load(std::memory_order_acquire); }
  uint64_t writeLockOf(int64_t element) const { return hasWriteLocks() ? writeLock_[element] : 0; }
  void setWriteLock(int64_t element, uint64_t lock) {
    if (!hasWriteLocks()) {
      if (lock == 0) return;
      allocateWriteLocks();
    }
    writeLock_[element] = lock;
  }
  // Records a conflict among the first few of the launch (the count is in the flags). Thread-safe.
  void noteConflict(const WriteConflict& c) {
    std::lock_guard<std::mutex> guard(bookkeeping_);
    if (conflicts_.size() < kKeptConflicts) conflicts_.push_back(c);
  }
  const std::vector<WriteConflict>& conflicts() const { return conflicts_; }

private:
  int id_;
  std::string name_;
  ir::DType dtype_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  int64_t numel_ = 0;
  int64_t storageElements_ = 0;
  int elementSize_ = 1;
  std::vector<uint8_t> owned_;  // empty when the bytes are borrowed
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::vector<uint8_t> initialized_;

  struct alignas(64) Stripe {  // a cache line each: threads locking neighbouring stripes do not collide
    SpinSharedMutex mutex;
    uint64_t launch = 0;  // the launch this stripe's write bookkeeping is reset for
  };
  static constexpr size_t kKeptConflicts = 8;
  void resetStripe(int64_t stripe, uint64_t launchId);
  void allocateWriteLocks();

  int64_t stripeCount_ = 1;
  std::unique_ptr<Stripe[]> stripes_;
  std::mutex bookkeeping_;  // guards the launch change, conflicts_ and writeLock_'s allocation
  std::atomic<uint64_t> launchId_{0};
  std::unique_ptr<int32_t[]> writer_;  // -1: not written in this launch (valid in prepared stripes)
  std::unique_ptr<uint8_t[]> writeFlags_;
  std::vector<WriteConflict> conflicts_;
  std::unique_ptr<uint64_t[]> writeLock_;
  std::atomic<bool> writeLocksReady_{false};
};

class Memory {
public:
  Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // A new tensor; strides default to contiguous row-major. Returns its id (>= 1).
  int create(std::string name, ir::DType dtype, std::vector<int64_t> shape, TensorInit init = TensorInit::Zeros,
             std::vector<int64_t> strides = {});
  // A tensor under a chosen id (a host tensor whose address a kernel may have read from memory keeps
  // one id across launches); ids create() hands out skip it. InternalError when the id is taken.
  int createWithId(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape,
                   TensorInit init = TensorInit::Zeros);
  // A contiguous tensor over bytes the caller owns (a host tensor's storage), which must stay alive
  // and unmoved while the tensor exists; `id` 0 picks a free id. Nothing is copied.
  int adopt(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, TensorInit init,
            std::span<uint8_t> external);
  // Convenience: a 1-D or shaped tensor filled from values (all marked initialized).
  int createFromDoubles(std::string name, ir::DType dtype, std::vector<int64_t> shape, std::span<const double> values);
  int createFromInts(std::string name, ir::DType dtype, std::vector<int64_t> shape, std::span<const int64_t> values);
  void release(int id);
  // Tensor::finishLaunch for every tensor: call after a launch's programs, before reading coverage.
  void finishLaunch(uint64_t launchId);

  Tensor& get(int id);  // throws InternalError for unknown ids
  const Tensor& get(int id) const;
  Tensor* find(int id);
  const Tensor* find(int id) const;
  std::vector<int> ids() const;

  // Host reads and writes of whole tensors, in storage order. Writes mark elements initialized.
  void writeDoubles(int id, std::span<const double> values);
  void writeInts(int id, std::span<const int64_t> values);
  std::vector<double> readDoubles(int id) const;  // ints converted with their signedness
  std::vector<int64_t> readInts(int id) const;

private:
  int nextId_ = 1;
  std::map<int, std::unique_ptr<Tensor>> tensors_;
};

}  // namespace tilescope::sim
