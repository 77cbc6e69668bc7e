#pragma once
// The open notebook as a QObject: every change to cells goes through here, is announced with a
// precise signal (so views update one cell, not everything), and marks the notebook dirty.
// Indices are positions in the notebook; cell ids stay with a cell when it moves.
#include <QObject>
#include <QString>
#include <unordered_map>
#include <vector>

#include "core/notebook/Notebook.h"

namespace tilescope::ui {

class NotebookModel : public QObject {
  Q_OBJECT
public:
  explicit NotebookModel(QObject* parent = nullptr);

  // Replaces the whole notebook (open, new, recover); the result is clean unless markDirty.
  void reset(notebook::Notebook notebook, bool markDirty = false);
  const notebook::Notebook& notebook() const { return notebook_; }

  int cellCount() const { return static_cast<int>(notebook_.cells.size()); }
  const notebook::Cell& cell(int index) const { return notebook_.cells.at(static_cast<size_t>(index)); }
  // Position of the cell with this id, or -1. Constant time: outputs of a long Run all look their
  // cell up by id for every message.
  int indexOf(const QString& cellId) const;
  QString cellId(int index) const { return QString::fromStdString(cell(index).id); }
  QString source(int index) const { return QString::fromStdString(cell(index).source); }

  // Returns the index of the new cell.
  int insertCell(int index, notebook::CellType type, const QString& source = {});
  void deleteCell(int index);
  // Brings back the most recently deleted cell at its old position and returns that index; -1 when
  // nothing was deleted.
  int undoDelete();
  int deletedCellCount() const { return static_cast<int>(deleted_.size()); }
  void moveCell(int from, int to);
  void setCellType(int index, notebook::CellType type);
  void setSource(int index, const QString& source);

  void clearOutputs(int index);
  void clearAllOutputs();
  void appendOutput(int index, const nlohmann::json& output);
  void appendStream(int index, const QString& streamName, const QString& text);
  void setExecutionCount(int index, int count);
  // The notebook's own {"tilescope": {key: value}} metadata (Run On's "run_on"); a null value removes it.
  void setTilescopeMetadata(const std::string& key, const nlohmann::json& value);

  bool isDirty() const { return dirty_; }
  void setClean();
  // Grows with every change; autosave compares it to skip unchanged notebooks.
  quint64 revision() const { return revision_; }

signals:
  void modelReset();
  void cellInserted(int index);
  void cellRemoved(int index);
  void cellMoved(int from, int to);
  void cellTypeChanged(int index);
  void sourceChanged(int index);
  void outputsChanged(int index);
  void executionCountChanged(int index);
  void dirtyChanged(bool dirty);

private:
  void changed();
  void cellsReordered() { indexValid_ = false; }  // after any insert, removal or move of cells
  notebook::Cell& mutableCell(int index) { return notebook_.cells.at(static_cast<size_t>(index)); }

  struct DeletedCell {
    int index;
    notebook::Cell cell;
  };
  notebook::Notebook notebook_;
  std::vector<DeletedCell> deleted_;
  bool dirty_ = false;
  quint64 revision_ = 0;
  mutable std::unordered_map<std::string, int> indexById_;  // rebuilt on demand after cellsReordered()
  mutable bool indexValid_ = false;
};

}  // namespace tilescope::ui
