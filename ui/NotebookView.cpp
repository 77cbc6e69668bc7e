#include "ui/NotebookView.h"

#include <QVBoxLayout>

#include "ui/CodeCellWidget.h"
#include "ui/MarkdownCellWidget.h"

namespace tilescope::ui {

NotebookView::NotebookView(QWidget* parent) : QScrollArea(parent) {
  setObjectName("notebookView");
  setWidgetResizable(true);
  content_ = new QWidget(this);
  cells_ = new QVBoxLayout(content_);
  cells_->setSpacing(6);
  cells_->addStretch(1);
  setWidget(content_);
}

void NotebookView::setNotebook(const notebook::Notebook& nb) {
  while (cells_->count() > 1) {
    QLayoutItem* item = cells_->takeAt(0);
    delete item->widget();
    delete item;
  }
  int position = 0;
  for (const notebook::Cell& cell : nb.cells) {
    QWidget* w = cell.type == notebook::CellType::Code ? static_cast<QWidget*>(new CodeCellWidget(cell, content_))
                                                       : static_cast<QWidget*>(new MarkdownCellWidget(cell, content_));
    cells_->insertWidget(position++, w);
  }
}

int NotebookView::cellCount() const { return cells_->count() - 1; }

QWidget* NotebookView::cellWidget(int index) const {
  if (index < 0 || index >= cellCount()) return nullptr;
  return cells_->itemAt(index)->widget();
}

}  // namespace tilescope::ui
