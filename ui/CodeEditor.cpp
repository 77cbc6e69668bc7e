#include "ui/CodeEditor.h"

#include <Qsci/qscilexermarkdown.h>
#include <Qsci/qscilexerpython.h>

#include <QHelpEvent>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QTimer>
#include <algorithm>

#include "ui/CodeCompletion.h"
#include "ui/TritonApis.h"

namespace tilescope::ui {
namespace {
constexpr int kSeverityCount = 3;
constexpr int kTextLeftGapPx = 8;
// Room kept between the caret's line and the edge of the notebook's viewport while typing.
constexpr int kCaretMarginPx = 24;

void colourPythonLexer(QsciLexerPython& lexer, const Theme& t) {
  using L = QsciLexerPython;
  lexer.setColor(t.comment, L::Comment);
  lexer.setColor(t.comment, L::CommentBlock);
  lexer.setColor(t.number, L::Number);
  for (int style : {L::DoubleQuotedString, L::SingleQuotedString, L::TripleSingleQuotedString,
                    L::TripleDoubleQuotedString, L::DoubleQuotedFString, L::SingleQuotedFString,
                    L::TripleSingleQuotedFString, L::TripleDoubleQuotedFString, L::UnclosedString})
    lexer.setColor(t.string, style);
  lexer.setColor(t.keyword, L::Keyword);
  lexer.setColor(t.definition, L::ClassName);
  lexer.setColor(t.definition, L::FunctionMethodName);
  lexer.setColor(t.operatorColor, L::Operator);
  lexer.setColor(t.decorator, L::Decorator);
  lexer.setColor(t.keyword, L::HighlightedIdentifier);
  // No warnings about tabs vs spaces: the cell's own indentation rules apply.
  lexer.setIndentationWarning(QsciLexerPython::NoWarning);
}

void colourMarkdownLexer(QsciLexerMarkdown& lexer, const Theme& t) {
  using L = QsciLexerMarkdown;
  for (int style : {L::Header1, L::Header2, L::Header3, L::Header4, L::Header5, L::Header6})
    lexer.setColor(t.definition, style);
  for (int style : {L::CodeBackticks, L::CodeDoubleBackticks, L::CodeBlock}) lexer.setColor(t.string, style);
  lexer.setColor(t.link, L::Link);
  lexer.setColor(t.keyword, L::UnorderedListItem);
  lexer.setColor(t.keyword, L::OrderedListItem);
  lexer.setColor(t.comment, L::BlockQuote);
  lexer.setColor(t.decorator, L::StrongEmphasisAsterisks);
  lexer.setColor(t.decorator, L::StrongEmphasisUnderscores);
  lexer.setColor(t.decorator, L::EmphasisAsterisks);
  lexer.setColor(t.decorator, L::EmphasisUnderscores);
}
}  // namespace

CodeEditor::CodeEditor(Language language, QWidget* parent) : QsciScintilla(parent), language_(language) {
  setObjectName(QStringLiteral("cellEditor"));
  // QScintilla asks for WheelFocus: a wheel turned over a cell would put it into edit mode.
  setFocusPolicy(Qt::StrongFocus);
  setUtf8(true);
  setFrameShape(QFrame::NoFrame);
  if (language == Language::Python) {
    auto* python = new QsciLexerPython(this);
    python->setAPIs(TritonApis::shared());
    // Not AiMaintain (the lexer's default, which only copies the previous line's indentation): indent
    // one level after a line ending in the block start ":", as Python editors do.
    python->setAutoIndentStyle(0);
    lexer_ = python;
  } else if (language == Language::Markdown) {
    lexer_ = new QsciLexerMarkdown(this);
  }
  if (lexer_) setLexer(lexer_);

  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginWidth(1, 0);  // no fold/symbol margin: diagnostics tint the line instead
  // A gap between the line numbers and the code, so "1import" reads as "1  import".
  SendScintilla(SCI_SETMARGINLEFT, 0, kTextLeftGapPx);
  setIndentationsUseTabs(false);
  setIndentationWidth(4);
  setTabWidth(4);
  setAutoIndent(true);
  setBackspaceUnindents(true);
  setIndentationGuides(language == Language::Python);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  // Long lines wrap rather than scroll: the cell is as tall as its text and has no scroll bars.
  setWrapMode(QsciScintilla::WrapWord);
  setWrapIndentMode(QsciScintilla::WrapIndentSame);
  setWrapVisualFlags(QsciScintilla::WrapFlagByBorder);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setAnnotationDisplay(QsciScintilla::AnnotationBoxed);

  // QScintilla's own triggers stay off (no source): CodeCompletion opens the list, on Tab or a pause.
  setAutoCompletionSource(QsciScintilla::AcsNone);
  if (language == Language::Python) {
    completion_ = new CodeCompletion(this);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(true);
    setCallTipsStyle(QsciScintilla::CallTipsContext);
    setCallTipsVisible(0);
    setCallTipsPosition(QsciScintilla::CallTipsBelowText);
  }

  for (int s = 0; s < kSeverityCount; ++s) {
    indicators_[s] = indicatorDefine(s == 0 ? QsciScintilla::SquiggleIndicator : QsciScintilla::DotsIndicator);
    markers_[s] = markerDefine(QsciScintilla::Background);
    annotationStyles_[s] = 100 + s;  // above every lexer style; only used for annotations
  }
  setAppearance(Appearance{});

  connect(this, &QsciScintilla::textChanged, this, [this] {
    // The marked code has changed, so the message may no longer be true.
    if (diagnosticCount_ > 0) clearDiagnostics();
  });
  // Scintilla wraps long lines while painting, for the width it has then: only after a paint is the
  // number of display lines (and with it the height the cell needs) known for sure.
  connect(this, &QsciScintillaBase::SCN_PAINTED, this, [this] {
    const int height = heightForContents();
    if (height != lastHeight_) {
      lastHeight_ = height;
      emit heightForContentsChanged();
    }
  });
  connect(this, &QsciScintilla::linesChanged, this, [this] {
    updateLineNumberMargin();
    emit heightForContentsChanged();
  });
  connect(this, &QsciScintilla::cursorPositionChanged, this, &CodeEditor::queueKeepCaretVisible);
  updateLineNumberMargin();
}

bool CodeEditor::isTypedIn() const {
  // Not hasFocus(): that also needs an active window, which a window without a window manager
  // (Xvfb, kiosks) never becomes although its keys arrive.
  return window()->focusWidget() == this;
}

void CodeEditor::callTip() {
  if (!completion_ || completion_->caretOnScreen()) QsciScintilla::callTip();
}

void CodeEditor::queueKeepCaretVisible() {
  // Only the editor being typed in moves the notebook; text set by the model must not.
  if (!isTypedIn() || caretFollowQueued_) return;
  caretFollowQueued_ = true;
  // Queued: the line just added makes the editor (and the notebook) taller only once laid out.
  QTimer::singleShot(0, this, [this] {
    caretFollowQueued_ = false;
    keepCaretVisible();
  });
}

void CodeEditor::keepCaretVisible() {
  QScrollArea* area = nullptr;
  for (QWidget* w = parentWidget(); w && !area; w = w->parentWidget()) area = qobject_cast<QScrollArea*>(w);
  if (!area || !area->widget() || !isTypedIn()) return;
  // Lay out from this editor's cell up to the notebook's content, then let the scroll area take the
  // new content height, so the caret's position and the scroll range are both current.
  for (QWidget* w = parentWidget(); w && w != area->viewport(); w = w->parentWidget())
    if (w->layout()) w->layout()->activate();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  const long pos = SendScintilla(SCI_GETCURRENTPOS);
  const QPoint caret(static_cast<int>(SendScintilla(SCI_POINTXFROMPOSITION, 0UL, pos)),
                     static_cast<int>(SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos)));
  const QPoint inContent = viewport()->mapTo(area->widget(), caret);
  const int lineHeight = std::max(1, textHeight(0));
  area->ensureVisible(inContent.x(), inContent.y() + lineHeight / 2, 0, lineHeight / 2 + kCaretMarginPx);
}

