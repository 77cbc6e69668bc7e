#include "core/sim/MemoryAccess.h"

#include <algorithm>
#include <iterator>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "core/sim/DeviceAddress.h"
#include "core/sim/ElementCodec.h"
#include "core/sim/SimulationError.h"
#include "core/sim/TraceRecorder.h"

namespace tilescope::sim::memaccess {

namespace {

constexpr size_t kShownOffsets = 8;

// Where each lane of an access goes. Either every active lane lies in one tensor (`single`, the
// fast path) or `lanes` names each active lane's tensor. When the lanes address consecutive
// elements of `single` (the common `ptr + offsets` case), `first` is lane 0's element and no
// per-lane table is built.
struct Plan {
  Tensor* single = nullptr;
  std::vector<Tensor*> lanes;
  std::unique_ptr<int64_t[]> table;  // element of each lane (masked lanes: unused); null when consecutive
  int64_t first = -1;                // consecutive lanes: the element of lane 0
  int64_t count = 0;                 // lanes
  int mainTensorId = 0;  // the tensor of the first active lane (or lane 0): what the access "is"
  int64_t active = 0;
  int64_t lo = 0, hi = -1;  // `single`: the elements the active lanes lie between (the stripes to lock)
  // With LaunchOptions::stopOnOutOfBounds off: the access's mask with the stray lanes switched off.
  std::vector<int64_t> inBoundsMask;

  // The mask the access runs under: the kernel's, less any stray lanes.
  const int64_t* effectiveMask(const int64_t* kernelMask) const {
    return inBoundsMask.empty() ? kernelMask : inBoundsMask.data();
  }

  // Rows (a 2-D or wider pointer tile whose every row of rowLength lanes addresses consecutive
  // elements, as `ptr + rows[:, None] * stride + cols[None, :]` does): rowStart[r] is the element of
  // row r's first lane (rows without active lanes: unused), and no per-lane table is built.
  int64_t rowLength = 0;
  std::vector<int64_t> rowStart;

