#include "ui/RawCellWidget.h"

#include <QHBoxLayout>
#include <QLabel>

namespace tilescope::ui {

RawCellWidget::RawCellWidget(const notebook::Cell& cell, const Appearance& appearance, QWidget* parent)
    : CellWidget(QString::fromStdString(cell.id), parent) {
  setObjectName(QStringLiteral("rawCell"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(kSelectionBarWidth + 4, 4, 8, 4);
  auto* tag = new QLabel(tr("raw"), this);
  tag->setAlignment(Qt::AlignTop | Qt::AlignRight);
  tag->setToolTip(tr("A raw cell: its text is kept as it is and never run or rendered"));
  row->addWidget(tag);
  auto* editor = new CodeEditor(CodeEditor::Language::PlainText, this);
  adoptEditor(editor);
  setSourceFromModel(QString::fromStdString(cell.source));
  row->addWidget(editor, 1);
  setAppearance(appearance);
}

}  // namespace tilescope::ui
