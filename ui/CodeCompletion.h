#pragma once
// When the completion list of a code editor opens, what Enter does while it is open, and where it
// appears. As in JupyterLab: Tab asks for it (one candidate is inserted at once), and it also opens
// after a short pause in typing code (not comments or strings) when at least two names complete the
// word; Enter inserts a newline unless the user moved into the list (arrow or page keys, a click) or
// asked for it with Tab.
// Every popup of the editor opens through here, and only while the caret lies on a screen: QScintilla
// 2.13 asks QGuiApplication::screenAt(caret) for the popup's bounds and dereferences the result,
// which is null for a caret outside every screen (the SIGSEGV in libQt6Gui of issue 28).
#include <QObject>
#include <QPoint>
#include <QStringList>
#include <QTimer>

class QKeyEvent;
class QListWidget;
class QsciScintilla;

namespace tilescope::ui {

class CodeCompletion : public QObject {
  Q_OBJECT
public:
  // Typing that stops this long opens the list (when it has at least two names).
  static constexpr int kPauseMs = 400;

  explicit CodeCompletion(QsciScintilla* editor);

  // Called before the editor handles a key; true when the key was used up here.
  bool handleKeyPress(const QKeyEvent& event);
  // Called after the editor handled a key: typing a name restarts the pause, anything else stops it.
  void afterKeyPress(const QKeyEvent& event);

  // The distinct names that complete the word before the caret (the Triton API and the cell's words).
  QStringList candidates() const;
  // Opens the list now; explicit (Tab) also inserts a single candidate. False when nothing was shown.
  bool open(bool explicitRequest);
  // True once the user moved into the open list (arrow or page keys, a click) or opened it with Tab:
  // Enter then accepts.
  bool userInList() const { return userInList_; }
  // Global position of the top of the caret's line, and whether a screen shows it.
  QPoint caretTopGlobal() const;
  bool caretOnScreen() const;

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  void onPause();
  QString wordBeforeCaret() const;
  bool caretInCommentOrString() const;
  // Moves the open list inside the window and the screen: under the caret's line if it fits, else above.
  void placeList(QListWidget& list);
  QListWidget* shownList() const;

  QsciScintilla* editor_;
  QTimer pause_;
  long pausePosition_ = -1;
  bool userInList_ = false;
};

}  // namespace tilescope::ui
