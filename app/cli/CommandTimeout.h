#pragma once
// --timeout SECONDS for `tilescope-cli run` and `check`: a watchdog thread that stops a command which
// runs too long (an endless loop in host code or in a kernel), for CI and scripts. When the time is up
// it first asks the running code to stop, as Ctrl+C would (the cancel token the interpreter and the
// simulator poll), so a notebook run can still write what it has; code that does not stop within a
// grace period (native code, a GPU kernel, the checker) is ended: the message is printed and the
// process exits with kExitCode either way.
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/base/CellExecutor.h"

namespace tilescope::cli {

class CommandTimeout {
public:
  static constexpr int kExitCode = 124;  // as timeout(1) uses
  static constexpr double kGraceSeconds = 2.0;

  // "5", "0.5", "90": a positive, finite number of seconds; nullopt otherwise.
  static std::optional<double> parseSeconds(const std::string& text);

  // Starts watching; seconds <= 0 watches nothing. `cancel` may be null (nothing to ask: the grace
  // period is skipped).
  CommandTimeout(std::string command, double seconds, host::CancelToken* cancel);
  ~CommandTimeout();  // the command finished: stop watching
  CommandTimeout(const CommandTimeout&) = delete;
  CommandTimeout& operator=(const CommandTimeout&) = delete;

  // True once the time was up (the cancel token was set by the watchdog, not by the user).
  bool expired() const;
  // Prints the timeout message on stderr; returns kExitCode.
  int report() const;

private:
  void watch(double seconds, host::CancelToken* cancel);

  std::string command_;
  double seconds_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
  bool expired_ = false;
  std::thread thread_;
};

}  // namespace tilescope::cli
