#pragma once
// The diagnostics a launch error carries (core/python turns them into the worker's traceback frames).
#include <string>
#include <vector>

#include "core/base/Diagnostic.h"
#include "core/base/SourceFile.h"

namespace tilescope::host {

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

}  // namespace tilescope::host