  bool consecutive() const { return !table && rowLength == 0; }
  int64_t element(int64_t lane) const {
    if (table) return table[lane];
    if (rowLength) return rowStart[static_cast<size_t>(lane / rowLength)] + lane % rowLength;
    return first + lane;
  }
};

const int64_t* maskOf(const Tile* mask) { return mask ? mask->ints() : nullptr; }

// The per-lane loops every access runs are compiled for AVX2 too and picked at run time (GCC's
// function multiversioning): 4 int64 lanes at a time instead of SSE2's 2.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define TILESCOPE_LANE_LOOP [[gnu::target_clones("avx2", "default")]]
#else
#define TILESCOPE_LANE_LOOP
#endif

// Nonzero when some lane i does not hold start + i * size.
TILESCOPE_LANE_LOOP int64_t strayFromRun(const int64_t* addr, int64_t n, int64_t start, int64_t size) {
  int64_t strayed = 0;
  for (int64_t i = 0, expect = start; i < n; ++i, expect += size) strayed |= addr[i] ^ expect;
  return strayed;
}

TILESCOPE_LANE_LOOP int64_t countActive(const int64_t* m, int64_t n) {
  int64_t active = 0;
  for (int64_t i = 0; i < n; ++i) active += m[i] != 0;
  return active;
}

// The locks of the stripes holding elements [lo, hi] of one tensor (Memory.h), shared or exclusive,
// taken in increasing order (tensors in id order when an access spans several), released on scope exit.
template <bool Exclusive>
class StripeLocks {
public:
  StripeLocks(const Tensor& t, int64_t lo, int64_t hi) : tensor_(&t) {
    first_ = Tensor::stripeOf(std::max<int64_t>(0, lo));
    last_ = std::min(Tensor::stripeOf(std::max<int64_t>(0, hi)), t.stripeCount() - 1);
    for (int64_t s = first_; s <= last_; ++s) {
      if constexpr (Exclusive)
        t.stripeMutex(s).lock();
      else
        t.stripeMutex(s).lock_shared();
    }
  }
  // Every stripe of the tensor.
  explicit StripeLocks(const Tensor& t) : StripeLocks(t, 0, t.storageElements() - 1) {}
  StripeLocks(StripeLocks&& o) noexcept : tensor_(std::exchange(o.tensor_, nullptr)), first_(o.first_), last_(o.last_) {}
  StripeLocks(const StripeLocks&) = delete;
  StripeLocks& operator=(const StripeLocks&) = delete;
  StripeLocks& operator=(StripeLocks&&) = delete;
  ~StripeLocks() {
    if (!tensor_) return;
    for (int64_t s = last_; s >= first_; --s) {
      if constexpr (Exclusive)
        tensor_->stripeMutex(s).unlock();
      else
        tensor_->stripeMutex(s).unlock_shared();
    }
  }
  int64_t firstStripe() const { return first_; }
  int64_t lastStripe() const { return last_; }

private:
  const Tensor* tensor_;
  int64_t first_ = 0, last_ = -1;
};

// Under exclusive stripe locks: the write bookkeeping of those stripes ready for this launch.
void prepareForWrites(LaunchContext& L, Tensor& T, const StripeLocks<true>& locks) {
  if (!L.options.checkCoverage) return;
  T.touchForLaunch(L.launchId);
  for (int64_t s = locks.firstStripe(); s <= locks.lastStripe(); ++s) T.prepareStripe(s, L.launchId);
}

std::string joinOffsets(const std::vector<std::string>& parts, int64_t total) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  if (total > static_cast<int64_t>(parts.size())) s += ", ...";
  return s;
}

// The out-of-bounds report: an error that stops the launch, or a warning when the launch goes on.
lang::Diagnostic outOfBounds(bool fatal, LaunchContext& L, ProgramState& P, const char* what, const lang::SourceRange& range,
                                   const Tile& ptr, const std::vector<int64_t>& badLanes, int64_t badCount,
                                   int64_t active, int mainTensorId) {
  const int size = elementBytes(ptr.dtype());
  const Tensor* main = L.memory.find(mainTensorId);
  std::string msg = std::string("out-of-bounds ") + what + " in kernel '" + L.kernel.name + "', program pid " + P.pidText() + ": ";
  std::vector<std::string> shown;
  bool strayed = false;
  for (int64_t lane : badLanes) {
    const int64_t a = ptr.ints()[lane];
    if (main && DeviceAddress::tensorId(a) == mainTensorId) {
      const int64_t off = DeviceAddress::byteOffset(a);
      shown.push_back(off % size == 0 ? std::to_string(off / size) : "byte " + std::to_string(off) + " (misaligned)");
    } else {
      strayed = true;
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(a));
      shown.push_back("lane " + std::to_string(lane) + " at address " + hex + ", in no tensor");
    }
  }
  if (main) {
    msg += std::to_string(badCount) + " of " + std::to_string(active) + " active lane" + (active == 1 ? " is" : "s are") +
           " outside " + L.describeTensor(*main) + "; offending element offsets: " + joinOffsets(shown, badCount) +
           " (valid offsets are 0.." + std::to_string(main->storageElements() - 1) + ")";
  } else {
    msg += "the pointer does not point into any live tensor (" + joinOffsets(shown, badCount) + ")";
  }
  if (!fatal) msg += "; those lanes read as 0 and are not written (the launch goes on because out-of-bounds stops are off)";
  lang::Diagnostic d = fatal ? lang::Diagnostic::error(range, msg) : lang::Diagnostic::warning(range, msg);
  if (strayed || !main)
    d.withNote({}, "pointers must be derived from a tensor argument by adding offsets to it, or be addresses of "
                   "live tensors (tensor.data_ptr()) loaded from memory");
  else
    d.withNote({}, "mask the access so that lanes outside the tensor are not touched, e.g. "
                   "tl.load(ptr + offsets, mask=offsets < n)");
  return d;
}

// The row length of a pointer tile whose rows plan() may treat as runs (its last dimension), or 0.
int64_t rowLengthOf(const Tile& ptr) {
  if (ptr.rank() < 2) return 0;
  const int64_t cols = ptr.shape().back();
  return cols >= 4 && ptr.numel() % cols == 0 ? cols : 0;
}

// Whether every row of `cols` lanes addresses consecutive elements of `size` bytes (masked lanes
// included). One branch-free pass, so the compiler vectorises it.
TILESCOPE_LANE_LOOP bool rowsAreRuns(const int64_t* addr, int64_t n, int64_t cols, int64_t size) {
  int64_t strayed = 0;
  for (int64_t r0 = 0; r0 < n; r0 += cols) {
    const int64_t* row = addr + r0;
    for (int64_t j = 0, expect = row[0]; j < cols; ++j, expect += size) strayed |= row[j] ^ expect;
  }
  return strayed == 0;
}

// The rows fast path of plan(), for a pointer tile whose rows are runs (rowsAreRuns): true (and
// `pl` filled) when the active lanes lie inside `t`.
bool rowsPlan(Plan& pl, Tensor* t, const Tile& ptr, const int64_t* m, int64_t base, int64_t last, int shift) {
  const int64_t n = ptr.numel();
  const int64_t cols = ptr.shape().back();
  const int64_t rows = n / cols;
  const int64_t* addr = ptr.ints();
  const int size = 1 << shift;
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  int64_t bits = 0;
  int64_t active = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t* row = addr + r * cols;
    int64_t firstOn = 0, lastOn = cols - 1;
    if (m) {
      const int64_t* mr = m + r * cols;
      while (firstOn < cols && !mr[firstOn]) ++firstOn;
      if (firstOn == cols) continue;  // no active lane in this row
      while (!mr[lastOn]) --lastOn;
      for (int64_t j = firstOn; j <= lastOn; ++j) active += mr[j] != 0;
    } else {
      active += cols;
    }
    lo = std::min(lo, row[firstOn]);
    hi = std::max(hi, row[lastOn]);
    bits |= row[0];
  }
  if (active == 0 || lo < base || hi > last || (bits & (size - 1)) != 0) return false;
  pl.single = t;
  pl.active = active;
  pl.lo = (lo - base) >> shift;
  pl.hi = (hi - base) >> shift;
  pl.rowLength = cols;
  pl.rowStart.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) pl.rowStart[static_cast<size_t>(r)] = (addr[r * cols] - base) >> shift;
  return true;
}

