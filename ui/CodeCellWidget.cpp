#include "ui/CodeCellWidget.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tilescope::ui {
namespace {
// Text of the stream and plain-text outputs saved in the notebook, so reopened notebooks show them.
QString outputsText(const nlohmann::json& outputs) {
  QString text;
  auto append = [&text](const nlohmann::json& v) {
    if (v.is_string()) text += QString::fromStdString(v.get<std::string>());
    else if (v.is_array())
      for (const auto& line : v)
        if (line.is_string()) text += QString::fromStdString(line.get<std::string>());
  };
  for (const auto& out : outputs) {
    const std::string type = out.value("output_type", "");
    if (type == "stream") append(out.value("text", nlohmann::json()));
    else if ((type == "execute_result" || type == "display_data") && out.contains("data") &&
             out["data"].contains("text/plain"))
      append(out["data"]["text/plain"]);
    else if (type == "error")
      text += QString::fromStdString(out.value("ename", "Error") + ": " + out.value("evalue", "")) + "\n";
  }
  return text.trimmed();
}
}  // namespace

CodeCellWidget::CodeCellWidget(const notebook::Cell& cell, QWidget* parent) : QFrame(parent) {
  setObjectName("codeCell");
  setFrameShape(QFrame::StyledPanel);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 4, 4, 4);
  prompt_ = new QLabel(cell.executionCount > 0 ? QString("[%1]:").arg(cell.executionCount) : QString("[ ]:"), this);
  prompt_->setAlignment(Qt::AlignTop | Qt::AlignRight);
  prompt_->setMinimumWidth(48);
  row->addWidget(prompt_);

  auto* column = new QVBoxLayout;
  editor_ = new QsciScintilla(this);
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  auto* lexer = new QsciLexerPython(editor_);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);
  editor_->setLexer(lexer);
  editor_->setUtf8(true);
  editor_->setMarginType(0, QsciScintilla::NumberMargin);
  editor_->setMarginWidth(0, "0000");
  editor_->setIndentationGuides(true);
  editor_->setAutoIndent(true);
  editor_->setIndentationsUseTabs(false);
  editor_->setIndentationWidth(4);
  editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
  // Scintilla reserves a fixed scroll width by default; track the real line width instead so the
  // horizontal bar only appears for long lines.
  editor_->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTH, 1);
  editor_->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTHTRACKING, 1);
  editor_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  QString text = QString::fromStdString(cell.source);
  if (text.endsWith('\n')) text.chop(1);  // Jupyter sources rarely end in a newline; don't show an empty line
  editor_->setText(text);
  column->addWidget(editor_);

  outputs_ = new QLabel(outputsText(cell.outputs), this);
  outputs_->setFont(mono);
  outputs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  outputs_->setVisible(!outputs_->text().isEmpty());
  column->addWidget(outputs_);
  row->addLayout(column, 1);

  connect(editor_, &QsciScintilla::linesChanged, this, &CodeCellWidget::fitHeightToText);
  fitHeightToText();
}

QString CodeCellWidget::source() const { return editor_->text(); }

void CodeCellWidget::fitHeightToText() {
  // Cells grow with their text like Jupyter's; the notebook scrolls, not the cell.
  const int lines = std::max(1, editor_->lines());
  const int lineHeight = editor_->textHeight(0) > 0 ? editor_->textHeight(0) : fontMetrics().height();
  editor_->setFixedHeight(lines * lineHeight + 12);
}

}  // namespace tilescope::ui
