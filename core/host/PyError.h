#pragma once
// A Python exception in flight through the interpreter (C++ exception), and the Python-visible
// exception objects and classes (`raise ValueError(msg)`, `except KeyError as e`).
#include <exception>
#include <string>
#include <vector>

#include "core/host/Traceback.h"
#include "core/host/Value.h"

namespace tilescope::host {

class PyError : public std::exception {
public:
  PyError(std::string type, std::string message) : type_(std::move(type)), message_(std::move(message)) {}

  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& type() const { return type_; }
  const std::string& message() const { return message_; }

  // Frames, outermost first: captured once, where the error was raised.
  std::vector<TracebackEntry> frames;
  bool framesCaptured = false;
  // Extra text shown above the last line (a clang-style kernel diagnostic with its caret).
  std::string detail;
  // The diagnostics rendered in `detail`, kept as values for the notebook (setDiagnostics).
  std::vector<DiagnosticEntry> diagnostics;
  // Set for KeyboardInterrupt from a cancel request: user code cannot catch it.
  bool cancellation = false;
  // The exception object the user sees in `except E as e` (created on demand).
  Value object;

  // Sets `detail` to the clang-style text of the diagnostics and keeps them as values.
  void setDiagnostics(const lang::DiagnosticList& list);
  void setDiagnostics(const lang::Diagnostic& diagnostic);

  std::string render() const { return Traceback::render(frames, type_, message_, detail); }

private:
  std::string type_;
  std::string message_;
};

[[noreturn]] void throwError(const std::string& type, const std::string& message);
[[noreturn]] void throwTypeError(const std::string& message);
[[noreturn]] void throwValueError(const std::string& message);

// `ValueError`, `KeyError`, ...: a class value. Calling it makes an ExceptionObject.
class ExceptionType : public Object {
public:
  ExceptionType(std::string name, std::string base) : name(std::move(name)), base(std::move(base)) {}
  std::string typeName() const override { return "type"; }
  std::string repr(Interpreter&) const override { return "<class '" + name + "'>"; }
  bool callable() const override { return true; }
  Value call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> getAttr(Interpreter& in, const std::string& attr) override;

  std::string name;
  std::string base;  // empty for BaseException
};

class ExceptionObject : public Object {
public:
  ExceptionObject(std::string type, ValueList args, std::string message)
      : type(std::move(type)), args(std::move(args)), message(std::move(message)) {}
  std::string typeName() const override { return type; }
  std::string repr(Interpreter& in) const override;
  std::string str(Interpreter&) const override { return message; }
  std::optional<Value> getAttr(Interpreter& in, const std::string& attr) override;

  std::string type;
  ValueList args;
  std::string message;
};

// The builtin exception classes by name (nullptr when unknown).
Value builtinExceptionType(const std::string& name);
const std::vector<std::string>& builtinExceptionNames();
// True when an exception of class `type` is caught by `except handler:`.
bool exceptionMatches(const std::string& type, const std::string& handler);

}  // namespace tilescope::host
