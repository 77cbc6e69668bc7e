#include "ui/CodeCompletion.h"

#include <Qsci/qsciabstractapis.h>
#include <Qsci/qscilexer.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QGuiApplication>
#include <QKeyEvent>
#include <QListWidget>
#include <QRegularExpression>
#include <QScreen>
#include <algorithm>

namespace tilescope::ui {
namespace {
bool isNameCharacter(QChar c) { return c.isLetterOrNumber() || c == '_'; }

bool isArrowOrPageKey(int key) {
  return key == Qt::Key_Up || key == Qt::Key_Down || key == Qt::Key_PageUp || key == Qt::Key_PageDown;
}

bool isEnterKey(int key) { return key == Qt::Key_Return || key == Qt::Key_Enter; }
}  // namespace

CodeCompletion::CodeCompletion(QsciScintilla* editor) : QObject(editor), editor_(editor) {
  pause_.setSingleShot(true);
  pause_.setInterval(kPauseMs);
  connect(&pause_, &QTimer::timeout, this, &CodeCompletion::onPause);
}

bool CodeCompletion::handleKeyPress(const QKeyEvent& event) {
  const Qt::KeyboardModifiers mods = event.modifiers() & ~Qt::KeypadModifier;
  const int key = event.key();
  if (editor_->isListActive()) {
    if (mods == Qt::NoModifier && isArrowOrPageKey(key)) userInList_ = true;
    // A list the user never entered is only a suggestion: Enter still starts a new line.
    else if (mods == Qt::NoModifier && isEnterKey(key) && !userInList_) editor_->cancelList();
    return false;
  }
  if (key != Qt::Key_Tab || mods != Qt::NoModifier || editor_->hasSelectedText()) return false;
  int line = 0;
  int index = 0;
  editor_->getCursorPosition(&line, &index);
  const QString before = editor_->text(line).left(index);
  if (before.isEmpty() || !(isNameCharacter(before.back()) || before.back() == '.')) return false;  // Tab indents
  pause_.stop();
  open(true);
  return true;
}

void CodeCompletion::afterKeyPress(const QKeyEvent& event) {
  const QString text = event.text();
  const bool commandKey = event.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
  const bool typesName = text.size() == 1 && !commandKey && (isNameCharacter(text[0]) || text[0] == '.');
  if (typesName && !editor_->isListActive()) {
    pausePosition_ = editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
    pause_.start();
  } else {
    pause_.stop();
  }
}

void CodeCompletion::onPause() {
  // The window's focus widget, not hasFocus(): see CodeEditor::isTypedIn().
  const bool typedIn = editor_->window()->focusWidget() == editor_;
  if (!typedIn || editor_->isListActive() || editor_->isCallTipActive() || editor_->hasSelectedText()) return;
  if (editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS) != pausePosition_) return;
  if (caretInCommentOrString()) return;  // prose: only Tab asks for names there
  open(false);
}

bool CodeCompletion::caretInCommentOrString() const {
  const long pos = editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
  if (pos == 0 || !qobject_cast<QsciLexerPython*>(editor_->lexer())) return false;
  // Scintilla styles lazily, when painting: style up to the caret first.
  editor_->SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, pos);
  using L = QsciLexerPython;
  const long style = editor_->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT, static_cast<unsigned long>(pos - 1));
  switch (static_cast<int>(style)) {
    case L::Comment: case L::CommentBlock: case L::DoubleQuotedString: case L::SingleQuotedString:
    case L::TripleSingleQuotedString: case L::TripleDoubleQuotedString: case L::UnclosedString:
    case L::DoubleQuotedFString: case L::SingleQuotedFString: case L::TripleSingleQuotedFString:
    case L::TripleDoubleQuotedFString: return true;
    default: return false;
  }
}

QString CodeCompletion::wordBeforeCaret() const {
  int start = 0;
  int lastWordStart = 0;
  const QStringList context =
      editor_->apiContext(static_cast<int>(editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS)), start,
                          lastWordStart);
  return context.isEmpty() ? QString() : context.last();
}

