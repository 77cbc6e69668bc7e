#include "ui/compiled/CodePane.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QTextBlock>

namespace tilescope::ui {

CodePane::CodePane(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setMouseTracking(true);
  viewport()->setMouseTracking(true);
  // Selecting text is still possible; a click also picks the line.
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void CodePane::setCode(const QString& text, int firstNumber) {
  QStringList lines = text.split(QLatin1Char('\n'));
  if (!lines.isEmpty() && lines.back().isEmpty()) lines.pop_back();
  const int width = static_cast<int>(QString::number(firstNumber + lines.size()).size());
  for (int i = 0; i < lines.size(); ++i)
    lines[i] = QStringLiteral("%1  %2").arg(firstNumber + i, width).arg(lines[i]);
  setPlainText(lines.join(QLatin1Char('\n')));
  highlighted_.clear();
  hovered_ = 0;
}

void CodePane::highlightLines(const QList<int>& lines, bool scroll) {
  highlighted_ = lines;
  QList<QTextEdit::ExtraSelection> selections;
  // The notebook's source-line marker colour, half transparent so dark themes keep their text readable.
  const QColor color(255, 200, 120, 150);
  for (int line : lines) {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(block);
    s.format.setBackground(color);
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    selections << s;
  }
  setExtraSelections(selections);
  if (scroll && !lines.isEmpty()) {
    const QTextBlock block = document()->findBlockByNumber(lines.front() - 1);
    if (block.isValid()) {
      QTextCursor c(block);
      setTextCursor(c);
      centerCursor();
    }
  }
}

int CodePane::lineAt(const QPoint& viewportPos) const { return cursorForPosition(viewportPos).blockNumber() + 1; }

void CodePane::mouseMoveEvent(QMouseEvent* event) {
  QPlainTextEdit::mouseMoveEvent(event);
  const int line = lineAt(event->position().toPoint());
  if (line != hovered_) {
    hovered_ = line;
    emit lineHovered(line);
  }
}

void CodePane::mousePressEvent(QMouseEvent* event) {
  QPlainTextEdit::mousePressEvent(event);
  if (event->button() == Qt::LeftButton) emit lineClicked(lineAt(event->position().toPoint()));
}

}  // namespace tilescope::ui
