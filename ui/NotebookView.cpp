#include "ui/NotebookView.h"

#include <QApplication>
#include <QLabel>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "ui/CellPlaceholder.h"
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
// Cells are built this far (in view heights) above and below the view, so scrolling finds them ready.
constexpr double kBuildAheadViews = 0.5;
// Before the view has its size, the first cells are built for a view this tall.
constexpr int kDefaultViewHeight = 900;
}  // namespace

int NotebookView::Slot::top() const { return cell ? cell->y() : placeholder->geometry().y(); }

int NotebookView::Slot::bottom() const {
  return cell ? cell->y() + cell->height() : placeholder->geometry().y() + placeholder->geometry().height();
}

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
  // After setWidget, which filters the content's events too (through the same eventFilter()).
  content_->installEventFilter(this);
  connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
    if (!adjustingScroll_) rememberScrollAnchor();
    scheduleLayoutFollowUp();
  });

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
    if (auto* code = qobject_cast<CodeCellWidget*>(builtCellWidget(index)))
      code->setExecutionCount(model_->cell(index).executionCount);
  });
  rebuild();
}

CellWidget* NotebookView::cellWidget(int index) const {
  if (index < 0 || index >= cellCount()) return nullptr;
  // Building a widget changes nothing a caller can see but the time it takes: logically const.
  return const_cast<NotebookView*>(this)->build(index);
}

CellWidget* NotebookView::cellWidget(const QString& cellId) const { return cellWidget(slotIndexOf(cellId)); }

CellWidget* NotebookView::builtCellWidget(int index) const {
  return index >= 0 && index < cellCount() ? slots_[static_cast<size_t>(index)].cell : nullptr;
}

CellWidget* NotebookView::builtCellWidget(const QString& cellId) const { return builtCellWidget(slotIndexOf(cellId)); }

int NotebookView::builtCellCount() const {
  return static_cast<int>(std::count_if(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.cell; }));
}

int NotebookView::slotIndexOf(const QString& cellId) const {
  // The model finds the index at once; while the view catches up with a model change, search.
  const int index = model_->indexOf(cellId);
  if (index >= 0 && index < cellCount() && slots_[static_cast<size_t>(index)].cellId == cellId) return index;
  for (size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].cellId == cellId) return static_cast<int>(i);
  return -1;
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
  if (auto* code = qobject_cast<CodeCellWidget*>(widget)) {
    connect(code, &CodeCellWidget::locationActivated, this, &NotebookView::goToLocation);
    connect(code, &CodeCellWidget::inspectorLinkActivated, this, [this](const QString& cellId, const InspectorLink& link) {
      // The inspector lists the selected cell's launches: the cell showing the link becomes it.
      const int index = model_->indexOf(cellId);
      if (index >= 0 && index != selected_) select(index);
      emit inspectorLinkActivated(cellId, link);
    });
  }
  return widget;
}

void NotebookView::insertSlot(int index, bool build, bool markdownRendered) {
  Slot slot{model_->cellId(index)};
  if (build) {
    slot.cell = createCellWidget(index, markdownRendered);
    layout_->insertWidget(kFirstCellLayoutIndex + index, slot.cell);
    // Shown now, not from the event loop as layouts do: the layout gives hidden widgets no place,
    // and building and anchoring go by the places.
    slot.cell->setVisible(!presentation_);
  } else {
    slot.placeholder = new CellPlaceholder(model_->cell(index), appearance_);
    slot.placeholder->setShown(!presentation_);
    layout_->insertItem(kFirstCellLayoutIndex + index, slot.placeholder);
  }
  slots_.insert(slots_.begin() + index, slot);
}

void NotebookView::removeSlotFromLayout(const Slot& slot) {
  if (slot.cell) {
    delete slot.cell;  // leaves the layout by itself
  } else {
    layout_->removeItem(slot.placeholder);
    delete slot.placeholder;
  }
}

