#include "core/base/Diagnostic.h"

#include <algorithm>

namespace tilescope::lang {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

Diagnostic Diagnostic::error(SourceRange range, std::string message) {
  return {Severity::Error, range, std::move(message), {}};
}
Diagnostic Diagnostic::warning(SourceRange range, std::string message) {
  return {Severity::Warning, range, std::move(message), {}};
}
Diagnostic Diagnostic::note(SourceRange range, std::string message) {
  return {Severity::Note, range, std::move(message), {}};
}
Diagnostic& Diagnostic::withNote(SourceRange r, std::string message) {
  notes.push_back(note(r, std::move(message)));
  return *this;
}

std::string Diagnostic::headline() const {
  std::string out;
  if (range.valid()) out += range.str() + ": ";
  out += severityName(severity);
  out += ": ";
  out += message;
  return out;
}

std::string Diagnostic::render() const {
  std::string out = headline() + "\n" + snippet();
  for (const Diagnostic& n : notes) out += n.render();
  return out;
}

std::string Diagnostic::snippet() const {
  if (!range.valid()) return {};
  const LineColumn lc = range.start();
  const std::string_view line = range.file->lineText(lc.line);
  if (line.empty()) return {};
  std::string out(line);
  out += "\n";
  // Keep tabs so the caret lines up under tab-indented code.
  std::string caret;
  for (int i = 0; i + 1 < lc.column && i < static_cast<int>(line.size()); ++i) caret += line[i] == '\t' ? '\t' : ' ';
  caret += '^';
  const auto lineEnd = static_cast<int>(line.size()) - (lc.column - 1);
  const auto width = std::min<int>(static_cast<int>(range.end - range.begin), lineEnd);
  for (int i = 1; i < width; ++i) caret += '~';
  return out + caret + "\n";
}

bool DiagnosticList::hasErrors() const { return errorCount() > 0; }

size_t DiagnosticList::errorCount() const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

std::string DiagnosticList::render() const {
  std::string out;
  for (const Diagnostic& d : items_) out += d.render();
  return out;
}

}  // namespace tilescope::lang
