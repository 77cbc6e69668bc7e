#pragma once
// What the user can do to a notebook, as in Jupyter: the cell commands and their keys (command mode
// vs edit mode, A/B/D D/Z/M/Y/J/K, Shift/Ctrl/Alt+Enter, Esc/Enter), running cells through an
// ExecutionClient, and turning what comes back into outputs, prompts and error markers.
#include <QElapsedTimer>
#include <QObject>
#include <QHash>
#include <QSet>
#include <functional>

#include "core/notebook/Notebook.h"
#include "ui/ExecutionClient.h"

class QAction;
class QKeyEvent;

namespace tilescope::ui {

class BackendSelector;
class NotebookModel;
class NotebookView;

class NotebookController : public QObject {
  Q_OBJECT
public:
  // selector may be null (then kernels run on Backend::Auto).
  NotebookController(NotebookModel* model, NotebookView* view, ExecutionClient* client, BackendSelector* selector,
                     QObject* parent = nullptr);

  struct Actions {
    QAction *runAndAdvance, *run, *runAndInsertBelow, *runAll, *runAbove, *interrupt, *restart, *clearOutputs;
    QAction *insertAbove, *insertBelow, *deleteCell, *undoDelete, *toMarkdown, *toCode, *moveUp, *moveDown;
    QAction *selectPrevious, *selectNext;
  };
  const Actions& actions() const { return actions_; }

  // Asked before any cells are queued; false cancels the run (the window's approval of a notebook's
  // own SSH host, RunOnApprovalDialog).
  void setRunGate(std::function<bool()> gate) { runGate_ = std::move(gate); }

  void runSelectedAndAdvance();
  void runSelected();
  void runSelectedAndInsertBelow();
  void runAll();
  void runAbove();
  void interrupt();
  void restart();
  void clearAllOutputs();
  void insertCell(bool below);
  void deleteSelected();
  void undoDelete();
  void changeSelectedType(notebook::CellType type);
  void moveSelected(int delta);
  void selectRelative(int delta, bool keepEditing = false);

  // Cells queued or running; 0 when everything asked for has finished.
  int pendingRuns() const { return static_cast<int>(pending_.size()); }
  int errorsSinceLastIdle() const { return errors_; }

signals:
  void allRunsFinished();
  void statusMessage(const QString& text);
  void workerProblem(const QString& reason);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  std::function<bool()> runGate_;
  void createActions();
  void startFreshSession();
  bool handleKey(QKeyEvent* event);
  bool isDoublePress(int key);
  void runCells(const QList<int>& indices);
  void runCell(int index);
  void connectClient();
  void showErrorInCells(const QString& runningCellId, const ExecutionError& error);
  void clearMarksOfLastRun(const QString& cellId);
  QString describeFrame(const QString& runningCellId, const TracebackFrame& frame, const ExecutionError& error) const;
  QString describeLocation(const QString& runningCellId, const TracebackFrame& frame) const;
  QString readableLocations(const QString& runningCellId, const QString& text) const;
  Backend backend() const;
  bool notebookWarnsOnOutOfBounds() const;  // the notebook's {"tilescope": {"out_of_bounds": "warn"}}

  NotebookModel* model_;
  NotebookView* view_;
  ExecutionClient* client_;
  BackendSelector* selector_;
  Actions actions_{};
  QSet<QString> pending_;
  QHash<QString, int> startedCounts_;  // execution counts of cells started but not finished
  QSet<QString> reportedErrors_;       // cells whose run sent an error (an interrupt does too)
  // Cells that a cell's last run put error markers into (a kernel error marks the kernel's own cell):
  // running that cell again clears them.
  QHash<QString, QSet<QString>> markedBy_;
  int errors_ = 0;
  bool workerUsed_ = false;  // cells have run in the current worker: it holds their names
  int lastKey_ = 0;
  QElapsedTimer lastKeyTime_;
};

}  // namespace tilescope::ui
