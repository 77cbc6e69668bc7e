#include "core/kernel/CheckContext.h"

namespace tilescope::lang {

void CheckContext::addCallChain(Diagnostic& d) const {
  for (auto it = callStack.rbegin(); it != callStack.rend(); ++it)
    d.withNote(it->callRange, "in helper '" + it->callee + "' called from here");
}

void CheckContext::error(SourceRange range, std::string message) {
  Diagnostic d = Diagnostic::error(range, std::move(message));
  addCallChain(d);
  throw CompileError(std::move(d));
}

void CheckContext::warning(SourceRange range, std::string message) {
  Diagnostic d = Diagnostic::warning(range, std::move(message));
  addCallChain(d);
  diagnostics.add(std::move(d));
}

void CheckContext::note(SourceRange range, std::string message) {
  diagnostics.add(Diagnostic::note(range, std::move(message)));
}

void CheckContext::addSource(const SourceFile* file) {
  if (!file) return;
  for (const SourceFilePtr& s : sources)
    if (s.get() == file) return;
  for (const auto& m : program.modules()) {
    if (m->file.get() == file) {
      sources.push_back(m->file);
      return;
    }
  }
}

}  // namespace tilescope::lang
