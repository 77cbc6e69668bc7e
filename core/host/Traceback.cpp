#include "core/host/Traceback.h"

namespace tilescope::host {

TracebackEntry TracebackEntry::at(const lang::SourceRange& range, std::string function) {
  TracebackEntry e;
  e.function = std::move(function);
  if (!range.valid()) return e;
  e.file = range.file->name();
  const lang::LineColumn lc = range.start();
  e.line = lc.line;
  e.column = lc.column;
  std::string text(range.file->lineText(lc.line));
  const size_t first = text.find_first_not_of(" \t");
  const size_t last = text.find_last_not_of(" \t\r");
  e.sourceLine = first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
  return e;
}

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

std::string Traceback::lastLine(const std::string& type, const std::string& message) {
  return message.empty() ? type : type + ": " + message;
}

std::string Traceback::render(const std::vector<TracebackEntry>& frames, const std::string& type,
                              const std::string& message, const std::string& detail) {
  std::string out;
  if (!frames.empty()) {
    out += "Traceback (most recent call last):\n";
    for (const TracebackEntry& f : frames) {
      out += "  File \"" + f.file + "\", line " + std::to_string(f.line) + ", in " + f.function + "\n";
      if (!f.sourceLine.empty()) out += "    " + f.sourceLine + "\n";
    }
  }
  if (!detail.empty()) {
    out += detail;
    if (out.back() != '\n') out += '\n';
  }
  out += lastLine(type, message) + "\n";
  return out;
}

}  // namespace tilescope::host
