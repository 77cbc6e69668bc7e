#pragma once
// The in-memory notebook: an ordered list of markdown and code cells with their outputs, as in
// Jupyter's nbformat 4. Outputs stay JSON (MIME bundles) so that nothing we do not understand is lost.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tilescope::notebook {

enum class CellType { Code, Markdown, Raw };

struct Cell {
  std::string id;                 // nbformat 4.5 cell id
  CellType type = CellType::Code;
  std::string source;             // joined text; saved as a list of lines
  nlohmann::json metadata = nlohmann::json::object();
  nlohmann::json outputs = nlohmann::json::array();  // code cells only
  nlohmann::json attachments;     // markdown cells, kept verbatim when present
  int executionCount = 0;         // 0 = never run (saved as null)

  // Tagged "raises-exception" (Jupyter's convention, honoured by nbclient): the cell is expected to
  // fail, so running all cells shows its error and goes on.
  bool raisesException() const;
  // Tagged "gpu-only" (tilescope's convention, for benchmarks at GPU sizes): the cell runs only where
  // kernels run on a GPU; elsewhere it is skipped with the reason (host/GpuOnlyCells.h).
  bool gpuOnly() const;
  bool hasTag(const std::string& tag) const;
};

struct Notebook {
  std::vector<Cell> cells;
  nlohmann::json metadata = nlohmann::json::object();
  int nbformat = 4;
  int nbformatMinor = 5;

  // A fresh cell id: 8 lowercase hex digits, unique within this notebook.
  std::string newCellId() const;
  Cell& appendCell(CellType type, std::string source);
  // Inserts before position index (clamped to the end) with a fresh id.
  Cell& insertCell(size_t index, CellType type, std::string source);
  // Position of the cell with this id, or -1.
  int indexOfCell(const std::string& id) const;
  // Gives a fresh id to every cell that has none (nbformat < 4.5) and to every cell whose id an
  // earlier cell already has (hand-edited or merged files): code that finds cells by id would
  // otherwise only ever find the first. One pass, whatever the number of cells. Returns how many
  // duplicates were renamed (missing ids are no news: older notebooks have none).
  int assignMissingAndDuplicateIds();
  // metadata {"tilescope": {"out_of_bounds": "warn"}}: out-of-bounds accesses warn and read 0
  // instead of stopping. Any other value, of any type, means the default (stop).
  bool warnsOnOutOfBounds() const;
};

const char* cellTypeName(CellType t);

}  // namespace tilescope::notebook
