// The simulator's thread pool: jobs run on the caller and pool threads, threads are started once and
// reused, nested and concurrent jobs run on the caller alone, TILESCOPE_SIM_THREADS sets the default.
#include "core/sim/WorkerPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace tilescope::sim {
namespace {

TEST(WorkerPool, RunsTheJobOnSeveralThreadsAndReusesThem) {
  WorkerPool& pool = WorkerPool::shared();
  std::mutex m;
  std::set<std::thread::id> seen;
  std::atomic<int> left{4000};
  auto body = [&] {
    {
      std::lock_guard<std::mutex> lock(m);
      seen.insert(std::this_thread::get_id());
    }
    // Work that lasts long enough for the helpers to join in.
    while (left.fetch_sub(1) > 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
  };
  pool.run(4, body);
  EXPECT_LE(left.load(), 0);
  EXPECT_TRUE(seen.count(std::this_thread::get_id())) << "the caller works too";
  EXPECT_LE(seen.size(), 4u);
  const int started = pool.startedThreads();
  EXPECT_GE(started, 3);
  std::set<std::thread::id> first = seen;
  seen.clear();
  left = 4000;
  pool.run(4, body);
  EXPECT_EQ(pool.startedThreads(), started) << "a second job starts no threads";
  EXPECT_GE(seen.size() + first.size(), 3u);
}

TEST(WorkerPool, ANestedJobRunsOnTheCallingThread) {
  std::atomic<int> innerRuns{0};
  std::atomic<bool> innerOnCaller{true};
  WorkerPool::shared().run(2, [&] {
    const auto outer = std::this_thread::get_id();
    WorkerPool::shared().run(3, [&] {
      ++innerRuns;
      if (std::this_thread::get_id() != outer) innerOnCaller = false;
    });
  });
  EXPECT_GE(innerRuns.load(), 1);
  EXPECT_TRUE(innerOnCaller.load());
}

TEST(WorkerPool, AnExceptionInAnyThreadReachesTheCaller) {
  const auto caller = std::this_thread::get_id();
  std::atomic<int> runs{0};
  // Only a pool thread throws: the caller's part returns normally, so the error must travel.
  auto helperThrows = [&] {
    ++runs;
    if (std::this_thread::get_id() != caller) throw std::runtime_error("from a helper");
    while (runs.load() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  EXPECT_THROW(WorkerPool::shared().run(2, helperThrows), std::runtime_error);
  EXPECT_THROW(WorkerPool::shared().run(2, [] { throw std::logic_error("from the caller"); }), std::logic_error);
  // The pool still works afterwards.
  std::atomic<int> ok{0};
  WorkerPool::shared().run(2, [&] { ++ok; });
  EXPECT_GE(ok.load(), 1);
}

TEST(WorkerPool, TheEnvironmentSetsTheDefaultThreadCount) {
  const char* old = std::getenv("TILESCOPE_SIM_THREADS");
  const std::string saved = old ? old : "";
  setenv("TILESCOPE_SIM_THREADS", "3", 1);
  EXPECT_EQ(WorkerPool::defaultThreadCount(), 3);
  setenv("TILESCOPE_SIM_THREADS", "zero", 1);  // not a count: the CPUs
  EXPECT_GE(WorkerPool::defaultThreadCount(), 1);
  unsetenv("TILESCOPE_SIM_THREADS");
  const int cpus = WorkerPool::defaultThreadCount();
  EXPECT_GE(cpus, 1);
  setenv("TILESCOPE_SIM_THREADS", "1", 1);
  EXPECT_EQ(WorkerPool::defaultThreadCount(), 1);
  if (old)
    setenv("TILESCOPE_SIM_THREADS", saved.c_str(), 1);
  else
    unsetenv("TILESCOPE_SIM_THREADS");
}

}  // namespace
}  // namespace tilescope::sim
