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

namespace {
std::string randomIdNotIn(const std::unordered_set<std::string>& used) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  static const char* hex = "0123456789abcdef";
  for (;;) {
    std::string id(8, '0');
    for (char& ch : id) ch = hex[rng() % 16];
    if (!used.count(id)) return id;
  }
}
}  // namespace

std::string Notebook::newCellId() const {
  std::unordered_set<std::string> used;
  for (const Cell& c : cells) used.insert(c.id);
  return randomIdNotIn(used);
}

int Notebook::assignMissingAndDuplicateIds() {
  std::unordered_set<std::string> used;
  used.reserve(cells.size() * 2);
  for (const Cell& c : cells)
    if (!c.id.empty()) used.insert(c.id);
  // Walk in order: the first cell keeps an id, later cells with the same id get fresh ones.
  std::unordered_set<std::string> seen;
  seen.reserve(cells.size() * 2);
  int renamed = 0;
  for (Cell& c : cells) {
    if (!c.id.empty() && seen.insert(c.id).second) continue;
    if (!c.id.empty()) ++renamed;
    c.id = randomIdNotIn(used);
    used.insert(c.id);
    seen.insert(c.id);
  }
  return renamed;
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

bool Notebook::warnsOnOutOfBounds() const {
  const auto tilescope = metadata.find("tilescope");
  if (tilescope == metadata.end() || !tilescope->is_object()) return false;
  const auto policy = tilescope->find("out_of_bounds");
  return policy != tilescope->end() && policy->is_string() && policy->get<std::string>() == "warn";
}

}  // namespace tilescope::notebook
