// Fuzz target: read arbitrary bytes as a notebook, as the CLI, the worker and the GUI do. Nothing
// may crash, throw, hang or overflow the stack; a refusal always says why; a notebook that loads is
// written back to text that loads again and writes the same bytes (a save never turns a notebook
// into one we refuse, and never drifts).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/NotebookFile.h"

using namespace tilescope::notebook;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 256 * 1024) return 0;  // keep single runs fast; size does not reach new code paths
  const std::string text(reinterpret_cast<const char*>(data), size);
  const LoadResult loaded = parseNotebookJson(text, "fuzz.ipynb");
  if (!loaded.notebook) {
    if (loaded.error.rfind("fuzz.ipynb: ", 0) != 0) __builtin_trap();  // a refusal names the file
    return 0;
  }
  const Notebook& nb = *loaded.notebook;
  // What the UI and the CLI read from a loaded notebook, without further checks.
  (void)nb.warnsOnOutOfBounds();
  for (const Cell& cell : nb.cells) {
    if (cell.id.empty()) __builtin_trap();
    (void)cell.raisesException();
    for (const auto& output : cell.outputs) (void)outputPlainText(output);
  }
  const std::string saved = serializeNotebook(nb);
  const LoadResult again = parseNotebookJson(saved, "saved.ipynb");
  if (!again.notebook) __builtin_trap();                      // we wrote a notebook we refuse to read
  if (serializeNotebook(*again.notebook) != saved) __builtin_trap();  // the round trip drifts
  return 0;
}
