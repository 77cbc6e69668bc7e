#pragma once
// Reads a .py file or the code cells of a .ipynb into a lang::Program for `check` and `compile`.
// Cells are named "nb.ipynb[N]" (N counts code cells from 1), as `run` names them.
#include <memory>
#include <string>

#include "core/base/Diagnostic.h"
#include "core/kernel/Program.h"

namespace tilescope::cli {

struct LoadedProgram {
  std::unique_ptr<lang::Program> program;         // null when the file could not be read
  lang::DiagnosticList diagnostics;               // syntax errors of any cell
  std::vector<std::shared_ptr<const lang::SourceFile>> files;  // keep diagnostics' ranges valid
  std::string error;                              // unreadable or corrupt file
};

LoadedProgram loadProgram(const std::string& path);

}  // namespace tilescope::cli
