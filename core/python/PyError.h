#pragma once
// A Python exception raised by the launch path (a C++ exception), which core/python turns into the
// Python exception of that type (PythonErrors).
#include <exception>
#include <string>
#include <vector>

#include "core/python/DiagnosticEntry.h"
#include "core/python/Value.h"

namespace tilescope::host {

class PyError : public std::exception {
public:
  PyError(std::string type, std::string message) : type_(std::move(type)), message_(std::move(message)) {}

  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& type() const { return type_; }
  const std::string& message() const { return message_; }

  // Extra text shown above the last line (a clang-style kernel diagnostic with its caret).
  std::string detail;
  // The diagnostics rendered in `detail`, kept as values for the notebook (setDiagnostics).
  std::vector<DiagnosticEntry> diagnostics;

  // Sets `detail` to the clang-style text of the diagnostics and keeps them as values.
  void setDiagnostics(const lang::DiagnosticList& list);
  void setDiagnostics(const lang::Diagnostic& diagnostic);

private:
  std::string type_;
  std::string message_;
};

[[noreturn]] void throwError(const std::string& type, const std::string& message);
[[noreturn]] void throwTypeError(const std::string& message);
[[noreturn]] void throwValueError(const std::string& message);

}  // namespace tilescope::host
