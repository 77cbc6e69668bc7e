#pragma once
// A flag another thread sets to interrupt a launch. Copies share the flag, so the UI keeps one
// copy and hands another to the launch. The simulator polls it between programs and at every loop
// back-edge (and inside very large dots), so a cancelled launch stops within milliseconds.
// A token may also follow a flag its owner keeps elsewhere (the host runtime's cancel flag): then
// either one cancels, with no thread forwarding one to the other.
#include <atomic>
#include <memory>

namespace tilescope::sim {

class CancelToken {
public:
  CancelToken() : state_(std::make_shared<State>()) {}

  void cancel() const { state_->flag.store(true, std::memory_order_relaxed); }
  void reset() const { state_->flag.store(false, std::memory_order_relaxed); }
  bool cancelled() const {
    if (state_->flag.load(std::memory_order_relaxed)) return true;
    const std::atomic<bool>* other = state_->followed.load(std::memory_order_relaxed);
    return other && other->load(std::memory_order_relaxed);
  }
  // `other` (null to stop) must outlive every launch that uses this token while it is followed.
  void follow(const std::atomic<bool>* other) const { state_->followed.store(other, std::memory_order_relaxed); }

private:
  struct State {
    std::atomic<bool> flag{false};
    std::atomic<const std::atomic<bool>*> followed{nullptr};
  };
  std::shared_ptr<State> state_;
};

}  // namespace tilescope::sim
