#pragma once
// Thrown inside a program to stop the launch: a user error (out-of-bounds access, failed device
// assert, ...) carrying its Diagnostic, or an interruption (cancel token, or another program's
// error). The Simulator catches it; nothing escapes Simulator::launch.
#include <stdexcept>

#include "core/base/Diagnostic.h"

namespace tilescope::sim {

class SimulationError : public std::runtime_error {
public:
  enum class Kind { UserError, Interrupted, Aborted };

  explicit SimulationError(lang::Diagnostic d)
      : std::runtime_error(d.headline()), kind_(Kind::UserError), diagnostic_(std::move(d)) {}
  static SimulationError interrupted() { return SimulationError(Kind::Interrupted, "launch interrupted"); }
  // Stopped because a program with a lower id failed (its error is the one reported).
  static SimulationError aborted() { return SimulationError(Kind::Aborted, "launch aborted"); }

  Kind kind() const { return kind_; }
  const lang::Diagnostic& diagnostic() const { return diagnostic_; }

private:
  SimulationError(Kind k, const char* what) : std::runtime_error(what), kind_(k) {}
  Kind kind_;
  lang::Diagnostic diagnostic_;
};

}  // namespace tilescope::sim
