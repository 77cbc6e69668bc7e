#include "core/sim/Memory.h"

#include <algorithm>

#include "core/base/Diagnostic.h"
#include "core/sim/ElementCodec.h"
#include "core/ir/Numerics.h"

namespace tilescope::sim {

namespace {

// Write bookkeeping of tensors gone, kept for the next tensor of the same size (their contents need
// no clearing: each stripe is reset by its first store). At most kCachedBytes are kept.
struct WriteBookkeeping {
  int64_t elements = 0;
  std::unique_ptr<int32_t[]> writers;
  std::unique_ptr<uint8_t[]> flags;
};

class BookkeepingCache {
public:
  static BookkeepingCache& shared() {
    static BookkeepingCache* cache = new BookkeepingCache();  // never destroyed: used from destructors at exit
    return *cache;
  }
  bool take(int64_t elements, WriteBookkeeping& out) {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->elements == elements) {
        out = std::move(*it);
        bytes_ -= bytesOf(elements);
        kept_.erase(it);
        return true;
      }
    return false;
  }
  void give(WriteBookkeeping b) {
    const int64_t size = bytesOf(b.elements);
    if (size > kCachedBytes) return;
    std::lock_guard<std::mutex> guard(mutex_);
    while (!kept_.empty() && bytes_ + size > kCachedBytes) {  // the oldest go first
      bytes_ -= bytesOf(kept_.front().elements);
      kept_.erase(kept_.begin());
    }
    bytes_ += size;
    kept_.push_back(std::move(b));
  }

private:
  static constexpr int64_t kCachedBytes = int64_t{256} << 20;
  static int64_t bytesOf(int64_t elements) { return elements * static_cast<int64_t>(sizeof(int32_t) + 1); }
  std::mutex mutex_;
  std::vector<WriteBookkeeping> kept_;
  int64_t bytes_ = 0;
};

}  // namespace

Tensor::Tensor(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
               TensorInit init)
    : Tensor(id, std::move(name), dtype, std::move(shape), std::move(strides), init, {}) {}

Tensor::Tensor(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
               TensorInit init, std::span<uint8_t> external)
    : id_(id), name_(std::move(name)), dtype_(dtype), shape_(std::move(shape)), strides_(std::move(strides)) {
  elementSize_ = elementBytes(dtype_);
  numel_ = 1;
  for (int64_t d : shape_) {
    if (d < 0) throw lang::InternalError("Tensor: negative dimension");
    numel_ *= d;
  }
  if (strides_.empty()) {
    strides_.assign(shape_.size(), 1);
    for (int i = static_cast<int>(shape_.size()) - 2; i >= 0; --i) strides_[i] = strides_[i + 1] * shape_[i + 1];
  }
  if (strides_.size() != shape_.size()) throw lang::InternalError("Tensor: strides and shape differ in rank");
  // Storage covers the largest element any index can reach.
  storageElements_ = numel_ == 0 ? 0 : 1;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (strides_[i] < 0) throw lang::InternalError("Tensor: negative stride");
    if (numel_ > 0) storageElements_ += (shape_[i] - 1) * strides_[i];
  }
  if (storageElements_ * elementSize_ >= DeviceAddress::kMaxTensorBytes)
    throw lang::InternalError("Tensor: larger than the simulator's 512 GiB address window");
  size_ = static_cast<size_t>(storageElements_ * elementSize_);
  if (external.data()) {
    if (external.size() < size_) throw lang::InternalError("Tensor: borrowed bytes smaller than the tensor");
    data_ = external.data();
  } else {
    owned_.assign(size_, 0);
    data_ = owned_.data();
  }
  if (init == TensorInit::Uninitialized) initialized_.assign(static_cast<size_t>(storageElements_), 0);
  stripeCount_ = std::max<int64_t>(1, stripeOf(std::max<int64_t>(0, storageElements_ - 1)) + 1);
  stripes_ = std::make_unique<Stripe[]>(static_cast<size_t>(stripeCount_));
}

Tensor::~Tensor() {
  if (writer_)
    BookkeepingCache::shared().give({std::max<int64_t>(1, storageElements_), std::move(writer_), std::move(writeFlags_)});
}

std::string Tensor::shapeString() const {
  std::string s = "[";
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (i) s += "x";
    s += std::to_string(shape_[i]);
  }
  return s + "]";
}

