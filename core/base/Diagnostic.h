#pragma once
// Diagnostics are values: the front end, the simulator and the host runtime collect them and the
// CLI/UI render them clang-style. User mistakes are Diagnostics; our own bugs are InternalError.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/base/SourceFile.h"

namespace tilescope::lang {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;             // says what is wrong and how to fix it
  std::vector<Diagnostic> notes;   // e.g. the call chain through helpers

  static Diagnostic error(SourceRange range, std::string message);
  static Diagnostic warning(SourceRange range, std::string message);
  static Diagnostic note(SourceRange range, std::string message);
  Diagnostic& withNote(SourceRange range, std::string message);

  // "file:line:col: error: message", the source line, a caret line; then the notes.
  std::string render() const;
  // Only the first line, "file:line:col: error: message".
  std::string headline() const;
  // The source line and a caret line under the range ("" without a location): render() without
  // the headline and the notes, for a UI that names the location its own way.
  std::string snippet() const;
};

class DiagnosticList {
public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  const std::vector<Diagnostic>& items() const { return items_; }
  bool hasErrors() const;
  size_t errorCount() const;
  std::string render() const;
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }

private:
  std::vector<Diagnostic> items_;
};

// Thrown to abandon a compilation after a user error has been recorded as a Diagnostic.
class CompileError : public std::runtime_error {
public:
  explicit CompileError(Diagnostic d) : std::runtime_error(d.headline()), diagnostic_(std::move(d)) {}
  const Diagnostic& diagnostic() const { return diagnostic_; }

private:
  Diagnostic diagnostic_;
};

// A bug in tilescope itself (an invariant broke). Never used for mistakes in user code.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

const char* severityName(Severity s);

}  // namespace tilescope::lang
