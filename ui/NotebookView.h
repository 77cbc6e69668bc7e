#pragma once
// The vertical list of cell widgets of one NotebookModel. It follows the model's signals one cell at
// a time (insert, remove, move, type change, outputs), keeps the selection and the mode (command
// or edit, as in Jupyter), and in presentation mode shows only the selected cell. Keys are handled by
// NotebookController, which filters this widget's events.
// Cell widgets are built when they come into view (a CellPlaceholder of about their height stands in
// until then), so a notebook of thousands of cells opens at once. When cells above the top of the
// view change height (built, wrapped, outputs), the view keeps showing the same place (scroll
// anchoring, as browsers do).
#include <QHash>
#include <QScrollArea>
#include <QSet>
#include <QTimer>
#include <vector>

#include "ui/CodeEditor.h"
#include "ui/Theme.h"
#include "ui/InspectorLink.h"
#include "ui/TracebackLink.h"

class QLabel;
class QVBoxLayout;

namespace tilescope::ui {

class CellPlaceholder;
class CellWidget;
class CodeCellWidget;
class NotebookModel;
enum class RunState;

class NotebookView : public QScrollArea {
  Q_OBJECT
public:
  enum class Mode { Command, Edit };

  NotebookView(NotebookModel* model, QWidget* parent = nullptr);

  int cellCount() const { return static_cast<int>(slots_.size()); }
  // The widget of a cell, built now if it was not yet (building is invisible to callers).
  CellWidget* cellWidget(int index) const;
  CellWidget* cellWidget(const QString& cellId) const;
  CodeCellWidget* codeCell(const QString& cellId) const;
  // The widget of a cell if it has been built, else null: for changes a widget built later reads
  // from the model anyway.
  CellWidget* builtCellWidget(int index) const;
  CellWidget* builtCellWidget(const QString& cellId) const;
  int builtCellCount() const;
  // Scrolls so that the selected cell is in view (deferred until the layout has run, as selecting does).
  void scrollToSelected();

  int selectedIndex() const { return selected_; }
  QString selectedCellId() const;
  NotebookModel* model() const { return model_; }
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
  // An inspector link in the outputs of cell `cellId` was clicked, and that cell selected (the
  // inspector dock follows the link).
  void inspectorLinkActivated(const QString& cellId, const tilescope::ui::InspectorLink& link);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

private:
  // One cell: its widget once built, before that a placeholder of about its height.
  struct Slot {
    QString cellId;
    CellWidget* cell = nullptr;
    CellPlaceholder* placeholder = nullptr;  // owned by the view (a layout item)
    int top() const;  // in the content, as last laid out
    int bottom() const;
  };

  CellWidget* createCellWidget(int index, bool markdownRendered);
  void insertSlot(int index, bool build, bool markdownRendered);
  void removeSlotFromLayout(const Slot& slot);  // and deletes what stood for the cell
  CellWidget* build(int index);
  void applyViewStateTo(int index);  // selection, run state, presentation visibility of a built cell
  void buildTopCells();
  void buildCellsInView();
  int slotIndexOf(const QString& cellId) const;
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

  // Scroll anchoring: the cell at the top of the view and how far into it the view starts; after the
  // layout changes, the view scrolls by as much as that cell moved.
  void rememberScrollAnchor();
  void restoreScrollAnchor();
  void settleLayout();  // lays out the cells and updates the scroll range now, not at the next event
  void scheduleLayoutFollowUp();
  void followLayout();  // after a layout change or a scroll: keep the anchor, build cells come into view

  NotebookModel* model_;
  QWidget* content_;
  QVBoxLayout* layout_;
  QLabel* presentationHeader_;
  std::vector<Slot> slots_;  // same order as the model
  QHash<QString, RunState> runStates_;  // cells queued or running (a cell built later shows it too)
  QString anchorId_;
  int anchorOffset_ = 0;
  bool adjustingScroll_ = false;  // the scroll position is being set by the anchoring itself
  bool followUpPending_ = false;
  bool othersHidden_ = false;     // presentation mode has hidden the cells but the selected one
  int selected_ = -1;
  Mode mode_ = Mode::Command;
  Appearance appearance_;
  bool presentation_ = false;
  QString baseDirectory_;
  QSet<QString> pendingOutputs_;  // cell ids whose outputs changed since the last flush
  QTimer outputFlush_;
};

}  // namespace tilescope::ui