Plan plan(LaunchContext& L, ProgramState& P, const char* what, const lang::SourceRange& range, const Tile& ptr,
          const Tile* mask) {
  Plan pl;
  const int64_t n = ptr.numel();
  const int64_t* addr = ptr.ints();
  const int64_t* m = maskOf(mask);
  const int size = elementBytes(ptr.dtype());
  pl.count = n;
  int64_t first = -1;
  for (int64_t i = 0; i < n; ++i)
    if (!m || m[i]) {
      first = i;
      break;
    }
  if (n > 0) pl.mainTensorId = DeviceAddress::tensorId(addr[first >= 0 ? first : 0]);
  if (first < 0) {
    pl.first = 0;
    return pl;
  }

  // Fast paths: the active lanes' address range lies inside the first lane's tensor.
  if (Tensor* t = L.memory.find(pl.mainTensorId)) {
    const int64_t base = t->baseAddress();
    const int64_t last = base + t->byteSize() - size;
    const int shift = std::countr_zero(static_cast<unsigned>(size));
    // Consecutive elements (lane i at addr[0] + i * size, masked lanes included): the bounds are
    // those of the first and last active lanes. Branch-free loops, so the compiler vectorises them.
    const int64_t start = addr[0];
    int64_t strayed = 0;
    const int64_t cols = rowLengthOf(ptr);
    const bool rowRuns = cols > 0 && rowsAreRuns(addr, n, cols, size);
    if (cols == 0) {
      strayed = strayFromRun(addr, n, start, size);
    } else if (rowRuns) {
      // Rows that are runs, each starting where the one before ended: one run.
      for (int64_t r0 = 0; r0 < n; r0 += cols) strayed |= addr[r0] ^ (start + r0 * size);
    } else {
      strayed = 1;
    }
    if (strayed == 0) {
      int64_t lastActive = n - 1;
      int64_t active = n;
      if (m) {
        while (!m[lastActive]) --lastActive;
        active = countActive(m, n);
      }
      if (addr[first] >= base && addr[lastActive] <= last && (start & (size - 1)) == 0) {
        pl.single = t;
        pl.active = active;
        pl.first = (start - base) >> shift;  // masked lanes past the tensor are never touched
        pl.lo = (addr[first] - base) >> shift;
        pl.hi = (addr[lastActive] - base) >> shift;
        return pl;
      }
    } else if (rowRuns && rowsPlan(pl, t, ptr, m, base, last, shift)) {
      return pl;
    } else {
      int64_t lo = std::numeric_limits<int64_t>::max();
      int64_t hi = std::numeric_limits<int64_t>::min();
      int64_t bits = 0;
      int64_t active = 0;
      if (!m) {
        for (int64_t i = 0; i < n; ++i) {
          lo = std::min(lo, addr[i]);
          hi = std::max(hi, addr[i]);
          bits |= addr[i];
        }
        active = n;
      } else {
        constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
        for (int64_t i = 0; i < n; ++i) {
          const bool on = m[i] != 0;
          lo = std::min(lo, on ? addr[i] : kMax);
          hi = std::max(hi, on ? addr[i] : kMin);
          bits |= on ? addr[i] : 0;
          active += on;
        }
      }
      if (lo >= base && hi <= last && (bits & (size - 1)) == 0) {
        pl.single = t;
        pl.active = active;
        pl.lo = (lo - base) >> shift;
        pl.hi = (hi - base) >> shift;
        pl.table.reset(new int64_t[static_cast<size_t>(n)]);
        int64_t* el = pl.table.get();
        for (int64_t i = 0; i < n; ++i) el[i] = (addr[i] - base) >> shift;  // masked lanes: unused
        return pl;
      }
    }
  }

  // Slow path: lanes in several tensors, or some lane out of bounds.
  pl.table.reset(new int64_t[static_cast<size_t>(n)]());
  pl.lanes.assign(static_cast<size_t>(n), nullptr);
  std::vector<int64_t> bad;
  int64_t badCount = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (m && !m[i]) continue;
    ++pl.active;
    Tensor* ti = L.memory.find(DeviceAddress::tensorId(addr[i]));
    const int64_t off = DeviceAddress::byteOffset(addr[i]);
    if (!ti || off < 0 || off + size > ti->byteSize() || off % size != 0) {
      if (bad.size() < kShownOffsets) bad.push_back(i);
      ++badCount;
      continue;
    }
    pl.lanes[i] = ti;
    pl.table[i] = off / size;
  }
  if (badCount > 0) {
    if (L.options.stopOnOutOfBounds)
      throw SimulationError(outOfBounds(true, L, P, what, range, ptr, bad, badCount, pl.active, pl.mainTensorId));
    L.warnOnce(&range, kWarnOutOfBounds, P.linearId, outOfBounds(false, L, P, what, range, ptr, bad, badCount, pl.active, pl.mainTensorId));
    pl.inBoundsMask.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) pl.inBoundsMask[i] = (!m || m[i]) && pl.lanes[i] != nullptr;
    pl.active -= badCount;
  }
  return pl;
}

