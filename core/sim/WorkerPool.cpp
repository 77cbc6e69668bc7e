#include "core/sim/WorkerPool.h"

#include <sched.h>

#include <cstdlib>
#include <exception>
#include <utility>
#include <string>

namespace tilescope::sim {

namespace {
thread_local bool insidePoolJob = false;
}

WorkerPool& WorkerPool::shared() {
  // Never destroyed: threads blocked on the condition variable at exit need no join, and a process
  // that exits during a launch must not wait for it.
  static WorkerPool* pool = new WorkerPool();
  return *pool;
}

int WorkerPool::defaultThreadCount() {
  if (const char* env = std::getenv("TILESCOPE_SIM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0) return static_cast<int>(std::min<long>(n, 1024));
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

int WorkerPool::startedThreads() {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(threads_.size());
}

void WorkerPool::run(int threads, const std::function<void()>& body) {
  std::unique_lock<std::mutex> job(jobMutex_, std::defer_lock);
  if (threads <= 1 || insidePoolJob || !job.try_lock()) {
    body();
    return;
  }
  const int helpers = threads - 1;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (static_cast<int>(threads_.size()) < helpers) threads_.emplace_back([this] { workerLoop(); });
    job_ = &body;
    wanted_ = helpers;
    taken_ = 0;
    running_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  insidePoolJob = true;
  std::exception_ptr error;
  try {
    body();
  } catch (...) {
    error = std::current_exception();
  }
  insidePoolJob = false;
  std::unique_lock<std::mutex> lock(mutex_);
  // Threads that have not taken the job yet get no part of it: the work is done.
  wanted_ = taken_;
  done_.wait(lock, [this] { return running_ == 0; });
  job_ = nullptr;
  if (!error) error = std::exchange(helperError_, nullptr);
  helperError_ = nullptr;
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

void WorkerPool::workerLoop() {
  insidePoolJob = true;
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return generation_ != seen; });
    seen = generation_;
    if (taken_ >= wanted_ || !job_) continue;
    ++taken_;
    ++running_;
    const std::function<void()>* job = job_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*job)();
    } catch (...) {
      error = std::current_exception();  // handed to the caller of run()
    }
    lock.lock();
    if (error && !helperError_) helperError_ = error;
    if (--running_ == 0) done_.notify_all();
  }
}

}  // namespace tilescope::sim
