#include "ui/NotebookController.h"

#include <QAction>
#include <QKeyEvent>
#include <QRegularExpression>

#include "core/notebook/CellOutputs.h"
#include "ui/BackendSelector.h"
#include "ui/BenchmarkPlot.h"
#include "ui/CellWidget.h"
#include "ui/CodeCellWidget.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"

namespace tilescope::ui {
namespace {
// D D, I I and 0 0 need both presses within this time, as in Jupyter.
constexpr qint64 kDoublePressMs = 800;

QAction* makeAction(QObject* parent, const QString& text, const QString& keyHint, const QString& toolTip) {
  // The key hint after a tab shows in the menu's shortcut column; the keys themselves are handled by
  // eventFilter() because they depend on the mode (A types an "a" in edit mode).
  auto* action = new QAction(keyHint.isEmpty() ? text : text + '\t' + keyHint, parent);
  action->setIconText(QString(text).remove('&').remove(QStringLiteral("...")));
  action->setToolTip(keyHint.isEmpty() ? toolTip : QStringLiteral("%1 (%2)").arg(toolTip, keyHint));
  return action;
}
}  // namespace

NotebookController::NotebookController(NotebookModel* model, NotebookView* view, ExecutionClient* client,
                                       BackendSelector* selector, QObject* parent)
    : QObject(parent), model_(model), view_(view), client_(client), selector_(selector) {
  createActions();
  connectClient();
  view_->installEventFilter(this);
  connect(model_, &NotebookModel::modelReset, this, &NotebookController::startFreshSession);
}

void NotebookController::startFreshSession() {
  // Another notebook (opened, new or recovered) must not see the names the last one defined, and
  // counts its runs from 1: each notebook gets its own worker, as each Jupyter notebook its kernel.
  // A worker nothing ran in is as fresh as a new one.
  if (!workerUsed_) return;
  workerUsed_ = false;
  startedCounts_.clear();
  reportedErrors_.clear();
  client_->restart();
}

void NotebookController::createActions() {
  Actions& a = actions_;
  a.runAndAdvance = makeAction(this, tr("&Run Cell and Select Below"), tr("Shift+Enter"), tr("Run the selected cell and select the next"));
  a.runAndAdvance->setIconText(tr("Run"));
  a.run = makeAction(this, tr("Run &Selected Cell"), tr("Ctrl+Enter"), tr("Run the selected cell and stay on it"));
  a.runAndInsertBelow = makeAction(this, tr("Run Cell and &Insert Below"), tr("Alt+Enter"), tr("Run the selected cell and add a new cell under it"));
  a.runAll = makeAction(this, tr("Run &All Cells"), {}, tr("Run every cell from the top; stops at the first error"));
  a.runAll->setIconText(tr("Run all"));
  a.runAbove = makeAction(this, tr("Run All A&bove Selected Cell"), {}, tr("Run every cell above the selected one"));
  a.runAbove->setIconText(tr("Run above"));
  a.interrupt = makeAction(this, tr("&Interrupt"), tr("I, I"), tr("Stop the running cell"));
  a.interrupt->setEnabled(false);
  a.restart = makeAction(this, tr("Re&start"), tr("0, 0"), tr("Start a fresh worker: variables from earlier cells are gone"));
  a.clearOutputs = makeAction(this, tr("&Clear All Outputs"), {}, tr("Remove the outputs of every cell"));
  a.clearOutputs->setIconText(tr("Clear outputs"));
  a.insertAbove = makeAction(this, tr("Insert Cell &Above"), tr("A"), tr("Add a code cell above the selected one"));
  a.insertBelow = makeAction(this, tr("Insert Cell &Below"), tr("B"), tr("Add a code cell below the selected one"));
  a.deleteCell = makeAction(this, tr("&Delete Cell"), tr("D, D"), tr("Delete the selected cell (Z brings it back)"));
  a.undoDelete = makeAction(this, tr("&Undo Cell Deletion"), tr("Z"), tr("Bring back the last deleted cell"));
  a.toMarkdown = makeAction(this, tr("Change to &Markdown"), tr("M"), tr("Make the selected cell a markdown cell"));
  a.toCode = makeAction(this, tr("Change to &Code"), tr("Y"), tr("Make the selected cell a code cell"));
  a.moveUp = makeAction(this, tr("Move Cell &Up"), tr("Ctrl+Shift+Up"), tr("Move the selected cell up"));
  a.moveDown = makeAction(this, tr("Move Cell Do&wn"), tr("Ctrl+Shift+Down"), tr("Move the selected cell down"));
  a.selectPrevious = makeAction(this, tr("Select &Previous Cell"), tr("K / Up"), tr("Select the cell above"));
  a.selectNext = makeAction(this, tr("Select &Next Cell"), tr("J / Down"), tr("Select the cell below"));

  connect(a.runAndAdvance, &QAction::triggered, this, &NotebookController::runSelectedAndAdvance);
  connect(a.run, &QAction::triggered, this, &NotebookController::runSelected);
  connect(a.runAndInsertBelow, &QAction::triggered, this, &NotebookController::runSelectedAndInsertBelow);
  connect(a.runAll, &QAction::triggered, this, &NotebookController::runAll);
  connect(a.runAbove, &QAction::triggered, this, &NotebookController::runAbove);
  connect(a.interrupt, &QAction::triggered, this, &NotebookController::interrupt);
  connect(a.restart, &QAction::triggered, this, &NotebookController::restart);
  connect(a.clearOutputs, &QAction::triggered, this, &NotebookController::clearAllOutputs);
  connect(a.insertAbove, &QAction::triggered, this, [this] { insertCell(false); });
  connect(a.insertBelow, &QAction::triggered, this, [this] { insertCell(true); });
  connect(a.deleteCell, &QAction::triggered, this, &NotebookController::deleteSelected);
  connect(a.undoDelete, &QAction::triggered, this, &NotebookController::undoDelete);
  connect(a.toMarkdown, &QAction::triggered, this, [this] { changeSelectedType(notebook::CellType::Markdown); });
  connect(a.toCode, &QAction::triggered, this, [this] { changeSelectedType(notebook::CellType::Code); });
  connect(a.moveUp, &QAction::triggered, this, [this] { moveSelected(-1); });
  connect(a.moveDown, &QAction::triggered, this, [this] { moveSelected(1); });
  connect(a.selectPrevious, &QAction::triggered, this, [this] { selectRelative(-1); });
  connect(a.selectNext, &QAction::triggered, this, [this] { selectRelative(1); });
}

Backend NotebookController::backend() const { return selector_ ? selector_->backend() : Backend::Auto; }

bool NotebookController::notebookWarnsOnOutOfBounds() const { return model_->notebook().warnsOnOutOfBounds(); }

// ---- keys ----

bool NotebookController::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_ && event->type() == QEvent::KeyPress) return handleKey(static_cast<QKeyEvent*>(event));
  return QObject::eventFilter(watched, event);
}

