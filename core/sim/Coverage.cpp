#include "core/sim/Coverage.h"

#include <algorithm>
#include <atomic>

#include "core/sim/WorkerPool.h"

namespace tilescope::sim {

const TensorCoverage* CoverageReport::find(int tensorId) const {
  for (const TensorCoverage& t : tensors)
    if (t.tensorId == tensorId) return &t;
  return nullptr;
}

namespace {

// A row-major tensor's write bookkeeping summed: elements written, written by many, all flags or'ed.
struct WriteCounts {
  int64_t written = 0;
  int64_t many = 0;
  uint8_t any = 0;
};

// One pass over writers and flags, in chunks shared among `threads` simulator threads (a launch's
// serial tail otherwise: 20 MiB for a 4M-element output).
WriteCounts countWrites(const int32_t* writers, const uint8_t* flags, int64_t n, int threads) {
  constexpr int64_t kChunk = int64_t{1} << 16;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<WriteCounts> parts(static_cast<size_t>(chunks));
  std::atomic<int64_t> next{0};
  static_assert(kWrittenByMany == 1, "counted by adding the flag bit");
  WorkerPool::shared().run(static_cast<int>(std::min<int64_t>(std::max(1, threads), chunks)), [&] {
    for (int64_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
      const int64_t begin = c * kChunk, end = std::min(n, begin + kChunk);
      WriteCounts w;
      for (int64_t i = begin; i < end; ++i) w.written += writers[i] >= 0;
      for (int64_t i = begin; i < end; ++i) {
        w.many += flags[i] & kWrittenByMany;
        w.any |= flags[i];
      }
      parts[static_cast<size_t>(c)] = w;
    }
  });
  WriteCounts total;
  for (const WriteCounts& w : parts) {
    total.written += w.written;
    total.many += w.many;
    total.any |= w.any;
  }
  return total;
}

std::string indexText(const std::vector<int64_t>& shape, int64_t flat) {
  if (shape.size() <= 1) return std::to_string(flat);
  std::vector<int64_t> idx(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "(";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + ")";
}

std::string rangeText(const TensorCoverage& t, const std::pair<int64_t, int64_t>& r) {
  const std::string name = t.argName.empty() ? t.tensorName : t.argName;
  if (t.shape.size() <= 1) {
    if (r.second - r.first == 1) return name + "[" + std::to_string(r.first) + "]";
    return name + "[" + std::to_string(r.first) + ":" + std::to_string(r.second) + "]";
  }
  if (r.second - r.first == 1) return name + indexText(t.shape, r.first);
  return name + indexText(t.shape, r.first) + ".." + indexText(t.shape, r.second - 1);
}

}  // namespace

std::string CoverageReport::render() const {
  std::string out;
  for (const TensorCoverage& t : tensors) {
    std::string shape = "[";
    for (size_t i = 0; i < t.shape.size(); ++i) shape += (i ? "x" : "") + std::to_string(t.shape[i]);
    shape += "]";
    out += (t.argName.empty() ? "" : t.argName + " ") + "(tensor '" + t.tensorName + "', shape " + shape + "): ";
    if (t.neverWritten == 0) {
      out += "all " + std::to_string(t.elements) + " elements written";
    } else {
      out += std::to_string(t.written) + " of " + std::to_string(t.elements) + " elements written; never written: ";
      for (size_t i = 0; i < t.neverWrittenRanges.size(); ++i) out += (i ? ", " : "") + rangeText(t, t.neverWrittenRanges[i]);
      if (t.neverWrittenRanges.size() == kCoverageExamples) out += ", ...";
      out += " (" + std::to_string(t.neverWritten) + " element" + (t.neverWritten == 1 ? "" : "s") + ")";
    }
    if (t.writtenByMany > 0) {
      out += "; " + std::to_string(t.writtenByMany) + " written by more than one program";
      if (t.conflicting > 0) {
        out += ", " + std::to_string(t.conflicting) + " of them with different values";
        if (!t.conflicts.empty()) {
          const auto& c = t.conflicts.front();
          out += " (e.g. element " + indexText(t.shape, c.element) + " by pid " + pidString(c.firstProgram) +
                 " and pid " + pidString(c.secondProgram) + ")";
        }
      } else {
        out += " (always the same value)";
      }
    }
    out += "\n";
  }
  return out;
}

CoverageReport computeCoverage(const Memory& memory, uint64_t launchId, const Grid& grid,
                               const std::vector<std::pair<int, std::string>>& argNames, int threads) {
  CoverageReport report;
  for (int id : memory.ids()) {
    const Tensor& t = memory.get(id);
    if (!t.writtenInLaunch(launchId)) continue;
    TensorCoverage c;
    c.tensorId = id;
    c.tensorName = t.name();
    for (const auto& [tid, name] : argNames)
      if (tid == id) {
        c.argName = name;
        break;
      }
    c.shape = t.shape();
    c.elements = t.numel();
    const auto writers = t.writers();
    const auto flags = t.writeFlags();
    const auto& strides = t.strides();
    const size_t rank = c.shape.size();
    // A conflicting element (storage index) counts once, with its recorded writers as an example.
    auto noteConflict = [&](int64_t storageIndex, int64_t flat) {
      ++c.conflicting;
      for (const WriteConflict& wc : t.conflicts())
        if (wc.element == storageIndex && c.conflicts.size() < kCoverageExamples)
          c.conflicts.push_back({flat, grid.pidOf(wc.firstProgram), grid.pidOf(wc.secondProgram)});
    };
    std::vector<int64_t> idx(rank, 0);
    int64_t storage = 0;
    int64_t runStart = -1;
    // Row-major contiguous tensors (the usual case) need no index bookkeeping: storage == flat.
    bool rowMajor = true;
    for (int64_t d = static_cast<int64_t>(rank) - 1, expect = 1; d >= 0; --d) {
      if (c.shape[d] != 1 && strides[d] != expect) rowMajor = false;
      expect *= c.shape[d];
    }
    if (rowMajor) {
      const WriteCounts counts = countWrites(writers.data(), flags.data(), c.elements, threads);
      if (counts.written == c.elements) {
        // Every element written: the counts are the report.
        c.written = counts.written;
        c.writtenByMany = counts.many;
        for (int64_t flat = 0; (counts.any & kConflicting) && flat < c.elements; ++flat) {
          if (flags[flat] & kConflicting) noteConflict(flat, flat);
        }
        report.tensors.push_back(std::move(c));
        continue;
      }
    }
    for (int64_t flat = 0; flat < c.elements; ++flat) {
      const bool written = writers[storage] >= 0;
      if (written) {
        ++c.written;
        if (flags[storage] & kWrittenByMany) ++c.writtenByMany;
        if (flags[storage] & kConflicting) noteConflict(storage, flat);
        if (runStart >= 0) {
          if (c.neverWrittenRanges.size() < kCoverageExamples) c.neverWrittenRanges.emplace_back(runStart, flat);
          runStart = -1;
        }
      } else {
        ++c.neverWritten;
        if (runStart < 0) runStart = flat;
      }
      // Advance the row-major index and the storage offset together.
      for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
        if (++idx[d] < c.shape[d]) {
          storage += strides[d];
          break;
        }
        storage -= strides[d] * (c.shape[d] - 1);
        idx[d] = 0;
      }
    }
    if (runStart >= 0 && c.neverWrittenRanges.size() < kCoverageExamples)
      c.neverWrittenRanges.emplace_back(runStart, c.elements);
    report.tensors.push_back(std::move(c));
  }
  return report;
}

}  // namespace tilescope::sim
