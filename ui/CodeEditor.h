#pragma once
// The QScintilla editor of code, markdown and raw cells: syntax colours, line numbers, indentation
// guides, brace matching, auto-indent, tl./triton./torch. completion and call tips, and error
// markers at an exact line and column. It grows with its text (the notebook scrolls, not the cell)
// and hands notebook keys (Shift/Ctrl/Alt+Enter, Esc, Up/Down at the edges) on to the notebook.
// While it has focus it keeps its caret visible in the scroll area around it (the notebook), and it
// never takes focus from the mouse wheel: scrolling over a cell must not select it.
#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QPair>
#include <QStringList>

#include "ui/Theme.h"

namespace tilescope::ui {

class CodeCompletion;

enum class DiagnosticSeverity { Error, Warning, Info };

class CodeEditor : public QsciScintilla {
  Q_OBJECT
public:
  enum class Language { Python, Markdown, PlainText };

  explicit CodeEditor(Language language, QWidget* parent = nullptr);

  void setAppearance(const Appearance& appearance);
  Language language() const { return language_; }

  // line and column are 1-based, as in tracebacks (column 0: the whole line). Underlines the word at
  // that spot, tints the line and shows the message under it. Removed by the next edit.
  void showDiagnostic(int line, int column, const QString& message, DiagnosticSeverity severity);
  void clearDiagnostics();
  int diagnosticCount() const { return diagnosticCount_; }
  // The messages of the diagnostics on a line (1-based), shown as a tooltip over that line.
  QStringList diagnosticMessages(int line) const;

  // Height that shows every line (wrapped lines and diagnostic annotations included).
  int heightForContents() const;
  // True while this editor has the keyboard focus of its window (the cell being edited).
  bool isTypedIn() const;

  // The completion list's timing and placement (Python only; null for markdown and raw text).
  CodeCompletion* completion() const { return completion_; }

public slots:
  // Call tips open only while the caret is on a screen (see CodeCompletion).
  void callTip() override;

signals:
  void heightForContentsChanged();
  void focusReceived();

protected:
  void keyPressEvent(QKeyEvent* event) override;
  void focusInEvent(QFocusEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  bool viewportEvent(QEvent* event) override;

private:
  void updateLineNumberMargin();
  // Scrolls the nearest enclosing QScrollArea so the caret's line shows, once the layout has caught up.
  void queueKeepCaretVisible();
  void keepCaretVisible();
  void defineDiagnosticStyles(const Theme& theme, const QFont& font);

  Language language_;
  QsciLexer* lexer_ = nullptr;
  int diagnosticCount_ = 0;
  QList<QPair<int, QString>> diagnosticMessages_;  // (0-based line, message) of every diagnostic shown
  int lastHeight_ = 0;
  CodeCompletion* completion_ = nullptr;
  bool caretFollowQueued_ = false;
  // One indicator, background marker and annotation style per severity (index = DiagnosticSeverity).
  int indicators_[3] = {0, 0, 0};
  int markers_[3] = {0, 0, 0};
  int annotationStyles_[3] = {0, 0, 0};
};

}  // namespace tilescope::ui
