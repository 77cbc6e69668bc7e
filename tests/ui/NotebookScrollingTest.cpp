// How the notebook scrolls around its editors (issue 28): typing keeps the caret in view, as in
// Jupyter, and the mouse wheel over a cell scrolls without selecting it or changing the mode.
#include <gtest/gtest.h>

#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "tests/ui/RealInput.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/CellWidget.h"
#include "ui/CodeEditor.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"

using tilescope::notebook::CellType;
using tilescope::ui::NotebookView;

namespace {
class NotebookScrolling : public ::testing::Test {
protected:
  void open(int cells) {
    auto recovery = std::make_unique<tilescope::ui::RecoveryStore>(recoveryDir.path());
    window = std::make_unique<tilescope::ui::MainWindow>(new tilescope::testing::RecordingClient, std::move(recovery));
    tilescope::notebook::Notebook nb;
    for (int i = 0; i < cells; ++i)
      nb.appendCell(CellType::Code, QString("a%1 = %1\nb%1 = a%1 * 2").arg(i).toStdString());
    window->model()->reset(nb);
    view = window->notebookView();
    window->resize(900, 500);
    window->show();
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    QApplication::processEvents();
  }

  // The caret's line, in the coordinates of the notebook's viewport.
  QRect caretInViewport(tilescope::ui::CodeEditor* editor) const {
    const long pos = editor->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
    const QPoint top(static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, pos)),
                     static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, pos)));
    return QRect(editor->viewport()->mapTo(view->viewport(), top), QSize(2, editor->textHeight(0)));
  }

  QTemporaryDir recoveryDir;
  std::unique_ptr<tilescope::ui::MainWindow> window;
  NotebookView* view = nullptr;
};
}  // namespace

TEST_F(NotebookScrolling, TypingInTheLastCellKeepsTheCaretInView) {
  open(4);
  view->select(3);
  view->enterEditMode();
  auto* editor = view->cellWidget(3)->editor();
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return editor->hasFocus(); }));
  QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
  for (int line = 0; line < 40; ++line) {
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QString("c%1 = %1").arg(line));
    QApplication::processEvents();
    const QRect caret = caretInViewport(editor);
    ASSERT_TRUE(view->viewport()->rect().contains(caret))
        << "after line " << line << " the caret is at y " << caret.y() << ", the viewport is "
        << view->viewport()->height() << " high";
  }
  EXPECT_EQ(editor->lines(), 42);
  EXPECT_GT(view->verticalScrollBar()->value(), 0);
}

// Without a window manager (Xvfb, kiosks) the window never becomes active, yet its keys arrive.
TEST_F(NotebookScrolling, TheCaretStaysInViewInAWindowThatIsNotActive) {
  open(4);
  view->select(3);
  view->enterEditMode();
  auto* editor = view->cellWidget(3)->editor();
  QWidget other;
  other.show();
  other.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&other));
  ASSERT_FALSE(window->isActiveWindow());
  ASSERT_EQ(window->focusWidget(), editor);
  QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
  for (int line = 0; line < 30; ++line) {
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QString("d%1 = %1").arg(line));
    QApplication::processEvents();
  }
  const QRect caret = caretInViewport(editor);
  EXPECT_TRUE(view->viewport()->rect().contains(caret)) << "caret at y " << caret.y();
}

TEST_F(NotebookScrolling, TheWheelNeverChangesTheSelectionOrTheMode) {
  open(12);
  view->select(0);
  view->enterCommandMode();
  auto* target = view->cellWidget(2)->editor();
  tilescope::testing::wheel(target->viewport(), target->viewport()->rect().center(), -2);
  EXPECT_GT(view->verticalScrollBar()->value(), 0) << "the wheel scrolls the notebook";
  EXPECT_EQ(view->selectedIndex(), 0);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Command);
  EXPECT_FALSE(target->hasFocus());

  // In edit mode too: the cursor stays in the cell being edited.
  view->verticalScrollBar()->setValue(0);
  view->enterEditMode();
  auto* edited = view->cellWidget(0)->editor();
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return edited->hasFocus(); }));
  tilescope::testing::wheel(target->viewport(), target->viewport()->rect().center(), -1);
  EXPECT_GT(view->verticalScrollBar()->value(), 0);
  EXPECT_EQ(view->selectedIndex(), 0);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Edit);
  EXPECT_TRUE(edited->hasFocus());
}
