#include "ui/CellWidget.h"

#include <QLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>

namespace tilescope::ui {
namespace {
// Jupyter sources rarely end in a newline; showing it would add an empty last line to every cell.
QString withoutTrailingNewline(QString text) {
  if (text.endsWith('\n')) text.chop(1);
  return text;
}
}  // namespace

CellWidget::CellWidget(QString cellId, QWidget* parent) : QFrame(parent), cellId_(std::move(cellId)) {
  setFrameShape(QFrame::NoFrame);
  setAutoFillBackground(false);
  setFocusPolicy(Qt::NoFocus);
}

void CellWidget::adoptEditor(CodeEditor* editor) {
  editor_ = editor;
  connect(editor_, &QsciScintilla::textChanged, this, [this] {
    if (!settingFromModel_) emit sourceEdited(cellId_);
  });
  connect(editor_, &CodeEditor::focusReceived, this, [this] { emit activated(cellId_, true); });
  connect(editor_, &CodeEditor::heightForContentsChanged, this, &CellWidget::fitEditorHeight);
}

void CellWidget::setSourceFromModel(const QString& source) {
  const QString shown = withoutTrailingNewline(source);
  if (editor_->text() == shown || editor_->text() == source) return;
  settingFromModel_ = true;
  editor_->setText(shown);
  settingFromModel_ = false;
}

void CellWidget::enterEditMode() {
  editor_->setVisible(true);
  editor_->setFocus(Qt::OtherFocusReason);
}

void CellWidget::setSelected(bool selected, bool editing) {
  if (selected_ == selected && editing_ == editing) return;
  selected_ = selected;
  editing_ = editing;
  update();
}

void CellWidget::setAppearance(const Appearance& appearance) {
  appearance_ = appearance;
  editor_->setAppearance(appearance);
  fitEditorHeight();
  update();
}

void CellWidget::showDiagnostic(int line, int column, const QString& message, DiagnosticSeverity severity) {
  editor_->showDiagnostic(line, column, message, severity);
}

void CellWidget::fitEditorHeight() {
  const int height = editor_->heightForContents();
  if (editor_->height() != height || editor_->minimumHeight() != height) editor_->setFixedHeight(height);
}

bool CellWidget::event(QEvent* event) {
  const bool handled = QFrame::event(event);
  // Something inside changed size: its layout has just run (layouts see the event first).
  if (event->type() == QEvent::LayoutRequest) fitHeightToWidth();
  return handled;
}

void CellWidget::resizeEvent(QResizeEvent* event) {
  QFrame::resizeEvent(event);
  if (event->size().width() != event->oldSize().width()) fitHeightToWidth();
}

void CellWidget::fitHeightToWidth() {
  QLayout* cellLayout = layout();
  if (!cellLayout) return;
  const int height = cellLayout->hasHeightForWidth() ? cellLayout->totalHeightForWidth(width())
                                                     : cellLayout->totalSizeHint().height();
  if (height > 0 && (minimumHeight() != height || maximumHeight() != height)) setFixedHeight(height);
}

void CellWidget::paintEvent(QPaintEvent* event) {
  QFrame::paintEvent(event);
  if (!selected_) return;
  QPainter painter(this);
  const Theme& t = appearance_.theme;
  painter.fillRect(rect().adjusted(kSelectionBarWidth, 0, 0, 0), t.selectedCellBackground);
  painter.fillRect(QRect(0, 0, kSelectionBarWidth, height()), editing_ ? t.editModeBar : t.commandModeBar);
}

void CellWidget::mousePressEvent(QMouseEvent* event) {
  emit activated(cellId_, false);
  QFrame::mousePressEvent(event);
}

}  // namespace tilescope::ui
