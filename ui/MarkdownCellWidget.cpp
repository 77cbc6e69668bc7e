#include "ui/MarkdownCellWidget.h"

#include <QResizeEvent>

namespace tilescope::ui {

MarkdownCellWidget::MarkdownCellWidget(const notebook::Cell& cell, QWidget* parent)
    : QTextBrowser(parent), source_(QString::fromStdString(cell.source)) {
  setObjectName("markdownCell");
  setOpenExternalLinks(true);
  setFrameShape(QFrame::NoFrame);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setMarkdown(source_);
  fitHeightToDocument();
}

void MarkdownCellWidget::resizeEvent(QResizeEvent* event) {
  QTextBrowser::resizeEvent(event);
  fitHeightToDocument();
}

void MarkdownCellWidget::fitHeightToDocument() {
  document()->setTextWidth(viewport()->width());
  const int height = static_cast<int>(document()->size().height()) + 8;
  if (height != this->height()) setFixedHeight(height);
}

}  // namespace tilescope::ui
