#include "ui/NotebookView.h"

#include <QApplication>
#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "ui/CodeCellWidget.h"
#include "ui/MarkdownCellWidget.h"
#include "ui/NotebookModel.h"
#include "ui/RawCellWidget.h"

namespace tilescope::ui {

namespace {
// Output updates arriving faster than this are shown together: a print loop must not re-lay out the
// notebook thousands of times a second.
constexpr int kOutputFlushMs = 30;
// Layout position of cell 0 (the presentation header comes first).
constexpr int kFirstCellLayoutIndex = 1;
}  // namespace

NotebookView::NotebookView(NotebookModel* model, QWidget* parent) : QScrollArea(parent), model_(model) {
  setObjectName(QStringLiteral("notebookView"));
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
  setFocusPolicy(Qt::StrongFocus);  // command-mode keys arrive here
  content_ = new QWidget(this);
  content_->setObjectName(QStringLiteral("notebookContent"));
  layout_ = new QVBoxLayout(content_);
  layout_->setContentsMargins(8, 8, 16, 48);
  layout_->setSpacing(4);
  presentationHeader_ = new QLabel(content_);
  presentationHeader_->setObjectName(QStringLiteral("presentationHeader"));
  presentationHeader_->hide();
  layout_->addWidget(presentationHeader_);
  layout_->addStretch(1);
  setWidget(content_);

  outputFlush_.setSingleShot(true);
  outputFlush_.setInterval(kOutputFlushMs);
  connect(&outputFlush_, &QTimer::timeout, this, &NotebookView::flushPendingOutputs);

  connect(model_, &NotebookModel::modelReset, this, &NotebookView::rebuild);
  connect(model_, &NotebookModel::cellInserted, this, &NotebookView::onCellInserted);
  connect(model_, &NotebookModel::cellRemoved, this, &NotebookView::onCellRemoved);
  connect(model_, &NotebookModel::cellMoved, this, &NotebookView::onCellMoved);
  connect(model_, &NotebookModel::cellTypeChanged, this, &NotebookView::onCellTypeChanged);
  connect(model_, &NotebookModel::sourceChanged, this, &NotebookView::onSourceChanged);
  connect(model_, &NotebookModel::outputsChanged, this, [this](int index) {
    pendingOutputs_.insert(model_->cellId(index));
    if (!outputFlush_.isActive()) outputFlush_.start();
  });
  connect(model_, &NotebookModel::executionCountChanged, this, [this](int index) {
    if (auto* code = qobject_cast<CodeCellWidget*>(cellWidget(index))) code->setExecutionCount(model_->cell(index).executionCount);
  });
  rebuild();
}

CellWidget* NotebookView::cellWidget(int index) const {
  return index >= 0 && index < cellCount() ? cells_[static_cast<size_t>(index)] : nullptr;
}

CellWidget* NotebookView::cellWidget(const QString& cellId) const {
  for (CellWidget* cell : cells_)
    if (cell->cellId() == cellId) return cell;
  return nullptr;
}

CodeCellWidget* NotebookView::codeCell(const QString& cellId) const {
  return qobject_cast<CodeCellWidget*>(cellWidget(cellId));
}

QString NotebookView::selectedCellId() const {
  const CellWidget* cell = cellWidget(selected_);
  return cell ? cell->cellId() : QString();
}

CellWidget* NotebookView::createCellWidget(int index, bool markdownRendered) {
  const notebook::Cell& cell = model_->cell(index);
  CellWidget* widget = nullptr;
  switch (cell.type) {
    case notebook::CellType::Code: widget = new CodeCellWidget(cell, appearance_, content_); break;
    case notebook::CellType::Markdown:
      widget = new MarkdownCellWidget(cell, appearance_, baseDirectory_, markdownRendered, content_);
      break;
    case notebook::CellType::Raw: widget = new RawCellWidget(cell, appearance_, content_); break;
  }
  connect(widget, &CellWidget::sourceEdited, this, [this](const QString& cellId) {
    const int index = model_->indexOf(cellId);
    if (CellWidget* edited = cellWidget(index)) model_->setSource(index, edited->source());
  });
  connect(widget, &CellWidget::activated, this, &NotebookView::onCellActivated);
  if (auto* code = qobject_cast<CodeCellWidget*>(widget))
    connect(code, &CodeCellWidget::locationActivated, this, &NotebookView::goToLocation);
  return widget;
}

void NotebookView::insertCellWidget(int index, bool markdownRendered) {
  CellWidget* widget = createCellWidget(index, markdownRendered);
  cells_.insert(cells_.begin() + index, widget);
  layout_->insertWidget(kFirstCellLayoutIndex + index, widget);
  if (presentation_) widget->hide();
}

void NotebookView::rebuild() {
  // Hidden while refilling: one layout pass for the whole notebook instead of one per cell.
  content_->setUpdatesEnabled(false);
  for (CellWidget* cell : cells_) delete cell;
  cells_.clear();
  pendingOutputs_.clear();
  cells_.reserve(static_cast<size_t>(model_->cellCount()));
  for (int i = 0; i < model_->cellCount(); ++i) insertCellWidget(i, true);
  content_->setUpdatesEnabled(true);
  selected_ = -1;
  mode_ = Mode::Command;
  select(cellCount() > 0 ? 0 : -1);
  verticalScrollBar()->setValue(0);
}

void NotebookView::onCellInserted(int index) {
  insertCellWidget(index, true);
  if (selected_ >= index) ++selected_;
  if (selected_ < 0) selected_ = index;
  updateSelectionDecoration();
  updatePresentationVisibility();
}

void NotebookView::onCellRemoved(int index) {
  if (index < 0 || index >= cellCount()) return;
  CellWidget* removed = cells_[static_cast<size_t>(index)];
  cells_.erase(cells_.begin() + index);
  pendingOutputs_.remove(removed->cellId());
  const bool hadFocus = removed->isAncestorOf(QApplication::focusWidget());
  delete removed;
  if (hadFocus) setFocus();
  int next = selected_;
  if (selected_ > index || selected_ >= cellCount()) next = selected_ - 1;
  selected_ = -1;  // force select() to refresh decoration and tell listeners
  if (mode_ == Mode::Edit && hadFocus) setMode(Mode::Command);
  select(std::min(next, cellCount() - 1));
}

void NotebookView::onCellMoved(int from, int to) {
  CellWidget* moving = cells_[static_cast<size_t>(from)];
  cells_.erase(cells_.begin() + from);
  cells_.insert(cells_.begin() + to, moving);
  layout_->removeWidget(moving);
  layout_->insertWidget(kFirstCellLayoutIndex + to, moving);
  if (selected_ == from) selected_ = to;
  else if (from < selected_ && to >= selected_) --selected_;
  else if (from > selected_ && to <= selected_) ++selected_;
  updateSelectionDecoration();
  scrollToSelected();
}

void NotebookView::onCellTypeChanged(int index) {
  CellWidget* old = cells_[static_cast<size_t>(index)];
  const bool hadFocus = old->isAncestorOf(QApplication::focusWidget());
  // A cell just turned into markdown shows its source until it is run, as in Jupyter.
  CellWidget* fresh = createCellWidget(index, false);
  cells_[static_cast<size_t>(index)] = fresh;
  layout_->replaceWidget(old, fresh);
  delete old;
  if (hadFocus) setFocus();
  updateSelectionDecoration();
  updatePresentationVisibility();
}

void NotebookView::onSourceChanged(int index) {
  if (CellWidget* cell = cellWidget(index)) cell->setSourceFromModel(model_->source(index));
}

void NotebookView::flushPendingOutputs() {
  outputFlush_.stop();
  for (const QString& cellId : std::exchange(pendingOutputs_, {})) {
    const int index = model_->indexOf(cellId);
    if (auto* code = qobject_cast<CodeCellWidget*>(cellWidget(index))) code->setOutputs(model_->cell(index).outputs);
  }
}

void NotebookView::onCellActivated(const QString& cellId, bool forEditing) {
  select(model_->indexOf(cellId));
  if (forEditing) {
    setMode(Mode::Edit);
  } else {
    setMode(Mode::Command);
    setFocus(Qt::MouseFocusReason);
  }
}

void NotebookView::select(int index) {
  if (cellCount() == 0) index = -1;
  else index = std::clamp(index, 0, cellCount() - 1);
  if (index == selected_) return;
  selected_ = index;
  updateSelectionDecoration();
  updatePresentationVisibility();
  scrollToSelected();
  emit selectionChanged(selected_);
}

void NotebookView::enterEditMode() {
  CellWidget* cell = cellWidget(selected_);
  if (!cell) return;
  setMode(Mode::Edit);
  cell->enterEditMode();
}

void NotebookView::enterCommandMode() {
  setMode(Mode::Command);
  setFocus(Qt::OtherFocusReason);
}

void NotebookView::setMode(Mode mode) {
  if (mode_ == mode) return;
  mode_ = mode;
  updateSelectionDecoration();
  emit modeChanged(mode_);
}

void NotebookView::updateSelectionDecoration() {
  for (int i = 0; i < cellCount(); ++i) cells_[static_cast<size_t>(i)]->setSelected(i == selected_, mode_ == Mode::Edit);
}

void NotebookView::scrollToSelected() {
  // Deferred: a cell inserted just now has no geometry until the layout has run.
  QMetaObject::invokeMethod(
      this,
      [this] {
        CellWidget* cell = cellWidget(selected_);
        if (!cell) return;
        content_->layout()->activate();
        const int margin = 24;
        const int top = cell->y();
        const int bottom = top + cell->height();
        QScrollBar* bar = verticalScrollBar();
        const int viewHeight = viewport()->height();
        if (top - margin < bar->value()) bar->setValue(top - margin);
        else if (bottom + margin > bar->value() + viewHeight)
          bar->setValue(std::min(top - margin, bottom + margin - viewHeight));
      },
      Qt::QueuedConnection);
}

void NotebookView::setAppearance(const Appearance& appearance) {
  appearance_ = appearance;
  QPalette palette = content_->palette();
  palette.setColor(QPalette::Window, appearance.theme.window);
  content_->setPalette(palette);
  content_->setAutoFillBackground(true);
  QFont headerFont = appearance.markdownFont;
  headerFont.setPointSizeF(headerFont.pointSizeF() * 0.6);
  presentationHeader_->setFont(headerFont);
  for (CellWidget* cell : cells_) cell->setAppearance(appearance);
  scrollToSelected();
}

void NotebookView::setPresentationMode(bool on) {
  presentation_ = on;
  presentationHeader_->setVisible(on);
  updatePresentationVisibility();
  scrollToSelected();
}

void NotebookView::updatePresentationVisibility() {
  if (presentation_) {
    presentationHeader_->setText(tr("Cell %1 of %2   -   J / K or Up / Down: next / previous cell   -   "
                                    "Shift+Enter: run")
                                     .arg(selected_ + 1)
                                     .arg(cellCount()));
  }
  for (int i = 0; i < cellCount(); ++i) cells_[static_cast<size_t>(i)]->setVisible(!presentation_ || i == selected_);
}

void NotebookView::setBaseDirectory(const QString& directory) {
  baseDirectory_ = directory;
  for (CellWidget* cell : cells_)
    if (auto* markdown = qobject_cast<MarkdownCellWidget*>(cell)) markdown->setBaseDirectory(directory);
}

void NotebookView::setRunState(const QString& cellId, RunState state) {
  if (CodeCellWidget* code = codeCell(cellId)) code->setRunState(state);
}

void NotebookView::renderMarkdown(int index) {
  if (auto* markdown = qobject_cast<MarkdownCellWidget*>(cellWidget(index))) markdown->render();
}

bool NotebookView::goToLocation(const QString& fromCellId, const TracebackLink& link) {
  int index = -1;
  if (link.by == TracebackLink::CellBy::Position) {
    index = link.cell - 1;
  } else {
    const int from = model_->indexOf(fromCellId);
    if (from >= 0 && model_->cell(from).executionCount == link.cell) index = from;
    for (int i = 0; i < model_->cellCount() && index < 0; ++i)
      if (model_->cell(i).type == notebook::CellType::Code && model_->cell(i).executionCount == link.cell) index = i;
  }
  CellWidget* cell = cellWidget(index);
  if (!cell) return false;
  select(index);
  enterEditMode();
  CodeEditor* editor = cell->editor();
  const int line = std::clamp(link.line - 1, 0, std::max(0, editor->lines() - 1));
  const int column = std::clamp(link.column - 1, 0, std::max(0, editor->lineLength(line)));
  editor->setCursorPosition(line, column);
  editor->ensureCursorVisible();
  return true;
}

void NotebookView::showDiagnostic(const QString& cellId, int line, int column, const QString& message,
                                  DiagnosticSeverity severity) {
  if (CellWidget* cell = cellWidget(cellId)) cell->showDiagnostic(line, column, message, severity);
}

}  // namespace tilescope::ui
