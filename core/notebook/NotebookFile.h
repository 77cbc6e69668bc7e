#pragma once
// Reading and writing .ipynb (nbformat 4.x) and opening a plain .py as a one-cell notebook.
// Errors are values: a corrupt file is reported and never half-loaded; saving is atomic.
#include <optional>
#include <string>

#include "core/notebook/Notebook.h"

namespace tilescope::notebook {

struct LoadResult {
  std::optional<Notebook> notebook;
  std::string error;  // "path: what is wrong and what to do", when !notebook
  int duplicateIdsReplaced = 0;  // cells whose id an earlier cell had; they got fresh ids
};

LoadResult loadNotebook(const std::string& path);
LoadResult parseNotebookJson(const std::string& text, const std::string& pathForMessages);

// Serialises like Jupyter does (1-space indent, sorted keys, trailing newline) so that a load/save
// round trip is byte-for-byte stable.
std::string serializeNotebook(const Notebook& nb);
// Replaces PATH atomically (util::writeFileAtomically: through links, never over a file the user
// may not write, keeping its mode and owner). Returns an error message or "".
std::string saveNotebook(const Notebook& nb, const std::string& path);

}  // namespace tilescope::notebook