double Tensor::loadFloat(int64_t element) const {
  if (!ir::isFloat(dtype_)) throw lang::InternalError("Tensor::loadFloat on an integer tensor");
  return decodeFloat(dtype_, data_ + element * elementSize_);
}

int64_t Tensor::loadInt(int64_t element) const {
  if (ir::isFloat(dtype_)) throw lang::InternalError("Tensor::loadInt on a float tensor");
  return decodeInt(dtype_, data_ + element * elementSize_);
}

void Tensor::storeFloat(int64_t element, double v) {
  if (!ir::isFloat(dtype_)) throw lang::InternalError("Tensor::storeFloat on an integer tensor");
  writeBits(data_ + element * elementSize_, encodeFloatBits(dtype_, v), elementSize_);
}

void Tensor::storeInt(int64_t element, int64_t v) {
  if (ir::isFloat(dtype_)) throw lang::InternalError("Tensor::storeInt on a float tensor");
  writeBits(data_ + element * elementSize_, encodeIntBits(dtype_, v), elementSize_);
}

void Tensor::markAllInitialized() { std::fill(initialized_.begin(), initialized_.end(), uint8_t{1}); }

void Tensor::touchForLaunch(uint64_t launchId) {
  if (launchId_.load(std::memory_order_acquire) == launchId) return;
  std::lock_guard<std::mutex> guard(bookkeeping_);
  if (launchId_.load(std::memory_order_relaxed) == launchId) return;
  if (!writer_) {
    // Uninitialised or a gone tensor's: each stripe is reset by its first store (resetStripe).
    const int64_t elements = std::max<int64_t>(1, storageElements_);
    WriteBookkeeping kept;
    if (BookkeepingCache::shared().take(elements, kept)) {
      writer_ = std::move(kept.writers);
      writeFlags_ = std::move(kept.flags);
    } else {
      writer_.reset(new int32_t[static_cast<size_t>(elements)]);
      writeFlags_.reset(new uint8_t[static_cast<size_t>(elements)]);
    }
  }
  conflicts_.clear();
  writeLocksReady_.store(false, std::memory_order_relaxed);
  writeLock_.reset();
  launchId_.store(launchId, std::memory_order_release);
}

void Tensor::resetStripe(int64_t stripe, uint64_t launchId) {
  const int64_t begin = stripe << kStripeShift;
  const int64_t end = std::min(storageElements_, (stripe + 1) << kStripeShift);
  if (begin < end) {
    std::fill(writer_.get() + begin, writer_.get() + end, -1);
    std::fill(writeFlags_.get() + begin, writeFlags_.get() + end, uint8_t{0});
    if (hasWriteLocks()) std::fill(writeLock_.get() + begin, writeLock_.get() + end, uint64_t{0});
  }
  stripes_[stripe].launch = launchId;
}

void Tensor::allocateWriteLocks() {
  std::lock_guard<std::mutex> guard(bookkeeping_);
  if (writeLocksReady_.load(std::memory_order_relaxed)) return;
  // Zero everywhere: stripes not yet reset for this launch are zeroed again by resetStripe, harmlessly.
  writeLock_.reset(new uint64_t[static_cast<size_t>(std::max<int64_t>(1, storageElements_))]());
  writeLocksReady_.store(true, std::memory_order_release);
}

void Tensor::finishLaunch(uint64_t launchId) {
  if (!writtenInLaunch(launchId)) return;
  for (int64_t s = 0; s < stripeCount_; ++s) prepareStripe(s, launchId);
}

// --- Memory ----------------------------------------------------------------------------------------

void Memory::finishLaunch(uint64_t launchId) {
  for (auto& [id, tensor] : tensors_) tensor->finishLaunch(launchId);
}

int Memory::create(std::string name, ir::DType dtype, std::vector<int64_t> shape, TensorInit init,
                   std::vector<int64_t> strides) {
  while (tensors_.count(nextId_)) ++nextId_;
  const int id = nextId_++;
  tensors_.emplace(id, std::make_unique<Tensor>(id, std::move(name), dtype, std::move(shape), std::move(strides), init));
  return id;
}

int Memory::createWithId(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, TensorInit init) {
  if (id < 1 || id >= (1 << 23) || tensors_.count(id)) throw lang::InternalError("sim memory: tensor id " + std::to_string(id) + " is not free");
  tensors_.emplace(id, std::make_unique<Tensor>(id, std::move(name), dtype, std::move(shape), std::vector<int64_t>{}, init));
  return id;
}

