#pragma once
// A reader-writer lock that spins (then yields) instead of sleeping. Simulator launches hold a
// tensor's lock for about a microsecond per access (one tile), so sleeping in the kernel and being
// woken again, as std::shared_mutex does under contention, costs far more than the wait itself.
// Meets the SharedMutex requirements, so std::shared_lock and std::unique_lock work with it.
#include <atomic>
#include <cstdint>
#include <thread>

namespace tilescope::sim {

class SpinSharedMutex {
public:
  void lock() {
    for (int spins = 0;; ++spins) {
      int32_t expected = 0;
      if (state_.compare_exchange_weak(expected, kWriter, std::memory_order_acquire, std::memory_order_relaxed)) return;
      pause(spins);
    }
  }
  bool try_lock() {
    int32_t expected = 0;
    return state_.compare_exchange_strong(expected, kWriter, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() { state_.store(0, std::memory_order_release); }

  void lock_shared() {
    for (int spins = 0;; ++spins) {
      int32_t s = state_.load(std::memory_order_relaxed);
      if (s >= 0 && state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed)) return;
      pause(spins);
    }
  }
  bool try_lock_shared() {
    int32_t s = state_.load(std::memory_order_relaxed);
    return s >= 0 && state_.compare_exchange_strong(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock_shared() { state_.fetch_sub(1, std::memory_order_release); }

private:
  static constexpr int32_t kWriter = -1;
  // Busy-wait briefly, then give the core away: the holder may have been descheduled.
  static void pause(int spins) {
    if (spins >= 64) std::this_thread::yield();
  }
  std::atomic<int32_t> state_{0};
};

}  // namespace tilescope::sim
