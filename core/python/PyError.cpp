#include "core/python/PyError.h"


namespace tilescope::host {

void PyError::setDiagnostics(const lang::DiagnosticList& list) {
  detail = list.render();
  while (!detail.empty() && detail.back() == '\n') detail.pop_back();
  diagnostics = DiagnosticEntry::from(list);
}

void PyError::setDiagnostics(const lang::Diagnostic& diagnostic) {
  lang::DiagnosticList list;
  list.add(diagnostic);
  setDiagnostics(list);
}

void throwError(const std::string& type, const std::string& message) { throw PyError(type, message); }
void throwTypeError(const std::string& message) { throw PyError("TypeError", message); }
void throwValueError(const std::string& message) { throw PyError("ValueError", message); }

}  // namespace tilescope::host