bool NotebookController::isDoublePress(int key) {
  const bool isDouble = lastKey_ == key && lastKeyTime_.isValid() && lastKeyTime_.elapsed() < kDoublePressMs;
  lastKey_ = isDouble ? 0 : key;  // a third press starts a new pair
  lastKeyTime_.start();
  return isDouble;
}

bool NotebookController::handleKey(QKeyEvent* event) {
  const int key = event->key();
  const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
  const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
  // Both modes: the editor passes these on instead of inserting a newline.
  if (enter && mods == Qt::ShiftModifier) return runSelectedAndAdvance(), true;
  if (enter && mods == Qt::ControlModifier) return runSelected(), true;
  if (enter && mods == Qt::AltModifier) return runSelectedAndInsertBelow(), true;
  if (mods == (Qt::ControlModifier | Qt::ShiftModifier) && (key == Qt::Key_Up || key == Qt::Key_Down))
    return moveSelected(key == Qt::Key_Up ? -1 : 1), true;

  if (view_->mode() == NotebookView::Mode::Edit) {
    if (key == Qt::Key_Escape) return view_->enterCommandMode(), true;
    // The editor lets Up on its first line and Down on its last line through: go to the next cell.
    if (mods == Qt::NoModifier && (key == Qt::Key_Up || key == Qt::Key_Down))
      return selectRelative(key == Qt::Key_Up ? -1 : 1, true), true;
    return false;
  }

  if (mods != Qt::NoModifier && mods != Qt::ShiftModifier) return false;
  // A chord (D D, I I, 0 0) is two presses of the same key with nothing in between.
  if (key != Qt::Key_D && key != Qt::Key_I && key != Qt::Key_0) lastKey_ = 0;
  switch (key) {
    case Qt::Key_Return:
    case Qt::Key_Enter: view_->enterEditMode(); return true;
    case Qt::Key_A: insertCell(false); return true;
    case Qt::Key_B: insertCell(true); return true;
    case Qt::Key_D:
      if (isDoublePress(key)) deleteSelected();
      return true;
    case Qt::Key_I:
      if (isDoublePress(key)) interrupt();
      return true;
    case Qt::Key_0:
      if (isDoublePress(key)) restart();
      return true;
    case Qt::Key_Z: undoDelete(); return true;
    case Qt::Key_M: changeSelectedType(notebook::CellType::Markdown); return true;
    case Qt::Key_Y: changeSelectedType(notebook::CellType::Code); return true;
    case Qt::Key_R: changeSelectedType(notebook::CellType::Raw); return true;
    case Qt::Key_K:
    case Qt::Key_Up: selectRelative(-1); return true;
    case Qt::Key_J:
    case Qt::Key_Down: selectRelative(1); return true;
    default: return false;
  }
}

