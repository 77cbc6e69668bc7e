// The completion list of code cells (issue 28): it opens on Tab or after a pause with at least two
// candidates, Enter starts a new line unless the user moved into the list, it appears inside the
// window, and a caret below the screen's edge no longer crashes the app.
#include <gtest/gtest.h>

#include <QGuiApplication>
#include <QListWidget>
#include <QScreen>
#include <QTest>
#include <memory>

#include "tests/ui/UiTestSupport.h"
#include "ui/CodeCompletion.h"
#include "ui/CodeEditor.h"
#include "ui/TritonApis.h"

using tilescope::testing::waitUntil;
using tilescope::ui::CodeCompletion;
using tilescope::ui::CodeEditor;

namespace {
// A Python editor inside its own active window, placed at `windowGeometry` (global) and `editorRect`.
class EditorWindow {
public:
  EditorWindow(const QRect& windowGeometry, const QRect& editorRect) {
    editor = new CodeEditor(CodeEditor::Language::Python, &window);
    editor->setGeometry(editorRect);
    window.setGeometry(windowGeometry);
    window.show();
    window.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
    editor->setFocus();
    EXPECT_TRUE(waitUntil([this] { return editor->hasFocus(); }));
  }
  QWidget window;
  CodeEditor* editor = nullptr;
};

std::unique_ptr<EditorWindow> editorOnScreen() {
  const QRect screen = QGuiApplication::primaryScreen()->geometry();
  return std::make_unique<EditorWindow>(QRect(screen.topLeft() + QPoint(20, 20), QSize(600, 300)),
                                        QRect(0, 0, 600, 300));
}

bool apisReady() {
  return waitUntil([] { return tilescope::ui::TritonApis::isPrepared(); });
}

// Long enough for the pause that opens the list to have passed.
void waitPastThePause() { QTest::qWait(CodeCompletion::kPauseMs * 3); }

QListWidget* visibleList(CodeEditor* editor) {
  for (QListWidget* list : editor->findChildren<QListWidget*>())
    if (list->isVisible()) return list;
  return nullptr;
}
}  // namespace

TEST(CodeCompletion, EnterAfterAFullyTypedDecoratorStartsANewLine) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "@triton.jit");
  waitPastThePause();
  EXPECT_FALSE(w->editor->isListActive()) << "triton.jit is complete: nothing to offer";
  QTest::keyClick(w->editor, Qt::Key_Return);
  QTest::keyClicks(w->editor, "def f():");
  EXPECT_EQ(w->editor->text().toStdString(), "@triton.jit\ndef f():");
}

TEST(CodeCompletion, APauseOpensTheListButEnterStillStartsANewLine) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "x = tl.lo");
  EXPECT_FALSE(w->editor->isListActive()) << "not while typing";
  ASSERT_TRUE(waitUntil([&] { return w->editor->isListActive(); }, 3000)) << "tl.load, tl.log, ... after a pause";
  EXPECT_FALSE(w->editor->completion()->userInList());
  QTest::keyClick(w->editor, Qt::Key_Return);
  EXPECT_FALSE(w->editor->isListActive());
  EXPECT_EQ(w->editor->text().toStdString(), "x = tl.lo\n");
}

TEST(CodeCompletion, EnterAcceptsOnceTheUserMovedIntoTheList) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "x = tl.lo");
  ASSERT_TRUE(waitUntil([&] { return w->editor->isListActive(); }, 3000));
  QTest::keyClick(w->editor, Qt::Key_Down);
  EXPECT_TRUE(w->editor->completion()->userInList());
  QTest::keyClick(w->editor, Qt::Key_Return);
  EXPECT_FALSE(w->editor->isListActive());
  EXPECT_EQ(w->editor->text().toStdString(), "x = tl.log") << "the second entry after tl.load";
}

TEST(CodeCompletion, AClickIntoTheListCountsAsMovingIntoIt) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "x = tl.lo");
  ASSERT_TRUE(waitUntil([&] { return w->editor->isListActive(); }, 3000));
  QListWidget* list = visibleList(w->editor);
  ASSERT_NE(list, nullptr);
  ASSERT_GE(list->count(), 3);
  QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier, list->visualItemRect(list->item(2)).center());
  EXPECT_TRUE(w->editor->completion()->userInList());
  QTest::keyClick(w->editor, Qt::Key_Return);
  EXPECT_EQ(w->editor->text().toStdString(), "x = tl.log2") << "the clicked entry";
}

TEST(CodeCompletion, TabOpensTheListAtOnceAndEnterAcceptsIt) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "y = tl.lo");
  QTest::keyClick(w->editor, Qt::Key_Tab);
  ASSERT_TRUE(w->editor->isListActive());
  QTest::keyClick(w->editor, Qt::Key_Return);
  EXPECT_EQ(w->editor->text().toStdString(), "y = tl.load");
}

