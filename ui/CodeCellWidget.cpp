#include "ui/CodeCellWidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/OutputArea.h"

namespace tilescope::ui {

CodeCellWidget::CodeCellWidget(const notebook::Cell& cell, const Appearance& appearance, QWidget* parent)
    : CellWidget(QString::fromStdString(cell.id), parent), executionCount_(cell.executionCount) {
  setObjectName(QStringLiteral("codeCell"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(kSelectionBarWidth + 4, 4, 8, 4);
  row->setSpacing(6);
  prompt_ = new QLabel(this);
  prompt_->setAlignment(Qt::AlignTop | Qt::AlignRight);
  prompt_->setObjectName(QStringLiteral("prompt"));
  row->addWidget(prompt_, 0, Qt::AlignTop);  // it has a fixed size: keep it by the first line

  auto* column = new QVBoxLayout;
  column->setSpacing(4);
  auto* editor = new CodeEditor(CodeEditor::Language::Python, this);
  adoptEditor(editor);
  setSourceFromModel(QString::fromStdString(cell.source));
  column->addWidget(editor);
  outputs_ = new OutputArea(this);
  connect(outputs_, &OutputArea::locationActivated, this,
          [this](const TracebackLink& link) { emit locationActivated(cellId(), link); });
  connect(outputs_, &OutputArea::inspectorLinkActivated, this,
          [this](const InspectorLink& link) { emit inspectorLinkActivated(cellId(), link); });
  column->addWidget(outputs_);
  row->addLayout(column, 1);

  setAppearance(appearance);
  outputs_->setOutputs(cell.outputs);
  updatePrompt();
}

void CodeCellWidget::setOutputs(const nlohmann::json& outputs) { outputs_->setOutputs(outputs); }

void CodeCellWidget::setExecutionCount(int count) {
  executionCount_ = count;
  updatePrompt();
}

void CodeCellWidget::setRunState(RunState state) {
  runState_ = state;
  updatePrompt();
}

QString CodeCellWidget::promptText() const { return prompt_->text(); }

void CodeCellWidget::updatePrompt() {
  if (runState_ != RunState::Idle) prompt_->setText(QStringLiteral("[*]:"));
  else if (executionCount_ > 0) prompt_->setText(QStringLiteral("[%1]:").arg(executionCount_));
  else prompt_->setText(QStringLiteral("[ ]:"));
  prompt_->setToolTip(runState_ == RunState::Queued    ? tr("Waiting for the cells before it")
                      : runState_ == RunState::Running ? tr("Running")
                                                       : QString());
}

void CodeCellWidget::setAppearance(const Appearance& appearance) {
  CellWidget::setAppearance(appearance);
  QFont promptFont = appearance.editorFont;
  prompt_->setFont(promptFont);
  QPalette palette = prompt_->palette();
  palette.setColor(QPalette::WindowText, appearance.theme.promptIn);
  prompt_->setPalette(palette);
  // Wide enough for "[999]:" so editors line up whatever their count. A fixed size also keeps a new
  // prompt text from re-laying out the whole notebook (Qt skips that for widgets of fixed size): a
  // long Run all changes every prompt twice.
  const QFontMetrics metrics(promptFont);
  prompt_->setFixedSize(metrics.horizontalAdvance(QStringLiteral("[999]:")) + 4, metrics.height() + 2);
  outputs_->setAppearance(appearance);
}

}  // namespace tilescope::ui