CellWidget* NotebookView::build(int index) {
  Slot& slot = slots_[static_cast<size_t>(index)];
  if (slot.cell) return slot.cell;
  // Placeholders only stand in for cells as they were loaded, so a markdown cell shows rendered.
  slot.cell = createCellWidget(index, true);
  layout_->removeItem(slot.placeholder);
  delete std::exchange(slot.placeholder, nullptr);
  layout_->insertWidget(kFirstCellLayoutIndex + index, slot.cell);
  applyViewStateTo(index);
  return slot.cell;
}

void NotebookView::applyViewStateTo(int index) {
  CellWidget* cell = slots_[static_cast<size_t>(index)].cell;
  cell->setSelected(index == selected_, mode_ == Mode::Edit);
  if (auto* code = qobject_cast<CodeCellWidget*>(cell))
    if (const auto state = runStates_.constFind(cell->cellId()); state != runStates_.constEnd()) code->setRunState(*state);
  cell->setVisible(!presentation_ || index == selected_);  // now: see insertSlot()
}

void NotebookView::buildTopCells() {
  // What the first paint shows is built at once, so opening never flashes empty placeholders.
  const int viewHeight = isVisible() ? viewport()->height() : kDefaultViewHeight;
  int top = 0;
  for (int i = 0; i < cellCount() && top < viewHeight * (1 + kBuildAheadViews); ++i) {
    const Slot& slot = slots_[static_cast<size_t>(i)];
    top += (slot.cell ? slot.cell->height() : slot.placeholder->sizeHint().height()) + layout_->spacing();
    build(i);
  }
}

void NotebookView::buildCellsInView() {
  if (presentation_ || !isVisible()) return;
  const int viewHeight = viewport()->height();
  const int from = verticalScrollBar()->value() - static_cast<int>(viewHeight * kBuildAheadViews);
  const int to = verticalScrollBar()->value() + viewHeight + static_cast<int>(viewHeight * kBuildAheadViews);
  // Cells lie top to bottom in model order: find the first one reaching into the range.
  const auto first =
      std::partition_point(slots_.begin(), slots_.end(), [from](const Slot& slot) { return slot.bottom() <= from; });
  for (auto it = first; it != slots_.end() && it->top() < to; ++it)
    if (!it->cell) build(static_cast<int>(it - slots_.begin()));
}

void NotebookView::rebuild() {
  // Hidden while refilling: one layout pass for the whole notebook instead of one per cell.
  content_->setUpdatesEnabled(false);
  // From the end, so that each placeholder is the layout's last cell item: no search per cell.
  for (int i = cellCount() - 1; i >= 0; --i) {
    const Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.cell) delete slot.cell;
    else delete layout_->takeAt(kFirstCellLayoutIndex + i);
  }
  slots_.clear();
  pendingOutputs_.clear();
  runStates_.clear();
  anchorId_.clear();
  slots_.reserve(static_cast<size_t>(model_->cellCount()));
  for (int i = 0; i < model_->cellCount(); ++i) insertSlot(i, false, true);
  buildTopCells();
  content_->setUpdatesEnabled(true);
  selected_ = -1;
  mode_ = Mode::Command;
  select(cellCount() > 0 ? 0 : -1);
  verticalScrollBar()->setValue(0);
  scheduleLayoutFollowUp();
}

void NotebookView::onCellInserted(int index) {
  insertSlot(index, true, true);
  if (selected_ >= index) ++selected_;
  if (selected_ < 0) selected_ = index;
  updateSelectionDecoration();
  updatePresentationVisibility();
}

