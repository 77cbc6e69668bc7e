#include "core/python/DiagnosticEntry.h"

namespace tilescope::host {

std::vector<DiagnosticEntry> DiagnosticEntry::from(const lang::Diagnostic& diagnostic) {
  std::vector<DiagnosticEntry> out;
  DiagnosticEntry e;
  e.severity = lang::severityName(diagnostic.severity);
  e.message = diagnostic.message;
  if (diagnostic.range.valid()) {
    e.file = diagnostic.range.file->name();
    const lang::LineColumn lc = diagnostic.range.start();
    e.line = lc.line;
    e.column = lc.column;
    e.snippet = diagnostic.snippet();
    while (!e.snippet.empty() && e.snippet.back() == '\n') e.snippet.pop_back();
  }
  out.push_back(std::move(e));
  for (const lang::Diagnostic& note : diagnostic.notes)
    for (DiagnosticEntry& n : from(note)) out.push_back(std::move(n));
  return out;
}

std::vector<DiagnosticEntry> DiagnosticEntry::from(const lang::DiagnosticList& diagnostics) {
  std::vector<DiagnosticEntry> out;
  for (const lang::Diagnostic& d : diagnostics.items())
    for (DiagnosticEntry& e : from(d)) out.push_back(std::move(e));
  return out;
}

}  // namespace tilescope::host
