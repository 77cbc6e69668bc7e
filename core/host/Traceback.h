#pragma once
// Python-style tracebacks: the frames an exception passed through and their text form
//   Traceback (most recent call last):
//     File "x.py", line 12, in add
//       return a + b
//   TypeError: unsupported operand type(s) for +: 'int' and 'str'
#include <string>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/base/SourceFile.h"

namespace tilescope::host {

struct TracebackEntry {
  std::string file;
  int line = 0;    // 1-based, 0 = unknown
  int column = 0;  // 1-based, 0 = unknown
  std::string function;    // "<module>", "add", "<lambda>"
  std::string sourceLine;  // stripped of indentation

  static TracebackEntry at(const lang::SourceRange& range, std::string function);
};

// A diagnostic of the kernel checker, the simulator or the parser that an error carries, as plain
// values: the SourceFile it points into may not outlive the error. Notes are entries of their own,
// after the diagnostic they belong to. The worker sends them as traceback frames, so the notebook
// can name the cell and mark the spot in the kernel's own cell (docs/PROTOCOL.md).
struct DiagnosticEntry {
  std::string severity;  // "error", "warning" or "note"
  std::string message;
  std::string file;      // empty when the diagnostic has no location
  int line = 0;          // 1-based, 0 = unknown
  int column = 0;        // 1-based, 0 = unknown
  std::string snippet;   // the source line and a caret line under it ("" without a location)

  static std::vector<DiagnosticEntry> from(const lang::Diagnostic& diagnostic);
  static std::vector<DiagnosticEntry> from(const lang::DiagnosticList& diagnostics);
};

class Traceback {
public:
  // The whole text, with a trailing newline. `detail` (e.g. a clang-style kernel diagnostic) goes
  // between the frames and the final "Type: message" line when not empty.
  static std::string render(const std::vector<TracebackEntry>& frames, const std::string& type,
                            const std::string& message, const std::string& detail = {});
  // Only the last line: "TypeError: message" (or just "TypeError" for an empty message).
  static std::string lastLine(const std::string& type, const std::string& message);
};

}  // namespace tilescope::host