// ---- cell commands ----

void NotebookController::insertCell(bool below) {
  const int selected = view_->selectedIndex();
  const int at = selected < 0 ? (below ? model_->cellCount() : 0) : selected + (below ? 1 : 0);
  const int index = model_->insertCell(at, notebook::CellType::Code);
  view_->select(index);
  view_->enterCommandMode();
}

void NotebookController::deleteSelected() {
  const int selected = view_->selectedIndex();
  if (selected < 0) return;
  model_->deleteCell(selected);
  emit statusMessage(tr("Cell deleted: press Z to bring it back"));
}

void NotebookController::undoDelete() {
  const int index = model_->undoDelete();
  if (index < 0) {
    emit statusMessage(tr("No deleted cell to bring back"));
    return;
  }
  view_->select(index);
  view_->enterCommandMode();
}

void NotebookController::changeSelectedType(notebook::CellType type) {
  const int selected = view_->selectedIndex();
  if (selected < 0) return;
  model_->setCellType(selected, type);
}

void NotebookController::moveSelected(int delta) {
  const int selected = view_->selectedIndex();
  const int target = selected + delta;
  if (selected < 0 || target < 0 || target >= model_->cellCount()) return;
  model_->moveCell(selected, target);
}

void NotebookController::selectRelative(int delta, bool keepEditing) {
  const int target = view_->selectedIndex() + delta;
  if (target < 0 || target >= model_->cellCount()) return;
  view_->select(target);
  if (!keepEditing) return;
  view_->enterEditMode();
  // Coming from below lands on the last line, from above on the first, as in Jupyter.
  if (CellWidget* cell = view_->cellWidget(target)) {
    CodeEditor* editor = cell->editor();
    if (delta < 0) editor->setCursorPosition(editor->lines() - 1, 0);
    else editor->setCursorPosition(0, 0);
  }
}

// ---- running ----

void NotebookController::runCell(int index) {
  if (index < 0 || index >= model_->cellCount()) return;
  const notebook::Cell& cell = model_->cell(index);
  if (cell.type == notebook::CellType::Markdown) {
    view_->renderMarkdown(index);
    return;
  }
  if (cell.type != notebook::CellType::Code) return;
  const QString id = model_->cellId(index);
  if (pending_.contains(id)) return;  // already queued: running it twice in a row helps nobody
  model_->clearOutputs(index);
  // A cell not built yet has no markers to clear.
  if (CellWidget* widget = view_->builtCellWidget(index)) widget->editor()->clearDiagnostics();
  clearMarksOfLastRun(id);
  pending_.insert(id);
  workerUsed_ = true;
  view_->setRunState(id, RunState::Queued);
  client_->setWarnOnOutOfBounds(notebookWarnsOnOutOfBounds());
  client_->setExpectErrors(cell.raisesException());
  client_->setGpuOnly(cell.gpuOnly());
  client_->runCell(id, model_->source(index), backend());
}

void NotebookController::runCells(const QList<int>& indices) {
  if (runGate_ && !runGate_()) return;
  errors_ = 0;
  for (int index : indices) runCell(index);
  if (pending_.isEmpty()) emit allRunsFinished();  // markdown only, or nothing to run
}

void NotebookController::runSelected() {
  runCells({view_->selectedIndex()});
  view_->enterCommandMode();
}

void NotebookController::runSelectedAndAdvance() {
  const int selected = view_->selectedIndex();
  if (selected < 0) return;
  runCells({selected});
  if (selected + 1 >= model_->cellCount()) {
    // At the end Jupyter adds a cell to write the next step in.
    view_->select(model_->insertCell(selected + 1, notebook::CellType::Code));
    view_->enterEditMode();
  } else {
    view_->select(selected + 1);
    view_->enterCommandMode();
  }
}

