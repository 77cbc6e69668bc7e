#pragma once
// A flag another thread sets to interrupt a launch. Copies share the flag, so the UI keeps one
// copy and hands another to the launch. The simulator polls it between programs and at every loop
// back-edge (and inside very large dots), so a cancelled launch stops within milliseconds.
#include <atomic>
#include <memory>

namespace tilescope::sim {

class CancelToken {
public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}

  void cancel() const { flag_->store(true, std::memory_order_relaxed); }
  void reset() const { flag_->store(false, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }
  const std::atomic<bool>* flag() const { return flag_.get(); }

private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace tilescope::sim