void CodeEditor::setAppearance(const Appearance& appearance) {
  const Theme& t = appearance.theme;
  const QFont& font = appearance.editorFont;
  if (lexer_) {
    lexer_->setDefaultFont(font);
    lexer_->setFont(font, -1);
    lexer_->setDefaultPaper(t.editorPaper);
    lexer_->setPaper(t.editorPaper, -1);
    lexer_->setDefaultColor(t.editorText);
    lexer_->setColor(t.editorText, -1);
    if (auto* python = qobject_cast<QsciLexerPython*>(lexer_)) colourPythonLexer(*python, t);
    if (auto* markdown = qobject_cast<QsciLexerMarkdown*>(lexer_)) colourMarkdownLexer(*markdown, t);
  } else {
    setFont(font);
    setPaper(t.editorPaper);
    setColor(t.editorText);
  }
  setMarginsFont(font);
  setMarginsBackgroundColor(t.marginPaper);
  setMarginsForegroundColor(t.marginText);
  setCaretForegroundColor(t.caret);
  setCaretLineVisible(false);
  setSelectionBackgroundColor(t.selection);
  setSelectionForegroundColor(t.editorText);
  setIndentationGuidesForegroundColor(t.indentGuide);
  setIndentationGuidesBackgroundColor(t.editorPaper);
  setMatchedBraceBackgroundColor(t.braceMatch);
  setMatchedBraceForegroundColor(t.editorText);
  setUnmatchedBraceForegroundColor(t.errorText);
  setWrapVisualFlags(QsciScintilla::WrapFlagByBorder);
  defineDiagnosticStyles(t, font);
  updateLineNumberMargin();
  emit heightForContentsChanged();
}