void NotebookController::runSelectedAndInsertBelow() {
  const int selected = view_->selectedIndex();
  if (selected < 0) return;
  runCells({selected});
  view_->select(model_->insertCell(selected + 1, notebook::CellType::Code));
  view_->enterEditMode();
}

void NotebookController::runAll() {
  QList<int> all;
  for (int i = 0; i < model_->cellCount(); ++i) all << i;
  runCells(all);
}

void NotebookController::runAbove() {
  QList<int> above;
  for (int i = 0; i < view_->selectedIndex(); ++i) above << i;
  runCells(above);
}

void NotebookController::interrupt() { client_->interrupt(); }

void NotebookController::restart() {
  workerUsed_ = false;
  client_->restart();
  emit statusMessage(tr("Restarting the worker: variables from earlier cells are gone"));
}

void NotebookController::clearAllOutputs() { model_->clearAllOutputs(); }

void NotebookController::connectClient() {
  connect(client_, &ExecutionClient::executionStarted, this, [this](const QString& id, int count) {
    view_->setRunState(id, RunState::Running);
    startedCounts_.insert(id, count);
  });
  connect(client_, &ExecutionClient::streamOutput, this, [this](const QString& id, const QString& name, const QString& text) {
    model_->appendStream(model_->indexOf(id), name, readableLocations(id, text));
  });
  connect(client_, &ExecutionClient::richOutput, this, [this](const QString& id, const RichOutput& output) {
    // Blobs (program traces) are for the visualizers; the saved notebook keeps the MIME bundle.
    // A benchmark also gets its plot as image/png, so the saved notebook shows it on GitHub and in
    // Jupyter (tilescope itself draws it live from the series).
    nlohmann::json data = output.data;
    if (data.is_object() && data.contains(BenchmarkPlot::kMimeType) && !data.contains("image/png"))
      if (std::string png = BenchmarkPlot::renderBase64Png(data[BenchmarkPlot::kMimeType], Theme::lightTheme()); !png.empty())
        data["image/png"] = std::move(png);
    model_->appendOutput(model_->indexOf(id),
                         output.isExecuteResult
                             ? notebook::executeResultOutput(output.executionCount, data, output.metadata)
                             : notebook::displayDataOutput(data, output.metadata));
  });
  connect(client_, &ExecutionClient::errorOutput, this, [this](const QString& id, const ExecutionError& error) {
    std::vector<std::string> traceback;
    for (const TracebackFrame& frame : error.traceback)
      if (const QString line = describeFrame(id, frame, error); !line.isEmpty()) traceback.push_back(line.toStdString());
    model_->appendOutput(model_->indexOf(id), notebook::errorOutput(error.name.toStdString(), error.value.toStdString(), traceback));
    reportedErrors_.insert(id);
    showErrorInCells(id, error);
  });
  connect(client_, &ExecutionClient::cellFinished, this, [this](const QString& id, CellRunStatus status) {
    pending_.remove(id);
    // A cell tagged raises-exception is meant to fail: its error is shown but is no failure of the run.
    const int index = model_->indexOf(id);
    const bool expected = index >= 0 && model_->cell(index).raisesException();
    if (status == CellRunStatus::Error && !expected) ++errors_;
    // The count is written when the cell has an outcome (done, failed, or interrupted with a
    // traceback). A cell whose worker died has none, so the notebook keeps its old count.
    const int count = startedCounts_.take(id);
    const bool reported = reportedErrors_.remove(id);
    if (count > 0 && (status != CellRunStatus::Aborted || reported)) model_->setExecutionCount(model_->indexOf(id), count);
    view_->setRunState(id, RunState::Idle);
    if (pending_.isEmpty()) emit allRunsFinished();
  });
  connect(client_, &ExecutionClient::busyChanged, this, [this](bool busy) { actions_.interrupt->setEnabled(busy); });
  connect(client_, &ExecutionClient::workerDied, this, [this](const QString& reason) {
    workerUsed_ = false;  // the client starts a fresh one
    emit workerProblem(reason);
  });
}

QString NotebookController::describeLocation(const QString& runningCellId, const TracebackFrame& frame) const {
  const QString cellId = frame.cellId();
  if (cellId.isEmpty()) {
    if (frame.file.isEmpty()) return {};  // a note that points nowhere
    return QStringLiteral("%1:%2:%3").arg(frame.file).arg(frame.line).arg(frame.column);
  }
  // "<cell:3f2a9c1d>" means nothing to a reader; the cell's prompt number does, as in Jupyter.
  const int index = model_->indexOf(cellId);
  const int count = cellId == runningCellId ? startedCounts_.value(cellId) : index >= 0 ? model_->cell(index).executionCount : 0;
  const QString cell = count > 0 ? tr("Cell [%1]").arg(count) : index >= 0 ? tr("Cell %1").arg(index + 1) : tr("A deleted cell");
  return tr("%1, line %2, column %3").arg(cell).arg(frame.line).arg(frame.column);
}

