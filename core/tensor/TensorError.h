#pragma once
// The one exception type of the host tensor library. A TensorError is always a user mistake (bad shape,
// index, dtype, ...): the interpreter turns it into a Python-style traceback, so the message follows
// torch's wording and kind() names the Python exception class torch would raise.
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilescope::host {

class TensorError : public std::runtime_error {
 public:
  enum class Kind { RuntimeError, IndexError, ValueError, TypeError, AssertionError, MemoryError };

  explicit TensorError(const std::string& message, Kind kind = Kind::RuntimeError)
      : std::runtime_error(message), kind_(kind) {}

  Kind kind() const { return kind_; }

  // "RuntimeError", "IndexError", ... as Python prints it before the message.
  std::string_view pythonType() const {
    switch (kind_) {
      case Kind::RuntimeError: return "RuntimeError";
      case Kind::IndexError: return "IndexError";
      case Kind::ValueError: return "ValueError";
      case Kind::TypeError: return "TypeError";
      case Kind::AssertionError: return "AssertionError";
      case Kind::MemoryError: return "MemoryError";
    }
    return "RuntimeError";
  }

 private:
  Kind kind_;
};

}  // namespace tilescope::host
