#pragma once
// A reader-writer lock that spins briefly, then sleeps in the kernel (a futex, through
// std::atomic::wait) until the holder lets go. Simulator launches hold a tensor's lock for about a
// microsecond per access (one tile), so a short spin usually wins; but a waiter whose holder was
// descheduled (a busy 2-core machine) must not burn the core the holder needs, so it sleeps
// instead of yielding in a loop. Meets the SharedMutex requirements (std::shared_lock, std::unique_lock).
#include <atomic>
#include <cstdint>

namespace tilescope::sim {

class SpinSharedMutex {
public:
  void lock() {
    for (int spins = 0;; ++spins) {
      int32_t expected = 0;
      if (state_.compare_exchange_weak(expected, kWriter, std::memory_order_acquire, std::memory_order_relaxed)) return;
      if (spins >= kSpins) sleepWhile(expected);
    }
  }
  bool try_lock() {
    int32_t expected = 0;
    return state_.compare_exchange_strong(expected, kWriter, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() {
    state_.store(0, std::memory_order_seq_cst);
    wakeSleepers();
  }

  void lock_shared() {
    for (int spins = 0;; ++spins) {
      int32_t s = state_.load(std::memory_order_relaxed);
      if (s >= 0 && state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed)) return;
      if (spins >= kSpins && s < 0) sleepWhile(s);
    }
  }
  bool try_lock_shared() {
    int32_t s = state_.load(std::memory_order_relaxed);
    return s >= 0 && state_.compare_exchange_strong(s, s + 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock_shared() {
    if (state_.fetch_sub(1, std::memory_order_seq_cst) == 1) wakeSleepers();
  }

private:
  static constexpr int32_t kWriter = -1;
  static constexpr int kSpins = 128;

  // Sleeps until the state is no longer `seen`. The sleeper count and the state are both seq_cst, so
  // an unlock either sees the sleeper (and wakes it) or the sleeper sees the unlocked state.
  void sleepWhile(int32_t seen) {
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    if (state_.load(std::memory_order_seq_cst) == seen) state_.wait(seen, std::memory_order_seq_cst);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }
  void wakeSleepers() {
    if (sleepers_.load(std::memory_order_seq_cst) != 0) state_.notify_all();
  }

  std::atomic<int32_t> state_{0};
  std::atomic<int32_t> sleepers_{0};
};

}  // namespace tilescope::sim