void NotebookView::onCellRemoved(int index) {
  if (index < 0 || index >= cellCount()) return;
  const Slot removed = slots_[static_cast<size_t>(index)];
  slots_.erase(slots_.begin() + index);
  pendingOutputs_.remove(removed.cellId);
  runStates_.remove(removed.cellId);
  // The cell that moves up into its place takes over as the anchor.
  if (anchorId_ == removed.cellId) anchorId_ = index < cellCount() ? slots_[static_cast<size_t>(index)].cellId : QString();
  const bool hadFocus = removed.cell && removed.cell->isAncestorOf(QApplication::focusWidget());
  removeSlotFromLayout(removed);
  if (hadFocus) setFocus();
  int next = selected_;
  if (selected_ > index || selected_ >= cellCount()) next = selected_ - 1;
  selected_ = -1;  // force select() to refresh decoration and tell listeners
  if (mode_ == Mode::Edit && hadFocus) setMode(Mode::Command);
  select(std::min(next, cellCount() - 1));
}

void NotebookView::onCellMoved(int from, int to) {
  const Slot moving = slots_[static_cast<size_t>(from)];
  slots_.erase(slots_.begin() + from);
  slots_.insert(slots_.begin() + to, moving);
  if (moving.cell) {
    layout_->removeWidget(moving.cell);
    layout_->insertWidget(kFirstCellLayoutIndex + to, moving.cell);
  } else {
    layout_->removeItem(moving.placeholder);
    layout_->insertItem(kFirstCellLayoutIndex + to, moving.placeholder);
  }
  if (selected_ == from) selected_ = to;
  else if (from < selected_ && to >= selected_) --selected_;
  else if (from > selected_ && to <= selected_) ++selected_;
  updateSelectionDecoration();
  scrollToSelected();
}

void NotebookView::onCellTypeChanged(int index) {
  build(index);
  Slot& slot = slots_[static_cast<size_t>(index)];
  CellWidget* old = slot.cell;
  const bool hadFocus = old->isAncestorOf(QApplication::focusWidget());
  // A cell just turned into markdown shows its source until it is run, as in Jupyter.
  slot.cell = createCellWidget(index, false);
  layout_->replaceWidget(old, slot.cell);
  delete old;
  if (hadFocus) setFocus();
  applyViewStateTo(index);
  updateSelectionDecoration();
  updatePresentationVisibility();
}

void NotebookView::onSourceChanged(int index) {
  if (CellWidget* cell = builtCellWidget(index)) cell->setSourceFromModel(model_->source(index));
}