QString NotebookController::describeFrame(const QString& runningCellId, const TracebackFrame& frame,
                                          const ExecutionError& error) const {
  const QString where = describeLocation(runningCellId, frame);
  if (!frame.isDiagnostic()) return where.isEmpty() ? frame.text : QStringLiteral("%1: %2").arg(where, frame.text);
  // A diagnostic of the kernel: where, what (unless the error's own line says it already: each
  // message once), then the code with a caret under the spot.
  QString out = where;
  if (frame.severity != QLatin1String("error") || frame.message != error.value)
    out += (out.isEmpty() ? QString() : QStringLiteral(": ")) + frame.severity + QStringLiteral(": ") + frame.message;
  if (!frame.text.isEmpty())
    for (const QString& line : frame.text.split(QLatin1Char('\n'))) out += QStringLiteral("\n    ") + line;
  return out;
}

QString NotebookController::readableLocations(const QString& runningCellId, const QString& text) const {
  // Kernel warnings arrive as clang-style text, "<cell:ID>:3:12: warning: ...": name the cell as
  // tracebacks do.
  static const QRegularExpression internal(QStringLiteral(R"(<cell:([^>\s]+)>:(\d+):(\d+))"));
  if (!text.contains(QLatin1String("<cell:"))) return text;
  QString out;
  qsizetype from = 0;
  for (QRegularExpressionMatchIterator it = internal.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    TracebackFrame frame;
    frame.file = QStringLiteral("<cell:%1>").arg(m.captured(1));
    frame.line = m.captured(2).toInt();
    frame.column = m.captured(3).toInt();
    out += text.mid(from, m.capturedStart() - from) + describeLocation(runningCellId, frame);
    from = m.capturedEnd();
  }
  return out + text.mid(from);
}

void NotebookController::clearMarksOfLastRun(const QString& cellId) {
  // A cell not built yet has no markers: clearing must not build it.
  for (const QString& marked : markedBy_.take(cellId))
    if (CellWidget* widget = view_->builtCellWidget(marked)) widget->editor()->clearDiagnostics();
}

void NotebookController::showErrorInCells(const QString& runningCellId, const ExecutionError& error) {
  const bool interrupted = error.name == QLatin1String("KeyboardInterrupt");
  const QString headline = QStringLiteral("%1: %2").arg(error.name, error.value);
  // A kernel error is marked where it is, in the kernel's own cell; the launch line then only says
  // that the call came from there. Without one, the innermost frame of the call stack is the spot.
  qsizetype innermostCall = -1;
  bool locatedError = false;
  for (qsizetype i = 0; i < error.traceback.size(); ++i) {
    const TracebackFrame& frame = error.traceback[i];
    if (!frame.isDiagnostic()) innermostCall = i;
    else if (frame.severity == QLatin1String("error") && !frame.cellId().isEmpty() && frame.line > 0) locatedError = true;
  }
  for (qsizetype i = 0; i < error.traceback.size(); ++i) {
    const TracebackFrame& frame = error.traceback[i];
    const QString cellId = frame.cellId();
    if (cellId.isEmpty() || frame.line <= 0) continue;
    if (frame.severity == QLatin1String("error"))
      view_->showDiagnostic(cellId, frame.line, frame.column, frame.message == error.value ? headline : frame.message,
                            DiagnosticSeverity::Error);
    else if (frame.severity == QLatin1String("warning"))
      view_->showDiagnostic(cellId, frame.line, frame.column, tr("warning: %1").arg(frame.message), DiagnosticSeverity::Warning);
    else if (frame.isDiagnostic())
      view_->showDiagnostic(cellId, frame.line, frame.column, frame.message, DiagnosticSeverity::Info);
    else if (i == innermostCall && !locatedError)
      view_->showDiagnostic(cellId, frame.line, frame.column, headline,
                            interrupted ? DiagnosticSeverity::Info : DiagnosticSeverity::Error);
    else
      view_->showDiagnostic(cellId, frame.line, frame.column, tr("called from here"), DiagnosticSeverity::Info);
    if (cellId != runningCellId) markedBy_[runningCellId].insert(cellId);
  }
}

}  // namespace tilescope::ui