void CodeEditor::defineDiagnosticStyles(const Theme& t, const QFont& font) {
  const QColor text[kSeverityCount] = {t.errorText, t.warningText, t.editorText};
  const QColor paper[kSeverityCount] = {t.errorBackground, t.warningBackground, t.infoBackground};
  for (int s = 0; s < kSeverityCount; ++s) {
    setIndicatorForegroundColor(text[s], indicators_[s]);
    setMarkerBackgroundColor(paper[s], markers_[s]);
    const int style = annotationStyles_[s];
    SendScintilla(SCI_STYLESETFORE, style, text[s]);
    SendScintilla(SCI_STYLESETBACK, style, paper[s]);
    // The editor's font, so the caret under the message lines up with the code above it.
    const QByteArray family = font.family().toUtf8();
    SendScintilla(SCI_STYLESETFONT, style, family.constData());
    SendScintilla(SCI_STYLESETSIZEFRACTIONAL, style, static_cast<long>(font.pointSizeF() * 100));
  }
}

void CodeEditor::showDiagnostic(int line, int column, const QString& message, DiagnosticSeverity severity) {
  const int s = static_cast<int>(severity);
  const int lineIndex = std::clamp(line - 1, 0, std::max(0, lines() - 1));
  const QString lineText = text(lineIndex);
  int lineLength = static_cast<int>(lineText.size());
  while (lineLength > 0 && (lineText[lineLength - 1] == '\n' || lineText[lineLength - 1] == '\r')) --lineLength;
  int from = column > 0 ? std::min(column - 1, lineLength) : 0;
  int to = lineLength;
  if (column > 0) {
    // Underline the word (or the one character) at the column, like a compiler's caret range.
    to = from;
    while (to < lineLength && (lineText[to].isLetterOrNumber() || lineText[to] == '_')) ++to;
    if (to == from) to = std::min(from + 1, lineLength);
    if (from == lineLength && from > 0) from = lineLength - 1;  // past the end: mark the last character
  }
  if (to > from) fillIndicatorRange(lineIndex, from, lineIndex, to, indicators_[s]);
  markerAdd(lineIndex, markers_[s]);
  QString note = message;
  if (column > 0) {
    // A boxed annotation starts at the line's indentation, not at column 1: count the caret's
    // spaces from there (tabs expanded), or it lands one indentation too far right.
    int visualColumn = 0;
    for (int i = 0; i < from; ++i) visualColumn += lineText[i] == '\t' ? tabWidth() - visualColumn % tabWidth() : 1;
    const int caret = std::max(0, visualColumn - indentation(lineIndex));
    note = QStringLiteral("%1^ %2").arg(QString(caret, ' '), message);
  }
  const QString existing = annotation(lineIndex);
  annotate(lineIndex, existing.isEmpty() ? note : existing + '\n' + note, annotationStyles_[s]);
  diagnosticMessages_.append({lineIndex, message});
  ++diagnosticCount_;
  emit heightForContentsChanged();
}

void CodeEditor::clearDiagnostics() {
  if (diagnosticCount_ == 0) return;
  for (int s = 0; s < kSeverityCount; ++s) {
    clearIndicatorRange(0, 0, std::max(0, lines() - 1), text(std::max(0, lines() - 1)).size(), indicators_[s]);
    markerDeleteAll(markers_[s]);
  }
  clearAnnotations();
  diagnosticMessages_.clear();
  diagnosticCount_ = 0;
  emit heightForContentsChanged();
}