TEST(CodeCompletion, TabInsertsASingleCandidateAndIndentsAfterSpace) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "x = tl.aran");
  QTest::keyClick(w->editor, Qt::Key_Tab);
  EXPECT_FALSE(w->editor->isListActive());
  EXPECT_EQ(w->editor->text().toStdString(), "x = tl.arange");
  QTest::keyClick(w->editor, Qt::Key_Return);
  QTest::keyClick(w->editor, Qt::Key_Tab);
  EXPECT_EQ(w->editor->text().toStdString(), "x = tl.arange\n    ") << "Tab at the start of a line indents";
}

TEST(CodeCompletion, NoListForAFullyTypedNameWithOneCandidate) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "import torch");
  waitPastThePause();
  EXPECT_FALSE(w->editor->isListActive());
  QTest::keyClick(w->editor, Qt::Key_Tab);
  EXPECT_FALSE(w->editor->isListActive());
  EXPECT_EQ(w->editor->text().toStdString(), "import torch");
}

TEST(CodeCompletion, APauseInACommentOrStringOpensNothing) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  QTest::keyClicks(w->editor, "# tl.lo");
  waitPastThePause();
  EXPECT_FALSE(w->editor->isListActive()) << "in a comment";
  QTest::keyClick(w->editor, Qt::Key_Return);
  QTest::keyClicks(w->editor, "s = 'tl.lo");
  waitPastThePause();
  EXPECT_FALSE(w->editor->isListActive()) << "in a string";
  QTest::keyClick(w->editor, Qt::Key_Tab);
  EXPECT_TRUE(w->editor->isListActive()) << "Tab still asks for names";
}

TEST(CodeCompletion, WordsOfTheCellAreCandidatesToo) {
  ASSERT_TRUE(apisReady());
  auto w = editorOnScreen();
  w->editor->setText("block_size = 1\nblock_start = 2\n");
  w->editor->setCursorPosition(2, 0);
  QTest::keyClicks(w->editor, "bloc");
  EXPECT_EQ(w->editor->completion()->candidates(), QStringList({"block_size", "block_start"}));
  ASSERT_TRUE(waitUntil([&] { return w->editor->isListActive(); }, 3000));
}

// The crash of issue 28: QScintilla looks up the screen under the caret for the popup's bounds and
// dereferences it; below the screen's edge there is none. Before the fix this test died of SIGSEGV
// in libQt6Gui as soon as "." opened the list.
TEST(CodeCompletion, ACaretBelowTheScreenEdgeOpensNoPopupAndDoesNotCrash) {
  ASSERT_TRUE(apisReady());
  const QRect screen = QGuiApplication::primaryScreen()->geometry();
  // The window reaches 300 pixels past the bottom of the screen; the editor sits in that part.
  EditorWindow w(QRect(screen.left() + 20, screen.bottom() - 100, 600, 400), QRect(0, 200, 600, 200));
  ASSERT_EQ(QGuiApplication::screenAt(w.editor->mapToGlobal(QPoint(10, 10))), nullptr);
  EXPECT_FALSE(w.editor->completion()->caretOnScreen());
  QTest::keyClicks(w.editor, "x = tl.lo");
  waitPastThePause();
  QTest::keyClick(w.editor, Qt::Key_Tab);
  QTest::keyClicks(w.editor, "ad(");
  waitPastThePause();
  EXPECT_FALSE(w.editor->isListActive());
  EXPECT_FALSE(w.editor->isCallTipActive());
  EXPECT_EQ(w.editor->text().toStdString(), "x = tl.load(") << "every key still arrived";
}

TEST(CodeCompletion, TheListOpensInsideTheWindowAboveACaretNearItsBottom) {
  ASSERT_TRUE(apisReady());
  const QRect screen = QGuiApplication::primaryScreen()->geometry();
  // A small window with room below it on the screen: the list must not hang out of it.
  EditorWindow w(QRect(screen.topLeft() + QPoint(50, 50), QSize(500, 260)), QRect(0, 200, 500, 60));
  QTest::keyClicks(w.editor, "x = tl.");
  QTest::keyClick(w.editor, Qt::Key_Tab);
  ASSERT_TRUE(w.editor->isListActive());
  QListWidget* list = visibleList(w.editor);
  ASSERT_NE(list, nullptr);
  const QRect window = w.window.geometry();
  const QRect shown = list->geometry();
  EXPECT_TRUE(window.contains(shown)) << "list at " << shown.y() << ".." << shown.bottom() << ", window " << window.y()
                                      << ".." << window.bottom();
  EXPECT_LT(list->geometry().bottom(), w.editor->completion()->caretTopGlobal().y()) << "above the caret's line";
  EXPECT_GT(list->geometry().height(), 40) << "still shows several names";
}