int Memory::adopt(int id, std::string name, ir::DType dtype, std::vector<int64_t> shape, TensorInit init,
                  std::span<uint8_t> external) {
  if (id == 0) {
    while (tensors_.count(nextId_)) ++nextId_;
    id = nextId_++;
  } else if (id < 1 || id >= (1 << 23) || tensors_.count(id)) {
    throw lang::InternalError("sim memory: tensor id " + std::to_string(id) + " is not free");
  }
  tensors_.emplace(id, std::make_unique<Tensor>(id, std::move(name), dtype, std::move(shape), std::vector<int64_t>{}, init,
                                                external));
  return id;
}

int Memory::createFromDoubles(std::string name, ir::DType dtype, std::vector<int64_t> shape,
                              std::span<const double> values) {
  const int id = create(std::move(name), dtype, std::move(shape));
  writeDoubles(id, values);
  return id;
}

int Memory::createFromInts(std::string name, ir::DType dtype, std::vector<int64_t> shape,
                           std::span<const int64_t> values) {
  const int id = create(std::move(name), dtype, std::move(shape));
  writeInts(id, values);
  return id;
}

void Memory::release(int id) { tensors_.erase(id); }

Tensor* Memory::find(int id) {
  auto it = tensors_.find(id);
  return it == tensors_.end() ? nullptr : it->second.get();
}
const Tensor* Memory::find(int id) const {
  auto it = tensors_.find(id);
  return it == tensors_.end() ? nullptr : it->second.get();
}

Tensor& Memory::get(int id) {
  Tensor* t = find(id);
  if (!t) throw lang::InternalError("Memory: unknown tensor id " + std::to_string(id));
  return *t;
}
const Tensor& Memory::get(int id) const {
  const Tensor* t = find(id);
  if (!t) throw lang::InternalError("Memory: unknown tensor id " + std::to_string(id));
  return *t;
}

std::vector<int> Memory::ids() const {
  std::vector<int> out;
  for (const auto& [id, _] : tensors_) out.push_back(id);
  return out;
}

void Memory::writeDoubles(int id, std::span<const double> values) {
  Tensor& t = get(id);
  if (static_cast<int64_t>(values.size()) != t.storageElements())
    throw lang::InternalError("Memory::writeDoubles: element count mismatch for " + t.name());
  const bool isFloat = ir::isFloat(t.dtype());
  for (int64_t i = 0; i < t.storageElements(); ++i) {
    if (isFloat) {
      t.storeFloat(i, values[i]);
    } else {
      t.storeInt(i, floatToInt(t.dtype(), values[i]));
    }
  }
  t.markAllInitialized();
}

void Memory::writeInts(int id, std::span<const int64_t> values) {
  Tensor& t = get(id);
  if (static_cast<int64_t>(values.size()) != t.storageElements())
    throw lang::InternalError("Memory::writeInts: element count mismatch for " + t.name());
  const bool isFloat = ir::isFloat(t.dtype());
  for (int64_t i = 0; i < t.storageElements(); ++i) {
    if (isFloat) {
      t.storeFloat(i, intToFloat(ir::DType::I64, values[i], t.dtype()));
    } else {
      t.storeInt(i, values[i]);
    }
  }
  t.markAllInitialized();
}

std::vector<double> Memory::readDoubles(int id) const {
  const Tensor& t = get(id);
  std::vector<double> out(static_cast<size_t>(t.storageElements()));
  const bool isFloat = ir::isFloat(t.dtype());
  const bool isUnsigned = ir::isUnsignedInt(t.dtype());
  for (int64_t i = 0; i < t.storageElements(); ++i) {
    if (isFloat) {
      out[i] = t.loadFloat(i);
    } else if (isUnsigned) {
      out[i] = static_cast<double>(asUnsigned(t.dtype(), t.loadInt(i)));
    } else {
      out[i] = static_cast<double>(t.loadInt(i));
    }
  }
  return out;
}

std::vector<int64_t> Memory::readInts(int id) const {
  const Tensor& t = get(id);
  std::vector<int64_t> out(static_cast<size_t>(t.storageElements()));
  const bool isFloat = ir::isFloat(t.dtype());
  for (int64_t i = 0; i < t.storageElements(); ++i) out[i] = isFloat ? floatToInt(ir::DType::I64, t.loadFloat(i)) : t.loadInt(i);
  return out;
}

}  // namespace tilescope::sim