QStringList CodeCompletion::candidates() const {
  const long caret = editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
  int start = 0;
  int lastWordStart = 0;
  const QStringList context = editor_->apiContext(static_cast<int>(caret), start, lastWordStart);
  if (context.isEmpty()) return {};
  QStringList names;
  QsciLexer* lexer = editor_->lexer();
  if (lexer && lexer->apis()) {
    QStringList entries;
    lexer->apis()->updateAutoCompletionList(context, entries);
    for (const QString& entry : entries) {
      // Entries read "name", "name (origin)" or "name?image".
      const QString name = entry.section(' ', 0, 0).section('?', 0, 0);
      if (!name.isEmpty() && !names.contains(name)) names << name;
    }
  }
  // Names written elsewhere in the cell after the same dotted prefix, as QScintilla offers them too.
  const QString separator = lexer ? lexer->autoCompletionWordSeparators().value(0, QStringLiteral(".")) : ".";
  const QString prefix = context.join(separator);
  const QString text = editor_->text();
  const QByteArray beforeCaret = editor_->bytes(0, static_cast<int>(caret)).chopped(1);  // bytes() adds a NUL
  const int caretIndex = static_cast<int>(QString::fromUtf8(beforeCaret).size());
  const QRegularExpression word(QStringLiteral("(?<![\\w.])%1(\\w+)").arg(QRegularExpression::escape(prefix)));
  for (auto it = word.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch match = it.next();
    if (match.capturedStart(1) == caretIndex) continue;  // the word being typed
    const QString name = context.last() + match.captured(1);
    if (!names.contains(name)) names << name;
  }
  names.sort();
  return names;
}

QPoint CodeCompletion::caretTopGlobal() const {
  const long pos = editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
  const int x = static_cast<int>(editor_->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, pos));
  const int y = static_cast<int>(editor_->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, pos));
  return editor_->viewport()->mapToGlobal(QPoint(x, y));
}

bool CodeCompletion::caretOnScreen() const {
  const QPoint top = caretTopGlobal();
  const int lineHeight = std::max(1, editor_->textHeight(0));
  return QGuiApplication::screenAt(top) && QGuiApplication::screenAt(top + QPoint(0, lineHeight - 1));
}

bool CodeCompletion::open(bool explicitRequest) {
  if (!caretOnScreen()) return false;  // nowhere to show it, and QScintilla would crash trying
  const QStringList names = candidates();
  const QString typed = wordBeforeCaret();
  if (names.isEmpty() || (names.size() == 1 && names.first() == typed)) return false;
  if (names.size() == 1) {
    if (!explicitRequest) return false;
    const QByteArray rest = names.first().mid(typed.size()).toUtf8();
    editor_->SendScintilla(QsciScintillaBase::SCI_REPLACESEL, 0UL, rest.constData());
    return true;
  }
  userInList_ = explicitRequest;
  // Our own list rather than QScintilla's: its API list repeats a name once per module that has it
  // ("arange (tl)", "arange (torch)").
  editor_->SendScintilla(QsciScintillaBase::SCI_AUTOCSETSEPARATOR, static_cast<unsigned long>(' '));
  editor_->SendScintilla(QsciScintillaBase::SCI_AUTOCSETCHOOSESINGLE, 0UL);
  editor_->SendScintilla(QsciScintillaBase::SCI_AUTOCSHOW, static_cast<unsigned long>(typed.toUtf8().size()),
                         names.join(' ').toUtf8().constData());
  if (QListWidget* list = shownList()) {
    placeList(*list);
    list->viewport()->installEventFilter(this);  // a click into the list counts as moving into it
  }
  return true;
}

QListWidget* CodeCompletion::shownList() const {
  if (!editor_->isListActive()) return nullptr;
  // QScintilla makes a new list widget, a child of the editor, for every list it shows.
  for (QListWidget* child : editor_->findChildren<QListWidget*>(QString(), Qt::FindDirectChildrenOnly))
    if (child->isVisible()) return child;
  return nullptr;
}

bool CodeCompletion::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::MouseButtonPress) userInList_ = true;
  return QObject::eventFilter(watched, event);
}

void CodeCompletion::placeList(QListWidget& list) {
  const QPoint caretTop = caretTopGlobal();
  const int lineHeight = std::max(1, editor_->textHeight(0));
  QRect bounds = editor_->window()->geometry();
  if (QScreen* screen = QGuiApplication::screenAt(caretTop)) bounds &= screen->availableGeometry();
  QRect placed = list.geometry();
  const int roomBelow = bounds.bottom() - (caretTop.y() + lineHeight) + 1;
  const int roomAbove = caretTop.y() - bounds.top();
  if (placed.height() <= roomBelow || roomBelow >= roomAbove) {
    placed.moveTop(caretTop.y() + lineHeight);
    placed.setHeight(std::min(placed.height(), std::max(lineHeight, roomBelow)));
  } else {
    placed.setHeight(std::min(placed.height(), roomAbove));
    placed.moveBottom(caretTop.y() - 1);
  }
  if (placed.right() > bounds.right()) placed.moveRight(bounds.right());
  if (placed.left() < bounds.left()) placed.moveLeft(bounds.left());
  list.setGeometry(placed);
}

}  // namespace tilescope::ui
