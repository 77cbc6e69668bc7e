#include "core/gpu/runtime/LaunchStatus.h"

#include <algorithm>

#include "core/base/Diagnostic.h"

namespace tilescope::gpu {

std::atomic<bool> LaunchStatus::pending_{false};

uint64_t LaunchStatus::add(std::shared_ptr<const CompiledKernel> compiled, const std::string& kernel) {
  const uint64_t address = area + launches_.size() * kSlotBytes;
  launches_.push_back(Launch{std::move(compiled), kernel});
  pending_.store(true, std::memory_order_relaxed);
  return address;
}

std::optional<LaunchStatus::Failure> LaunchStatus::firstFailure(const std::vector<uint32_t>& words) const {
  for (size_t slot = 0; slot < launches_.size() && slot * 4 + 3 < words.size(); ++slot) {
    const uint32_t* w = words.data() + slot * 4;
    if (w[0] == 0) continue;
    const Launch& launch = launches_[slot];
    const auto& failures = launch.compiled->cuda.failures;
    const size_t index = w[0] - 1;
    if (index >= failures.size())
      throw lang::InternalError("gpu status code " + std::to_string(w[0]) + " out of range for kernel '" + launch.kernel + "'");
    const KernelFailure& f = failures[index];
    return Failure{lang::Diagnostic::error(f.range, f.message + " in kernel '" + launch.kernel + "', program pid (" +
                                                        std::to_string(w[1]) + ", " + std::to_string(w[2]) + ", " +
                                                        std::to_string(w[3]) + ")"),
                   launch.kernel, slot};
  }
  return std::nullopt;
}

void LaunchStatus::clear() {
  launches_.clear();
  pending_.store(false, std::memory_order_relaxed);
}

std::string LaunchStatus::pendingKernels() const {
  std::vector<std::string> names;
  for (const Launch& l : launches_)
    if (std::find(names.begin(), names.end(), l.kernel) == names.end()) names.push_back(l.kernel);
  std::string out;
  for (size_t i = 0; i < names.size() && i < 4; ++i) out += (i ? ", '" : "'") + names[i] + "'";
  if (names.size() > 4) out += " and " + std::to_string(names.size() - 4) + " more";
  return out;
}

}  // namespace tilescope::gpu
