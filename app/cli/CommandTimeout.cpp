#include "app/cli/CommandTimeout.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tilescope::cli {

std::optional<double> CommandTimeout::parseSeconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(seconds) || seconds <= 0 || seconds > 1e9) return std::nullopt;
  return seconds;
}

CommandTimeout::CommandTimeout(std::string command, double seconds, host::CancelToken* cancel)
    : command_(std::move(command)), seconds_(seconds) {
  if (seconds > 0) thread_ = std::thread(&CommandTimeout::watch, this, seconds, cancel);
}

CommandTimeout::~CommandTimeout() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  finished_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool CommandTimeout::expired() const {
  std::lock_guard lock(mutex_);
  return expired_;
}

int CommandTimeout::report() const {
  std::fflush(stdout);
  std::fprintf(stderr, "tilescope-cli %s: timed out: stopped after the --timeout of %g s\n", command_.c_str(), seconds_);
  return kExitCode;
}

void CommandTimeout::watch(double seconds, host::CancelToken* cancel) {
  std::unique_lock lock(mutex_);
  const auto limit = std::chrono::duration<double>(seconds);
  if (finished_.wait_for(lock, limit, [this] { return done_; })) return;
  expired_ = true;
  if (cancel) {
    cancel->cancel();
    const auto grace = std::chrono::duration<double>(kGraceSeconds);
    if (finished_.wait_for(lock, grace, [this] { return done_; })) return;
  }
  // Still running: stuck where no cancel flag is polled. End the process; its exit releases the GPU.
  lock.unlock();
  report();
  std::fflush(stderr);
  std::_Exit(kExitCode);
}

}  // namespace tilescope::cli
