#pragma once
// One read-only text pane of the Compiled tab (source, IR, CUDA, PTX, SASS): line numbers in a
// gutter of the text itself, linked lines highlighted, and the line under the mouse or clicked
// reported, so the tab can highlight what that line became (or came from) in the other panes.
#include <QList>
#include <QPlainTextEdit>

namespace tilescope::ui {

class CodePane : public QPlainTextEdit {
  Q_OBJECT
public:
  explicit CodePane(QWidget* parent = nullptr);

  // The text, its lines numbered from `firstNumber` (the source pane shows the file's line numbers).
  void setCode(const QString& text, int firstNumber = 1);
  // Highlights these 1-based lines and scrolls the first into view (unless `scroll` is false).
  void highlightLines(const QList<int>& lines, bool scroll = true);
  const QList<int>& highlightedLines() const { return highlighted_; }
  // The 1-based line at a viewport position.
  int lineAt(const QPoint& viewportPos) const;

signals:
  void lineHovered(int line);
  void lineClicked(int line);

protected:
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

private:
  QList<int> highlighted_;
  int hovered_ = 0;
};

}  // namespace tilescope::ui
