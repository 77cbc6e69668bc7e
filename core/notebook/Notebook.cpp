#include "core/notebook/Notebook.h"

#include <algorithm>
#include <random>
#include <unordered_set>

namespace tilescope::notebook {

bool Cell::hasTag(const std::string& tag) const {
  const auto tags = metadata.find("tags");
  if (tags == metadata.end() || !tags->is_array()) return false;
  for (const auto& t : *tags)
    if (t.is_string() && t.get<std::string>() == tag) return true;
  return false;
}

bool Cell::raisesException() const { return hasTag("raises-exception"); }

bool Cell::gpuOnly() const { return hasTag("gpu-only"); }

const char* cellTypeName(CellType t) {
  switch (t) {
    case CellType::Code: return "code";
    case CellType::Markdown: return "markdown";
    case CellType::Raw: return "raw";
  }
  return "code";
}

std::string Notebook::newCellId() const {
  std::unordered_set<std::string> used;
  for (const Cell& c : cells) used.insert(c.id);
  static thread_local std::mt19937 rng{std::random_device{}()};
  static const char* hex = "0123456789abcdef";
  for (;;) {
    std::string id(8, '0');
    for (char& ch : id) ch = hex[rng() % 16];
    if (!used.count(id)) return id;
  }
}

Cell& Notebook::appendCell(CellType type, std::string source) { return insertCell(cells.size(), type, std::move(source)); }

Cell& Notebook::insertCell(size_t index, CellType type, std::string source) {
  Cell cell;
  cell.id = newCellId();
  cell.type = type;
  cell.source = std::move(source);
  const auto position = cells.begin() + static_cast<std::ptrdiff_t>(std::min(index, cells.size()));
  return *cells.insert(position, std::move(cell));
}

int Notebook::indexOfCell(const std::string& id) const {
  for (size_t i = 0; i < cells.size(); ++i)
    if (cells[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace tilescope::notebook
