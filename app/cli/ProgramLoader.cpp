#include "app/cli/ProgramLoader.h"

#include "core/syntax/Parser.h"
#include "core/notebook/NotebookFile.h"

namespace tilescope::cli {

LoadedProgram loadProgram(const std::string& path) {
  LoadedProgram out;
  notebook::LoadResult loaded = notebook::loadNotebook(path);
  if (!loaded.notebook) {
    out.error = loaded.error;
    return out;
  }
  const bool isNotebook = path.size() >= 6 && path.compare(path.size() - 6, 6, ".ipynb") == 0;
  out.program = std::make_unique<lang::Program>();
  int codeCell = 0;
  for (const notebook::Cell& cell : loaded.notebook->cells) {
    if (cell.type != notebook::CellType::Code) continue;
    ++codeCell;
    const std::string name = isNotebook ? path + "[" + std::to_string(codeCell) + "]" : path;
    auto file = std::make_shared<const lang::SourceFile>(name, cell.source);
    out.files.push_back(file);
    lang::ParseResult parsed = lang::parseModule(file);
    for (const lang::Diagnostic& d : parsed.diagnostics.items()) out.diagnostics.add(d);
    // A cell with a syntax error is left out, as Python would not have run it; others still load.
    if (parsed.ok()) out.program->addModule(std::shared_ptr<const lang::Module>(std::move(parsed.module)));
  }
  return out;
}

}  // namespace tilescope::cli
