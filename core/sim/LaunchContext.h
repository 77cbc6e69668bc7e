#pragma once
// State shared by all programs of one launch (LaunchContext, read-mostly and thread-safe where it
// is written) and the state of one running program (ProgramState, owned by one worker thread).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/Kernel.h"
#include "core/sim/InvariantAnalysis.h"
#include "core/sim/Launch.h"
#include "core/sim/Memory.h"
#include "core/sim/Tile.h"
#include "core/sim/Trace.h"

namespace tilescope::sim {

class TraceRecorder;

struct LaunchContext {
  LaunchContext(const ir::Kernel& k, Memory& m, const Grid& g, const LaunchOptions& o)
      : kernel(k), memory(m), grid(g), options(o) {}

  const ir::Kernel& kernel;
  Memory& memory;
  Grid grid;
  const LaunchOptions& options;
  uint64_t launchId = 0;
  KernelFacts facts;

  std::vector<TileRef> params;  // by Kernel::params index (null for constexprs)
  // Kernel parameter receiving each tensor (first one wins), for messages and traces.
  std::unordered_map<int, int> paramOfTensor;   // tensor id -> Kernel::params index
  std::unordered_map<int, int> argOfTensor;     // tensor id -> runtime argument index
  TraceRecorder* recorder = nullptr;            // only in traced launches (thread-safe)

  // Lowest linear id of a failed program; programs above it stop (deterministic error reporting).
  std::atomic<int64_t> abortAfter{std::numeric_limits<int64_t>::max()};

  // Warnings, at most one per (IR node, kind) per launch: the one of the lowest program (by linear
  // id), whatever order the threads ran the programs in, so that the report does not depend on them.
  void warnOnce(const void* node, int kind, int64_t program, lang::Diagnostic d) {
    std::lock_guard<std::mutex> lock(warnMutex_);
    auto [it, inserted] = warned_.try_emplace({node, kind}, program, std::move(d));
    if (!inserted && program < it->second.first) it->second = {program, std::move(d)};
  }
  // In the order of (program, position in the source, kind).
  lang::DiagnosticList takeWarnings() {
    std::lock_guard<std::mutex> lock(warnMutex_);
    std::vector<std::tuple<int64_t, uint32_t, int, const lang::Diagnostic*>> order;
    for (const auto& [key, warning] : warned_)
      order.emplace_back(warning.first, warning.second.range.begin, key.second, &warning.second);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) < std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
    });
    lang::DiagnosticList out;
    for (const auto& entry : order) out.add(*std::get<3>(entry));
    warned_.clear();
    return out;
  }

  // "x_ptr (tensor 'x', shape [6], fp32)" or "tensor 'x' (shape [6], fp32)".
  std::string describeTensor(const Tensor& t) const {
    std::string what = "tensor '" + t.name() + "'";
    auto it = paramOfTensor.find(t.id());
    const std::string detail = "shape " + t.shapeString() + ", " + std::string(ir::dtypeName(t.dtype()));
    if (it != paramOfTensor.end()) return kernel.params[it->second].name + " (" + what + ", " + detail + ")";
    return what + " (" + detail + ")";
  }

private:
  struct PairHash {
    size_t operator()(const std::pair<const void*, int>& p) const {
      return std::hash<const void*>()(p.first) ^ (static_cast<size_t>(p.second) * 0x9E3779B97F4A7C15ull);
    }
  };
  std::mutex warnMutex_;
  std::unordered_map<std::pair<const void*, int>, std::pair<int64_t, lang::Diagnostic>, PairHash> warned_;
};

// Kinds of once-per-op warnings.
enum WarningKind : int { kWarnUninitRead = 1, kWarnDivByZero = 2, kWarnHint = 3, kWarnHostCall = 4, kWarnOutOfBounds = 5 };

struct ProgramState {
  std::array<int64_t, 3> pid{};
  int64_t linearId = 0;
  std::vector<TileRef> env;          // current value of each Var, by Var::id
  ProgramTrace* trace = nullptr;     // recording target when this program is traced
  bool printEnabled = true;          // the pid filter matched
  std::vector<std::string> output;   // printed lines of this program
  // Per-worker cache of program-invariant expressions (see InvariantAnalysis.h), by their slot in
  // KernelFacts::invariant; null until computed.
  std::vector<TileRef>* invariantCache = nullptr;

  // Spin locks this program holds (Triton's `while tl.atomic_cas(lock, 0, 1) == 1: pass` ...
  // `tl.atomic_xchg(lock, 0)`): taken by a successful atomic_cas from zero to nonzero, given back
  // by an atomic that writes zero again. Stores made while holding one are ordered with the other
  // programs' stores under the same lock, so they are not reported as races.
  std::vector<uint64_t> heldLocks;  // lockKey(tensor id, element), innermost last
  uint64_t innermostLock() const { return heldLocks.empty() ? 0 : heldLocks.back(); }

  std::string pidText() const { return pidString(pid); }
};

// A nonzero key for the lock word at (tensor, element).
inline uint64_t lockKey(int tensorId, int64_t element) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(tensorId)) << 40) ^ static_cast<uint64_t>(element) ^ (uint64_t{1} << 63);
}

}  // namespace tilescope::sim