QStringList CodeEditor::diagnosticMessages(int line) const {
  QStringList out;
  for (const auto& [lineIndex, message] : diagnosticMessages_)
    if (lineIndex == line - 1) out << message;
  return out;
}

bool CodeEditor::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip && diagnosticCount_ > 0) {
    // Anywhere on a marked line (its text, its margin or its annotation) tells what is wrong there.
    auto* help = static_cast<QHelpEvent*>(event);
    const long position = SendScintilla(SCI_POSITIONFROMPOINT, static_cast<unsigned long>(std::max(0, help->pos().x())),
                                        static_cast<long>(help->pos().y()));
    const int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(std::max(0L, position))));
    const QStringList messages = diagnosticMessages(line + 1);
    const long lineTop = SendScintilla(SCI_POINTYFROMPOSITION, 0UL, SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(line)));
    // The line (wrapped, it takes several display lines) and the annotation lines under it.
    const long displayLines = SendScintilla(SCI_WRAPCOUNT, static_cast<unsigned long>(line)) +
                              SendScintilla(SCI_ANNOTATIONGETLINES, static_cast<unsigned long>(line));
    const bool onTheLine = help->pos().y() >= lineTop && help->pos().y() < lineTop + displayLines * textHeight(line);
    if (!messages.isEmpty() && onTheLine) {
      QToolTip::showText(help->globalPos(), messages.join('\n'), viewport());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QsciScintilla::viewportEvent(event);
}

int CodeEditor::heightForContents() const {
  // Display lines include wrapped continuation lines and annotation lines.
  auto* self = const_cast<CodeEditor*>(this);
  const long displayLines = self->SendScintilla(SCI_VISIBLEFROMDOCLINE, static_cast<unsigned long>(lines()));
  const int lineHeight = std::max(1, self->textHeight(0));
  return static_cast<int>(std::max(1L, displayLines)) * lineHeight + 2 * frameWidth() + 6;
}

void CodeEditor::updateLineNumberMargin() {
  const int digits = QString::number(std::max(1, lines())).size();
  setMarginWidth(0, QString(std::max(2, digits) + 1, '9'));
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
  const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
  const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
  const bool popupOpen = isListActive() || isCallTipActive();
  // Ignored events travel up to the notebook view, which runs cells and switches modes.
  if (enter && (mods & (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier))) {
    if (isListActive()) cancelList();
    event->ignore();
    return;
  }
  if (event->key() == Qt::Key_Escape && !popupOpen) {
    event->ignore();
    return;
  }
  if (event->key() == Qt::Key_Escape && isCallTipActive() && !isListActive()) {
    SendScintilla(SCI_CALLTIPCANCEL);
    return;
  }
  if (!popupOpen && mods == Qt::NoModifier && !hasSelectedText()) {
    int line = 0;
    int index = 0;
    getCursorPosition(&line, &index);
    const bool atTop = event->key() == Qt::Key_Up && line == 0;
    const bool atBottom = event->key() == Qt::Key_Down && line == lines() - 1;
    if (atTop || atBottom) {
      event->ignore();  // Up on the first line / Down on the last line moves to the neighbouring cell
      return;
    }
  }
  // Auto-indent decides by the style of the ":" ending the line, and Scintilla styles lazily (when
  // painting): style the text up to the cursor first so indentation never depends on a repaint.
  if (completion_ && completion_->handleKeyPress(*event)) return;
  if (enter && lexer_) SendScintilla(SCI_COLOURISE, 0L, SendScintilla(SCI_GETCURRENTPOS));
  QsciScintilla::keyPressEvent(event);
  if (completion_) completion_->afterKeyPress(*event);
}

void CodeEditor::focusInEvent(QFocusEvent* event) {
  QsciScintilla::focusInEvent(event);
  emit focusReceived();
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
  QsciScintilla::resizeEvent(event);
  // Wrapping depends on the width, and with it the height the cell needs.
  const int height = heightForContents();
  if (height != lastHeight_) {
    lastHeight_ = height;
    emit heightForContentsChanged();
  }
}

void CodeEditor::wheelEvent(QWheelEvent* event) {
  // The editor always shows all its lines, so the wheel scrolls the notebook instead.
  event->ignore();
}

}  // namespace tilescope::ui