void record(LaunchContext& L, ProgramState& P, MemOpKind kind, const lang::SourceRange& range, const Tile& ptr,
            const Tile* mask, const TileRef& values, std::string detail, int mainTensorId) {
  if (!P.trace || !L.recorder) return;
  MemAccessEvent e;
  e.kind = kind;
  e.location = L.recorder->location(range);
  e.tensorId = L.memory.find(mainTensorId) ? mainTensorId : 0;
  if (auto it = L.argOfTensor.find(mainTensorId); it != L.argOfTensor.end()) e.argIndex = it->second;
  e.shape = ptr.shape();
  const int64_t n = ptr.numel();
  const int64_t base = DeviceAddress::make(mainTensorId, 0);
  const int size = elementBytes(ptr.dtype());
  e.offsets.resize(static_cast<size_t>(n));
  // A shift, not a division, for the usual in-tensor lanes (sizes are powers of two).
  const int shift = std::countr_zero(static_cast<unsigned>(size));
  const int64_t* addr = ptr.ints();
  int64_t* offsets = e.offsets.data();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t diff = addr[i] - base;
    offsets[i] = diff >= 0 ? diff >> shift : diff / size;
  }
  if (mask) {
    e.mask.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) e.mask[i] = mask->ints()[i] != 0;
  }
  if (L.options.recordValues) e.values = values;
  e.detail = std::move(detail);
  L.recorder->add(P.trace, std::move(e));
}

// Reads the active lanes of one tensor; `fromLanes` picks per-lane tensors (slow path).
TILESCOPE_LANE_LOOP void gather(const Plan& pl, ir::DType t, const int64_t* m, Tile& out) {
  const int64_t n = out.numel();
  const int size = elementBytes(t);
  auto laneBytes = [&](int64_t i) -> const uint8_t* {
    const Tensor* tensor = pl.single ? pl.single : pl.lanes[i];
    return tensor->bytes().data() + pl.element(i) * size;
  };
  if (pl.single && pl.consecutive()) {
    const uint8_t* bytes = pl.single->bytes().data() + pl.first * size;
    if (t == ir::DType::FP32) {
      double* o = out.floats();
      if (!m) {
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<double>(readRaw<float>(bytes + i * 4));
      } else {
        for (int64_t i = 0; i < n; ++i)
          if (m[i]) o[i] = static_cast<double>(readRaw<float>(bytes + i * 4));
      }
      return;
    }
    if (t == ir::DType::I32) {
      int64_t* o = out.ints();
      for (int64_t i = 0; i < n; ++i)
        if (!m || m[i]) o[i] = readRaw<int32_t>(bytes + i * 4);
      return;
    }
  } else if (pl.single && pl.rowLength) {
    const int64_t cols = pl.rowLength;
    if (t == ir::DType::FP32 || t == ir::DType::FP16 || t == ir::DType::BF16) {
      double* o = out.floats();
      for (int64_t r = 0; r < n / cols; ++r) {
        const int64_t* mr = m ? m + r * cols : nullptr;
        if (mr && std::find_if(mr, mr + cols, [](int64_t v) { return v != 0; }) == mr + cols) continue;
        const uint8_t* bytes = pl.single->bytes().data() + pl.rowStart[static_cast<size_t>(r)] * size;
        double* orow = o + r * cols;
        if (t == ir::DType::FP32) {
          if (!mr) {
            for (int64_t j = 0; j < cols; ++j) orow[j] = static_cast<double>(readRaw<float>(bytes + j * 4));
          } else {
            for (int64_t j = 0; j < cols; ++j)
              if (mr[j]) orow[j] = static_cast<double>(readRaw<float>(bytes + j * 4));
          }
        } else {
          for (int64_t j = 0; j < cols; ++j)
            if (!mr || mr[j]) orow[j] = decodeFloat(t, bytes + j * size);
        }
      }
      return;
    }
  } else if (pl.single && pl.table) {
    const uint8_t* bytes = pl.single->bytes().data();
    const int64_t* el = pl.table.get();
    if (t == ir::DType::FP32) {
      double* o = out.floats();
      for (int64_t i = 0; i < n; ++i)
        if (!m || m[i]) o[i] = static_cast<double>(readRaw<float>(bytes + el[i] * 4));
      return;
    }
    if (t == ir::DType::I32) {
      int64_t* o = out.ints();
      for (int64_t i = 0; i < n; ++i)
        if (!m || m[i]) o[i] = readRaw<int32_t>(bytes + el[i] * 4);
      return;
    }
  }
  if (out.hasFloatStorage()) {
    for (int64_t i = 0; i < n; ++i)
      if (!m || m[i]) out.floats()[i] = decodeFloat(t, laneBytes(i));
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (!m || m[i]) out.ints()[i] = decodeInt(t, laneBytes(i));
  }
}

