#include "ui/NotebookModel.h"

#include <algorithm>

#include "core/notebook/CellOutputs.h"

namespace tilescope::ui {

namespace {
// Deleted cells are kept for Z; a long session should not keep every one forever.
constexpr size_t kMaxUndoableDeletes = 100;
}  // namespace

NotebookModel::NotebookModel(QObject* parent) : QObject(parent) {}

void NotebookModel::changed() {
  ++revision_;
  if (!dirty_) {
    dirty_ = true;
    emit dirtyChanged(true);
  }
}

void NotebookModel::setClean() {
  if (!dirty_) return;
  dirty_ = false;
  emit dirtyChanged(false);
}

int NotebookModel::indexOf(const QString& cellId) const {
  if (!indexValid_) {
    indexById_.clear();
    indexById_.reserve(notebook_.cells.size());
    // emplace keeps the first of equal ids, as a search from the top would find.
    for (size_t i = 0; i < notebook_.cells.size(); ++i) indexById_.emplace(notebook_.cells[i].id, static_cast<int>(i));
    indexValid_ = true;
  }
  const auto found = indexById_.find(cellId.toStdString());
  return found == indexById_.end() ? -1 : found->second;
}

void NotebookModel::reset(notebook::Notebook notebook, bool markDirty) {
  notebook_ = std::move(notebook);
  cellsReordered();
  deleted_.clear();
  ++revision_;
  emit modelReset();
  if (markDirty) changed();
  else setClean();
}

int NotebookModel::insertCell(int index, notebook::CellType type, const QString& source) {
  index = std::clamp(index, 0, cellCount());
  notebook_.insertCell(static_cast<size_t>(index), type, source.toStdString());
  cellsReordered();
  emit cellInserted(index);
  changed();
  return index;
}

void NotebookModel::deleteCell(int index) {
  if (index < 0 || index >= cellCount()) return;
  deleted_.push_back({index, std::move(mutableCell(index))});
  if (deleted_.size() > kMaxUndoableDeletes) deleted_.erase(deleted_.begin());
  notebook_.cells.erase(notebook_.cells.begin() + index);
  cellsReordered();
  emit cellRemoved(index);
  changed();
}

int NotebookModel::undoDelete() {
  if (deleted_.empty()) return -1;
  DeletedCell restored = std::move(deleted_.back());
  deleted_.pop_back();
  const int index = std::clamp(restored.index, 0, cellCount());
  // The id may have been reused by a cell made since; ids must stay unique.
  if (notebook_.indexOfCell(restored.cell.id) >= 0) restored.cell.id = notebook_.newCellId();
  notebook_.cells.insert(notebook_.cells.begin() + index, std::move(restored.cell));
  cellsReordered();
  emit cellInserted(index);
  changed();
  return index;
}

void NotebookModel::moveCell(int from, int to) {
  if (from < 0 || from >= cellCount() || to < 0 || to >= cellCount() || from == to) return;
  notebook::Cell moving = std::move(mutableCell(from));
  notebook_.cells.erase(notebook_.cells.begin() + from);
  notebook_.cells.insert(notebook_.cells.begin() + to, std::move(moving));
  cellsReordered();
  emit cellMoved(from, to);
  changed();
}

void NotebookModel::setCellType(int index, notebook::CellType type) {
  if (index < 0 || index >= cellCount() || cell(index).type == type) return;
  notebook::Cell& c = mutableCell(index);
  c.type = type;
  // Outputs and execution counts only exist on code cells (the nbformat schema forbids them elsewhere).
  c.outputs = nlohmann::json::array();
  c.executionCount = 0;
  emit cellTypeChanged(index);
  changed();
}

void NotebookModel::setSource(int index, const QString& source) {
  if (index < 0 || index >= cellCount()) return;
  std::string text = source.toStdString();
  if (cell(index).source == text) return;
  mutableCell(index).source = std::move(text);
  emit sourceChanged(index);
  changed();
}

void NotebookModel::clearOutputs(int index) {
  if (index < 0 || index >= cellCount() || cell(index).outputs.empty()) return;
  mutableCell(index).outputs = nlohmann::json::array();
  emit outputsChanged(index);
  changed();
}

void NotebookModel::clearAllOutputs() {
  for (int i = 0; i < cellCount(); ++i) {
    clearOutputs(i);
    setExecutionCount(i, 0);
  }
}

void NotebookModel::appendOutput(int index, const nlohmann::json& output) {
  if (index < 0 || index >= cellCount() || cell(index).type != notebook::CellType::Code) return;
  mutableCell(index).outputs.push_back(output);
  emit outputsChanged(index);
  changed();
}

void NotebookModel::appendStream(int index, const QString& streamName, const QString& text) {
  if (index < 0 || index >= cellCount() || cell(index).type != notebook::CellType::Code) return;
  notebook::appendStreamOutput(mutableCell(index).outputs, streamName.toStdString(), text.toStdString());
  emit outputsChanged(index);
  changed();
}

void NotebookModel::setExecutionCount(int index, int count) {
  if (index < 0 || index >= cellCount() || cell(index).executionCount == count) return;
  mutableCell(index).executionCount = count;
  emit executionCountChanged(index);
  changed();
}

void NotebookModel::setTilescopeMetadata(const std::string& key, const nlohmann::json& value) {
  nlohmann::json& metadata = notebook_.metadata;
  if (!metadata.is_object()) metadata = nlohmann::json::object();
  nlohmann::json& ours = metadata["tilescope"];
  if (!ours.is_object()) ours = nlohmann::json::object();
  const auto old = ours.find(key);
  if (value.is_null() ? old == ours.end() : (old != ours.end() && *old == value)) return;
  if (value.is_null()) ours.erase(key);
  else ours[key] = value;
  if (ours.empty()) metadata.erase("tilescope");
  changed();
}

}  // namespace tilescope::ui