void NotebookView::flushPendingOutputs() {
  outputFlush_.stop();
  // A cell not built yet shows the model's outputs when it is.
  for (const QString& cellId : std::exchange(pendingOutputs_, {})) {
    const int index = slotIndexOf(cellId);
    if (auto* code = qobject_cast<CodeCellWidget*>(builtCellWidget(index))) code->setOutputs(model_->cell(index).outputs);
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
  if (selected_ >= 0) build(selected_);
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
  for (int i = 0; i < cellCount(); ++i)
    if (CellWidget* cell = slots_[static_cast<size_t>(i)].cell) cell->setSelected(i == selected_, mode_ == Mode::Edit);
}

void NotebookView::scrollToSelected() {
  // Deferred: a cell inserted just now has no geometry until the layout has run.
  QMetaObject::invokeMethod(
      this,
      [this] {
        CellWidget* cell = cellWidget(selected_);
        if (!cell) return;
        // The scroll range must already include cells that grew, or the position would be cut short.
        settleLayout();
        const int margin = 24;
        const int top = cell->y();
        const int bottom = top + cell->height();
        QScrollBar* bar = verticalScrollBar();
        const int viewHeight = viewport()->height();
        if (top - margin < bar->value()) bar->setValue(top - margin);
        else if (bottom + margin > bar->value() + viewHeight)
          bar->setValue(std::min(top - margin, bottom + margin - viewHeight));
        // The selected cell is the one to keep in view while cells above it (or between it and the
        // top of the view) are built, wrap or get outputs.
        if (!presentation_) {
          anchorId_ = cell->cellId();
          anchorOffset_ = bar->value() - top;
        }
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
  for (int i = 0; i < cellCount(); ++i) {
    const Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.cell) slot.cell->setAppearance(appearance);
    else slot.placeholder->reestimate(model_->cell(i), appearance);
  }
  layout_->invalidate();
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
  // Outside presentation mode every cell is visible already: nothing to walk through.
  if (!presentation_ && !othersHidden_) return;
  for (int i = 0; i < cellCount(); ++i) {
    const Slot& slot = slots_[static_cast<size_t>(i)];
    if (slot.cell) slot.cell->setVisible(!presentation_ || i == selected_);
    else slot.placeholder->setShown(!presentation_ || i == selected_);
  }
  layout_->invalidate();  // placeholders are no widgets: nothing else tells the layout
  othersHidden_ = presentation_;
}

void NotebookView::setBaseDirectory(const QString& directory) {
  baseDirectory_ = directory;
  for (const Slot& slot : slots_)
    if (auto* markdown = qobject_cast<MarkdownCellWidget*>(slot.cell)) markdown->setBaseDirectory(directory);
}

void NotebookView::setRunState(const QString& cellId, RunState state) {
  if (state == RunState::Idle) runStates_.remove(cellId);
  else runStates_.insert(cellId, state);
  if (auto* code = qobject_cast<CodeCellWidget*>(builtCellWidget(slotIndexOf(cellId)))) code->setRunState(state);
}

void NotebookView::renderMarkdown(int index) {
  // A markdown cell not built yet shows rendered when it is.
  if (auto* markdown = qobject_cast<MarkdownCellWidget*>(builtCellWidget(index))) markdown->render();
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

// ---- scroll anchoring and building cells as they come into view ----

bool NotebookView::eventFilter(QObject* watched, QEvent* event) {
  // The content has been laid out anew (a cell grew, shrank, was built): follow up once the events
  // of this change are through.
  if (watched == content_ && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest))
    scheduleLayoutFollowUp();
  return QScrollArea::eventFilter(watched, event);
}

void NotebookView::showEvent(QShowEvent* event) {
  QScrollArea::showEvent(event);
  scheduleLayoutFollowUp();
}

void NotebookView::resizeEvent(QResizeEvent* event) {
  QScrollArea::resizeEvent(event);
  scheduleLayoutFollowUp();
}

void NotebookView::scheduleLayoutFollowUp() {
  if (followUpPending_ || adjustingScroll_) return;
  followUpPending_ = true;
  QMetaObject::invokeMethod(this, &NotebookView::followLayout, Qt::QueuedConnection);
}

void NotebookView::followLayout() {
  followUpPending_ = false;
  if (!isVisible()) return;
  settleLayout();
  restoreScrollAnchor();
  buildCellsInView();
}

void NotebookView::settleLayout() {
  QScopedValueRollback guard(adjustingScroll_, true);
  content_->layout()->activate();
  // QScrollArea sizes its content and scroll range when this event comes; send it now.
  QEvent request(QEvent::LayoutRequest);
  QCoreApplication::sendEvent(this, &request);
}

void NotebookView::rememberScrollAnchor() {
  anchorId_.clear();
  // At the very top the view stays at the top, whatever grows (as in browsers).
  const int top = verticalScrollBar()->value();
  if (presentation_ || top <= 0) return;
  const auto anchor =
      std::partition_point(slots_.begin(), slots_.end(), [top](const Slot& slot) { return slot.bottom() <= top; });
  if (anchor == slots_.end()) return;
  anchorId_ = anchor->cellId;
  anchorOffset_ = top - anchor->top();
}

void NotebookView::restoreScrollAnchor() {
  if (anchorId_.isEmpty() || presentation_) return;
  const int index = slotIndexOf(anchorId_);
  if (index < 0) return rememberScrollAnchor();
  // Set even when the range cuts it short for now: the next layout change comes back here.
  const int target = slots_[static_cast<size_t>(index)].top() + anchorOffset_;
  if (verticalScrollBar()->value() == target) return;
  QScopedValueRollback guard(adjustingScroll_, true);
  verticalScrollBar()->setValue(target);
}

}  // namespace tilescope::ui