void checkInitialized(LaunchContext& L, ProgramState& P, const ir::Load& node, const Plan& pl, const int64_t* m,
                      int64_t n) {
  int64_t firstBad = -1;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (m && !m[i]) continue;
    const Tensor* t = pl.single ? pl.single : pl.lanes[i];
    if (!t->isInitialized(pl.element(i))) {
      if (firstBad < 0) firstBad = i;
      ++count;
    }
  }
  if (firstBad < 0) return;
  const Tensor* t = pl.single ? pl.single : pl.lanes[firstBad];
  L.warnOnce(&node, kWarnUninitRead, P.linearId,
             lang::Diagnostic::warning(
                 node.range, "load in kernel '" + L.kernel.name + "' reads " + std::to_string(count) +
                                 " element(s) of " + L.describeTensor(*t) +
                                 " that were never written (the tensor was created uninitialized, e.g. by torch.empty), "
                                 "first element offset " + std::to_string(pl.element(firstBad)) + " in program pid " +
                                 P.pidText() + "; on the GPU these values are garbage"));
}

// Encodes a value tile into per-lane element bits of dtype t.
std::vector<uint64_t> encode(const Tile& v, ir::DType t) {
  const int64_t n = v.numel();
  std::vector<uint64_t> bits(static_cast<size_t>(n));
  if (v.hasFloatStorage()) {
    if (t == ir::DType::FP32) {
      for (int64_t i = 0; i < n; ++i) bits[i] = std::bit_cast<uint32_t>(static_cast<float>(v.floats()[i]));
    } else {
      for (int64_t i = 0; i < n; ++i) bits[i] = encodeFloatBits(t, v.floats()[i]);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) bits[i] = encodeIntBits(t, v.ints()[i]);
  }
  return bits;
}

// Writes the active lanes into one tensor, tracking writers for the coverage report.
void writeLanes(LaunchContext& L, ProgramState& P, Tensor& T, const Plan& pl, const int64_t* m, const uint64_t* bits,
                int size, bool onlyLanesOfT) {
  const bool track = L.options.checkCoverage;  // the caller prepared the stripes (prepareForWrites)
  uint8_t* bytes = T.bytes().data();
  int32_t* writers = track ? T.writers().data() : nullptr;
  uint8_t* flags = track ? T.writeFlags().data() : nullptr;
  const auto pid = static_cast<int32_t>(P.linearId);
  const bool init = T.tracksInit();
  const int64_t n = pl.count;
  const uint64_t lock = P.innermostLock();
  for (int64_t i = 0; i < n; ++i) {
    if (m && !m[i]) continue;
    if (onlyLanesOfT && pl.lanes[i] != &T) continue;
    const int64_t e = pl.element(i);
    uint8_t* dst = bytes + e * size;
    if (track) {
      int32_t& w = writers[e];
      if (w < 0) {
        w = pid;
      } else if (w != pid) {
        flags[e] |= kWrittenByMany;
        const bool ordered = lock != 0 && T.writeLockOf(e) == lock;
        if (!ordered && std::memcmp(dst, &bits[i], static_cast<size_t>(size)) != 0) {
          flags[e] |= kConflicting;
          T.noteConflict({e, w, pid});
        }
        w = pid;
      }
      T.setWriteLock(e, lock);
    }
    writeBits(dst, bits[i], size);
    if (init) T.markInitialized(e);
  }
}

