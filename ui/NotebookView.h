#pragma once
// The vertical list of cell widgets of one NotebookModel. It follows the model's signals one cell at
// a time (insert, remove, move, type change, outputs), keeps the selection and the mode (command
// or edit, as in Jupyter), and in presentation mode shows only the selected cell. Keys are handled by
// NotebookController, which filters this widget's events.
#include <QHash>
#include <QScrollArea>
#include <QSet>
#include <QTimer>
#include <vector>

#include "ui/CodeEditor.h"
#include "ui/Theme.h"
#include "ui/TracebackLink.h"

class QLabel;
class QVBoxLayout;

namespace tilescope::ui {

class CellWidget;
class CodeCellWidget;
class NotebookModel;
enum class RunState;

class NotebookView : public QScrollArea {
  Q_OBJECT
public:
  enum class Mode { Command, Edit };

  NotebookView(NotebookModel* model, QWidget* parent = nullptr);

  int cellCount() const { return static_cast<int>(cells_.size()); }
  CellWidget* cellWidget(int index) const;
  CellWidget* cellWidget(const QString& cellId) const;
  CodeCellWidget* codeCell(const QString& cellId) const;

  int selectedIndex() const { return selected_; }
  QString selectedCellId() const;
  void select(int index);
  Mode mode() const { return mode_; }
  // Edit mode puts the cursor into the selected cell (a rendered markdown cell shows its source).
  void enterEditMode();
  void enterCommandMode();

  void setAppearance(const Appearance& appearance);
  const Appearance& appearance() const { return appearance_; }
  void setPresentationMode(bool on);
  bool presentationMode() const { return presentation_; }
  void setBaseDirectory(const QString& directory);

  void setRunState(const QString& cellId, RunState state);
  void renderMarkdown(int index);
  // Marks a spot in a cell's code (line and column 1-based); removed when the cell is edited.
  void showDiagnostic(const QString& cellId, int line, int column, const QString& message, DiagnosticSeverity severity);
  // Selects the cell a traceback link points at and puts the cursor at its line and column. A count
  // shared by several cells (after a restart) means the cell showing the link, if it has that count.
  // False when no cell matches.
  bool goToLocation(const QString& fromCellId, const TracebackLink& link);
  // Shows pending output changes now instead of at the next timer tick (tests, screenshots).
  void flushPendingOutputs();

signals:
  void selectionChanged(int index);
  void modeChanged(tilescope::ui::NotebookView::Mode mode);

private:
  CellWidget* createCellWidget(int index, bool markdownRendered);
  void insertCellWidget(int index, bool markdownRendered);
  void rebuild();
  void onCellInserted(int index);
  void onCellRemoved(int index);
  void onCellMoved(int from, int to);
  void onCellTypeChanged(int index);
  void onSourceChanged(int index);
  void onCellActivated(const QString& cellId, bool forEditing);
  void updateSelectionDecoration();
  void updatePresentationVisibility();
  void setMode(Mode mode);
  void scrollToSelected();

  NotebookModel* model_;
  QWidget* content_;
  QVBoxLayout* layout_;
  QLabel* presentationHeader_;
  std::vector<CellWidget*> cells_;  // same order as the model
  int selected_ = -1;
  Mode mode_ = Mode::Command;
  Appearance appearance_;
  bool presentation_ = false;
  QString baseDirectory_;
  QSet<QString> pendingOutputs_;  // cell ids whose outputs changed since the last flush
  QTimer outputFlush_;
};

}  // namespace tilescope::ui
