#pragma once
// The simulator's threads, started once per process and kept: a launch hands its program loop to
// threads that already exist (no thread start-up per launch), and idle threads sleep on a condition
// variable (no spinning that would starve a busy machine).
//
//   WorkerPool::shared().run(4, [&] { ...take programs until none is left... });
//
// The calling thread is one of the workers. One job runs at a time: a launch made while another
// runs (another thread's, or one nested inside a worker) runs its loop on the calling thread alone,
// which is correct because the loop takes programs from a shared counter.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tilescope::sim {

class WorkerPool {
public:
  static WorkerPool& shared();

  // Runs `body` on `threads` threads (the caller's included) and returns when every one returned;
  // an exception out of any of them is rethrown here (the caller's first).
  void run(int threads, const std::function<void()>& body);

  // Threads a launch uses when its options say 0: TILESCOPE_SIM_THREADS when set (a positive
  // integer), else the CPUs this process may run on (sched_getaffinity: taskset and cgroup cpusets).
  static int defaultThreadCount();

  // Threads started so far (the largest `threads - 1` any job asked for).
  int startedThreads();

private:
  WorkerPool() = default;
  void workerLoop();

  std::mutex jobMutex_;  // held by the one running job
  std::mutex mutex_;     // guards the fields below
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  const std::function<void()>* job_ = nullptr;
  uint64_t generation_ = 0;
  int wanted_ = 0;   // pool threads the current job asked for
  int taken_ = 0;    // ... that have taken it
  int running_ = 0;  // ... still running it
  std::exception_ptr helperError_;  // the first exception out of a pool thread's part
};

}  // namespace tilescope::sim