// writeLanes for the most common store: fp32 values into consecutive elements of one tensor. Separate
// simple loops over restrict pointers, so that the compiler keeps everything in registers.
TILESCOPE_LANE_LOOP void writeConsecutiveFp32(LaunchContext& L, ProgramState& P, Tensor& T, int64_t first, int64_t n, const int64_t* m,
                          const double* values) {
  const bool track = L.options.checkCoverage;  // the caller prepared the stripes (prepareForWrites)
  const auto pid = static_cast<int32_t>(P.linearId);
  if (track) {
    int32_t* __restrict writers = T.writers().data() + first;
    uint8_t* __restrict flags = T.writeFlags().data() + first;
    const uint8_t* old = T.bytes().data() + first * 4;
    const uint64_t lock = P.innermostLock();
    const bool locks = lock != 0 || T.hasWriteLocks();  // else the plain loop below
    for (int64_t i = 0; i < n; ++i) {
      if (m && !m[i]) continue;
      const bool ordered = lock != 0 && T.writeLockOf(first + i) == lock;
      if (locks) T.setWriteLock(first + i, lock);
      if (writers[i] < 0 || writers[i] == pid) continue;
      // Another program wrote this element in this launch.
      flags[i] |= kWrittenByMany;
      const auto bits = std::bit_cast<uint32_t>(static_cast<float>(values[i]));
      if (!ordered && std::memcmp(old + i * 4, &bits, 4) != 0) {
        flags[i] |= kConflicting;
        T.noteConflict({first + i, writers[i], pid});
      }
    }
    if (!m) {
      for (int64_t i = 0; i < n; ++i) writers[i] = pid;
    } else {
      for (int64_t i = 0; i < n; ++i)  // masked-off lanes may lie past the tensor: never touch them
        if (m[i]) writers[i] = pid;
    }
  }
  uint8_t* __restrict dst = T.bytes().data() + first * 4;
  if (!m) {
    for (int64_t i = 0; i < n; ++i) {
      const float f = static_cast<float>(values[i]);
      std::memcpy(dst + i * 4, &f, 4);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (!m[i]) continue;
      const float f = static_cast<float>(values[i]);
      std::memcpy(dst + i * 4, &f, 4);
    }
  }
  if (T.tracksInit()) {
    uint8_t* __restrict init = T.initializedFlags().data() + first;
    if (!m) {
      std::fill(init, init + n, uint8_t{1});
    } else {
      for (int64_t i = 0; i < n; ++i)
        if (m[i]) init[i] = 1;
    }
  }
}

// The distinct tensors of a slow-path plan, in id order (the lock order).
std::vector<Tensor*> tensorsOf(const Plan& pl) {
  std::vector<Tensor*> ts;
  for (Tensor* t : pl.lanes)
    if (t) ts.push_back(t);
  std::sort(ts.begin(), ts.end(), [](Tensor* a, Tensor* b) { return a->id() < b->id(); });
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  return ts;
}

template <class F>
Plan planRecorded(LaunchContext& L, ProgramState& P, const char* what, MemOpKind kind, const lang::SourceRange& range,
                  const Tile& ptr, const Tile* mask, F&& valuesForRecord) {
  try {
    return plan(L, P, what, range, ptr, mask);
  } catch (const SimulationError&) {
    // Keep the offending access in the trace: it is what the user wants to look at.
    record(L, P, kind, range, ptr, mask, valuesForRecord(), "", DeviceAddress::tensorId(ptr.numel() ? ptr.ints()[0] : 0));
    throw;
  }
}

}  // namespace

TileRef load(LaunchContext& L, ProgramState& P, const ir::Load& node, const Tile& ptr, const Tile* mask,
             const Tile* other) {
  const ir::DType t = ptr.dtype();
  Plan pl = planRecorded(L, P, "load", MemOpKind::Load, node.range, ptr, mask, [] { return TileRef(); });
  const int64_t* m = maskOf(mask);
  const int64_t n = ptr.numel();
  // Every lane in bounds and none masked: gather writes them all, so the zero fill is skipped.
  const bool everyLaneRead = !m && pl.inBoundsMask.empty() && pl.active == n;
  Tile out = everyLaneRead ? Tile::uninitialized(ir::Type(t, false, ptr.shape())) : Tile(t, false, ptr.shape());
  if (m && other) {
    // Masked-off lanes yield `other`; active lanes are overwritten below.
    if (out.hasFloatStorage())
      std::copy(other->floats(), other->floats() + n, out.floats());
    else
      std::copy(other->ints(), other->ints() + n, out.ints());
  }
  if (!pl.inBoundsMask.empty() && other) {
    // Stray lanes (out-of-bounds stops off) read as 0, not as `other`.
    for (int64_t i = 0; i < n; ++i) {
      if ((m && !m[i]) || pl.inBoundsMask[i]) continue;
      if (out.hasFloatStorage())
        out.floats()[i] = 0.0;
      else
        out.ints()[i] = 0;
    }
  }
  const int64_t* active = pl.effectiveMask(m);
  if (pl.active > 0) {
    if (pl.single) {
      const StripeLocks<false> lock(*pl.single, pl.lo, pl.hi);
      gather(pl, t, active, out);
      if (pl.single->tracksInit()) checkInitialized(L, P, node, pl, active, n);
    } else {
      std::vector<StripeLocks<false>> locks;
      for (Tensor* tensor : tensorsOf(pl)) locks.emplace_back(*tensor);
      gather(pl, t, active, out);
      checkInitialized(L, P, node, pl, active, n);
    }
  }
  TileRef result = makeTileRef(std::move(out));
  record(L, P, MemOpKind::Load, node.range, ptr, mask, result, "", pl.mainTensorId);
  return result;
}

void store(LaunchContext& L, ProgramState& P, const ir::Store& node, const Tile& ptr, const TileRef& value,
           const Tile* mask) {
  const ir::DType t = ptr.dtype();
  Plan pl = planRecorded(L, P, "store", MemOpKind::Store, node.range, ptr, mask, [&] { return value; });
  if (pl.active > 0 && pl.single && pl.consecutive() && t == ir::DType::FP32 && value->hasFloatStorage() &&
      value->numel() == pl.count) {
    const StripeLocks<true> lock(*pl.single, pl.lo, pl.hi);
    prepareForWrites(L, *pl.single, lock);
    writeConsecutiveFp32(L, P, *pl.single, pl.first, pl.count, maskOf(mask), value->floats());
  } else if (pl.active > 0 && pl.single && pl.rowLength && t == ir::DType::FP32 && value->hasFloatStorage() &&
             value->numel() == pl.count) {
    // Rows of consecutive elements: each row as the consecutive store above.
    const StripeLocks<true> lock(*pl.single, pl.lo, pl.hi);
    prepareForWrites(L, *pl.single, lock);
    const int64_t cols = pl.rowLength;
    const int64_t* m = maskOf(mask);
    for (int64_t r = 0; r < pl.count / cols; ++r) {
      const int64_t* mr = m ? m + r * cols : nullptr;
      if (mr && std::find_if(mr, mr + cols, [](int64_t v) { return v != 0; }) == mr + cols) continue;
      writeConsecutiveFp32(L, P, *pl.single, pl.rowStart[static_cast<size_t>(r)], cols, mr, value->floats() + r * cols);
    }
  } else if (pl.active > 0) {
    const std::vector<uint64_t> bits = encode(*value, t);
    const int size = elementBytes(t);
    const int64_t* m = pl.effectiveMask(maskOf(mask));
    if (pl.single) {
      const StripeLocks<true> lock(*pl.single, pl.lo, pl.hi);
      prepareForWrites(L, *pl.single, lock);
      writeLanes(L, P, *pl.single, pl, m, bits.data(), size, false);
    } else {
      for (Tensor* tensor : tensorsOf(pl)) {
        const StripeLocks<true> lock(*tensor);
        prepareForWrites(L, *tensor, lock);
        writeLanes(L, P, *tensor, pl, m, bits.data(), size, true);
      }
    }
  }
  record(L, P, MemOpKind::Store, node.range, ptr, mask, value, "", pl.mainTensorId);
}

namespace {

// One atomic lane under its stripe's exclusive lock: reads the old value into `old`, writes the new.
void atomicLane(LaunchContext& L, ProgramState& P, Tensor& T, int64_t e, ir::DType t, int size, Tile& old, int64_t i,
                const std::function<void(uint8_t*)>& update) {
  uint8_t* p = T.bytes().data() + e * size;
  if (old.hasFloatStorage())
    old.floats()[i] = decodeFloat(t, p);
  else
    old.ints()[i] = decodeInt(t, p);
  update(p);
  if (L.options.checkCoverage) {
    T.touchForLaunch(L.launchId);
    T.prepareStripe(Tensor::stripeOf(e), L.launchId);
    T.writers()[e] = static_cast<int32_t>(P.linearId);
    T.writeFlags()[e] |= kAtomic;  // atomics from many programs are the point, not a race
  }
  T.markInitialized(e);
}

// The bits of an element of `size` bytes.
uint64_t elementMask(int size) { return size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1; }

// After an atomic wrote `written` to element e of T: a held lock whose word is zero again is released.
// Returns whether one was.
bool releaseIfFreed(ProgramState& P, const Tensor& T, int64_t e, uint64_t written, int size) {
  if (P.heldLocks.empty() || (written & elementMask(size)) != 0) return false;
  const auto it = std::find(P.heldLocks.rbegin(), P.heldLocks.rend(), lockKey(T.id(), e));
  if (it == P.heldLocks.rend()) return false;
  P.heldLocks.erase(std::next(it).base());
  return true;
}

int64_t orderKey(ir::DType t, int64_t v) {
  return t == ir::DType::U64 ? static_cast<int64_t>(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63)) : v;
}

}  // namespace

TileRef atomicRMW(LaunchContext& L, ProgramState& P, const ir::AtomicRMW& node, const Tile& ptr, const TileRef& value,
                  const Tile* mask) {
  const ir::DType t = ptr.dtype();
  const std::string opName(ir::atomicOpName(node.op));
  Plan pl = planRecorded(L, P, "atomic", MemOpKind::AtomicRMW, node.range, ptr, mask, [&] { return value; });
  Tile old(t, false, ptr.shape());
  const int64_t* m = pl.effectiveMask(maskOf(mask));
  const int size = elementBytes(t);
  const Tile& v = *value;
  for (int64_t i = 0; i < ptr.numel(); ++i) {
    if (m && !m[i]) continue;
    Tensor& T = pl.single ? *pl.single : *pl.lanes[i];
    const StripeLocks<true> lock(T, pl.element(i), pl.element(i));
    uint64_t written = 0;
    atomicLane(L, P, T, pl.element(i), t, size, old, i, [&](uint8_t* p) {
      if (old.hasFloatStorage()) {
        const double cur = old.floats()[i];
        const double x = v.floats()[i];
        double r = x;
        switch (node.op) {
          case ir::AtomicOp::Add: r = cur + x; break;
          case ir::AtomicOp::Max: r = std::fmax(cur, x); break;
          case ir::AtomicOp::Min: r = std::fmin(cur, x); break;
          case ir::AtomicOp::Xchg: r = x; break;
          default: throw lang::InternalError("bitwise atomic on a float");
        }
        written = encodeFloatBits(t, r);
        writeBits(p, written, size);
      } else {
        const int64_t cur = old.ints()[i];
        const int64_t x = v.ints()[i];
        int64_t r = x;
        switch (node.op) {
          case ir::AtomicOp::Add: r = static_cast<int64_t>(static_cast<uint64_t>(cur) + static_cast<uint64_t>(x)); break;
          case ir::AtomicOp::Max: r = orderKey(t, cur) >= orderKey(t, x) ? cur : x; break;
          case ir::AtomicOp::Min: r = orderKey(t, cur) <= orderKey(t, x) ? cur : x; break;
          case ir::AtomicOp::Xchg: r = x; break;
          case ir::AtomicOp::And: r = cur & x; break;
          case ir::AtomicOp::Or: r = cur | x; break;
          case ir::AtomicOp::Xor: r = cur ^ x; break;
        }
        written = encodeIntBits(t, wrapInt(t, r));
        writeBits(p, written, size);
      }
    });
    releaseIfFreed(P, T, pl.element(i), written, size);
  }
  TileRef result = makeTileRef(std::move(old));
  record(L, P, MemOpKind::AtomicRMW, node.range, ptr, mask, value, opName, pl.mainTensorId);
  return result;
}

TileRef atomicCAS(LaunchContext& L, ProgramState& P, const ir::AtomicCAS& node, const Tile& ptr, const Tile& cmp,
                  const TileRef& value) {
  const ir::DType t = ptr.dtype();
  Plan pl = planRecorded(L, P, "atomic_cas", MemOpKind::AtomicCAS, node.range, ptr, nullptr, [&] { return value; });
  Tile old(t, false, ptr.shape());
  const int size = elementBytes(t);
  const Tile& v = *value;
  const int64_t* m = pl.effectiveMask(nullptr);
  for (int64_t i = 0; i < ptr.numel(); ++i) {
    if (m && !m[i]) continue;
    Tensor& T = pl.single ? *pl.single : *pl.lanes[i];
    const StripeLocks<true> lock(T, pl.element(i), pl.element(i));
    bool swapped = false;
    uint64_t want = 0, written = 0;
    const uint64_t mask = elementMask(size);
    atomicLane(L, P, T, pl.element(i), t, size, old, i, [&](uint8_t* p) {
      // Compared bit for bit, as the GPU's integer CAS does for every dtype.
      uint64_t cur = 0;
      std::memcpy(&cur, p, static_cast<size_t>(size));
      want = cmp.hasFloatStorage() ? encodeFloatBits(t, cmp.floats()[i]) : encodeIntBits(t, cmp.ints()[i]);
      if ((cur & mask) == (want & mask)) {
        written = v.hasFloatStorage() ? encodeFloatBits(t, v.floats()[i]) : encodeIntBits(t, v.ints()[i]);
        writeBits(p, written, size);
        swapped = true;
      }
    });
    if (!swapped) continue;
    const int64_t e = pl.element(i);
    // A swap of a zero word to nonzero takes it as a lock (Triton's spin-lock idiom; released when
    // the word is set back to zero).
    if (!releaseIfFreed(P, T, e, written, size) && (want & mask) == 0 && (written & mask) != 0)
      P.heldLocks.push_back(lockKey(T.id(), e));
  }
  TileRef result = makeTileRef(std::move(old));
  record(L, P, MemOpKind::AtomicCAS, node.range, ptr, nullptr, value, "cas", pl.mainTensorId);
  return result;
}

}  // namespace tilescope::sim::memaccess
