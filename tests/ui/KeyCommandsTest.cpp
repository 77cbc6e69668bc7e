// Jupyter's keys: command mode vs edit mode, cell commands, and the run keys.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/CellWidget.h"
#include "ui/MainWindow.h"
#include "ui/MarkdownCellWidget.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"

using tilescope::notebook::CellType;
using tilescope::testing::RecordingClient;
using tilescope::ui::MainWindow;
using tilescope::ui::NotebookView;

namespace {
class KeyCommands : public ::testing::Test {
protected:
  void SetUp() override {
    client = new RecordingClient;
    window = std::make_unique<MainWindow>(client, std::make_unique<tilescope::ui::RecoveryStore>(recoveryDir.path()));
    tilescope::notebook::Notebook nb;
    nb.appendCell(CellType::Code, "a = 1");
    nb.appendCell(CellType::Markdown, "# Notes");
    nb.appendCell(CellType::Code, "b = 2");
    window->model()->reset(nb);
    view = window->notebookView();
    model = window->model();
  }

  void press(int key, Qt::KeyboardModifiers mods = Qt::NoModifier) { QTest::keyClick(view, static_cast<Qt::Key>(key), mods); }
  QList<QString> sources() const {
    QList<QString> out;
    for (int i = 0; i < model->cellCount(); ++i) out << model->source(i);
    return out;
  }

  QTemporaryDir recoveryDir;
  RecordingClient* client = nullptr;  // owned by the window
  std::unique_ptr<MainWindow> window;
  NotebookView* view = nullptr;
  tilescope::ui::NotebookModel* model = nullptr;
};
}  // namespace

TEST_F(KeyCommands, StartsInCommandModeOnTheFirstCell) {
  EXPECT_EQ(view->mode(), NotebookView::Mode::Command);
  EXPECT_EQ(view->selectedIndex(), 0);
  EXPECT_TRUE(view->cellWidget(0)->isSelected());
  EXPECT_FALSE(view->cellWidget(1)->isSelected());
}

TEST_F(KeyCommands, JKAndArrowsMoveTheSelection) {
  press(Qt::Key_J);
  EXPECT_EQ(view->selectedIndex(), 1);
  press(Qt::Key_Down);
  EXPECT_EQ(view->selectedIndex(), 2);
  press(Qt::Key_Down);
  EXPECT_EQ(view->selectedIndex(), 2) << "stays on the last cell";
  press(Qt::Key_K);
  EXPECT_EQ(view->selectedIndex(), 1);
  press(Qt::Key_Up);
  EXPECT_EQ(view->selectedIndex(), 0);
}

TEST_F(KeyCommands, AAndBInsertCodeCellsAboveAndBelow) {
  press(Qt::Key_J);  // on the markdown cell
  press(Qt::Key_A);
  EXPECT_EQ(model->cellCount(), 4);
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(model->cell(1).type, CellType::Code);
  EXPECT_EQ(model->source(1), "");
  EXPECT_EQ(model->source(2), "# Notes");
  press(Qt::Key_B);
  EXPECT_EQ(model->cellCount(), 5);
  EXPECT_EQ(view->selectedIndex(), 2);
  EXPECT_EQ(view->cellCount(), 5) << "the view follows the model";
  EXPECT_EQ(view->mode(), NotebookView::Mode::Command);
}

TEST_F(KeyCommands, DDDeletesAndZBringsTheCellBack) {
  press(Qt::Key_J);
  const QString id = model->cellId(1);
  press(Qt::Key_D);
  EXPECT_EQ(model->cellCount(), 3) << "one D does nothing";
  press(Qt::Key_D);
  EXPECT_EQ(model->cellCount(), 2);
  EXPECT_EQ(model->indexOf(id), -1);
  EXPECT_EQ(view->selectedIndex(), 1) << "the next cell is selected";
  EXPECT_EQ(view->cellCount(), 2);
  press(Qt::Key_Z);
  EXPECT_EQ(model->cellCount(), 3);
  EXPECT_EQ(model->indexOf(id), 1);
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(sources(), (QList<QString>{"a = 1", "# Notes", "b = 2"}));
}

TEST_F(KeyCommands, DThenAnotherKeyThenDDoesNotDelete) {
  press(Qt::Key_D);
  press(Qt::Key_J);
  press(Qt::Key_D);
  EXPECT_EQ(model->cellCount(), 3);
}

TEST_F(KeyCommands, MAndYChangeTheCellType) {
  press(Qt::Key_M);
  EXPECT_EQ(model->cell(0).type, CellType::Markdown);
  auto* markdown = qobject_cast<tilescope::ui::MarkdownCellWidget*>(view->cellWidget(0));
  ASSERT_NE(markdown, nullptr);
  EXPECT_FALSE(markdown->isRendered()) << "a cell just made markdown shows its source until it is run";
  EXPECT_EQ(markdown->source(), "a = 1");
  press(Qt::Key_Y);
  EXPECT_EQ(model->cell(0).type, CellType::Code);
  EXPECT_EQ(view->cellWidget(0)->cellType(), CellType::Code);
  EXPECT_TRUE(view->cellWidget(0)->isSelected());
}

TEST_F(KeyCommands, EnterEditsAndEscapeReturnsToCommandMode) {
  press(Qt::Key_Return);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Edit);
  auto* editor = view->cellWidget(0)->editor();
  QTest::keyClick(editor, Qt::Key_End);
  QTest::keyClicks(editor, " + 41");
  EXPECT_EQ(model->source(0), "a = 1 + 41") << "typing goes straight into the model";
  EXPECT_TRUE(model->isDirty());
  // Letters are text in edit mode, not commands.
  QTest::keyClicks(editor, "b");
  EXPECT_EQ(model->cellCount(), 3);
  QTest::keyClick(editor, Qt::Key_Escape);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Command);
  press(Qt::Key_B);
  EXPECT_EQ(model->cellCount(), 4) << "after Esc, B is a command again";
}

TEST_F(KeyCommands, ShiftEnterRunsAndAdvances) {
  press(Qt::Key_Return, Qt::ShiftModifier);
  ASSERT_EQ(client->runs.size(), 1u);
  EXPECT_EQ(client->runs[0].cellId, model->cellId(0));
  EXPECT_EQ(client->runs[0].code, "a = 1");
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Command);
  // From inside the editor too: the editor hands Shift+Enter to the notebook, inserting no newline.
  view->select(2);
  view->enterEditMode();
  QTest::keyClick(view->cellWidget(2)->editor(), Qt::Key_Return, Qt::ShiftModifier);
  ASSERT_EQ(client->runs.size(), 2u);
  EXPECT_EQ(client->runs[1].code, "b = 2");
  EXPECT_EQ(model->source(2), "b = 2");
  // At the last cell a new cell is added and edited, as in Jupyter.
  EXPECT_EQ(model->cellCount(), 4);
  EXPECT_EQ(view->selectedIndex(), 3);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Edit);
}

TEST_F(KeyCommands, ShiftEnterOnMarkdownRendersIt) {
  view->select(1);
  view->enterEditMode();
  auto* markdown = qobject_cast<tilescope::ui::MarkdownCellWidget*>(view->cellWidget(1));
  ASSERT_NE(markdown, nullptr);
  EXPECT_FALSE(markdown->isRendered());
  QTest::keyClick(markdown->editor(), Qt::Key_Return, Qt::ShiftModifier);
  EXPECT_TRUE(markdown->isRendered());
  EXPECT_TRUE(client->runs.empty()) << "markdown is rendered, not sent to the worker";
  EXPECT_EQ(view->selectedIndex(), 2);
}

TEST_F(KeyCommands, CtrlEnterRunsAndStaysAltEnterInsertsBelow) {
  press(Qt::Key_Return, Qt::ControlModifier);
  EXPECT_EQ(client->runs.size(), 1u);
  EXPECT_EQ(view->selectedIndex(), 0);
  client->finishAll();
  press(Qt::Key_Return, Qt::AltModifier);
  EXPECT_EQ(client->runs.size(), 1u);
  EXPECT_EQ(model->cellCount(), 4);
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(model->source(1), "");
  EXPECT_EQ(view->mode(), NotebookView::Mode::Edit);
}

TEST_F(KeyCommands, RunAllAndRunAboveQueueCodeCellsInOrder) {
  auto* controller = window->notebookController();
  controller->runAll();
  ASSERT_EQ(client->runs.size(), 2u);
  EXPECT_EQ(client->runs[0].code, "a = 1");
  EXPECT_EQ(client->runs[1].code, "b = 2");
  EXPECT_EQ(controller->pendingRuns(), 2);
  client->finishAll();
  EXPECT_EQ(controller->pendingRuns(), 0);
  view->select(2);
  controller->runAbove();
  ASSERT_EQ(client->runs.size(), 1u);
  EXPECT_EQ(client->runs[0].code, "a = 1");
}

TEST_F(KeyCommands, UpOnTheFirstLineMovesToThePreviousCellInEditMode) {
  model->setSource(2, "x = 1\ny = 2");
  view->select(2);
  view->enterEditMode();
  auto* editor = view->cellWidget(2)->editor();
  editor->setCursorPosition(1, 0);
  QTest::keyClick(editor, Qt::Key_Up);
  EXPECT_EQ(view->selectedIndex(), 2) << "the first Up moves inside the cell";
  QTest::keyClick(editor, Qt::Key_Up);
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(view->mode(), NotebookView::Mode::Edit);
}

TEST_F(KeyCommands, MoveCellKeepsItSelected) {
  press(Qt::Key_Down, Qt::ControlModifier | Qt::ShiftModifier);
  EXPECT_EQ(sources(), (QList<QString>{"# Notes", "a = 1", "b = 2"}));
  EXPECT_EQ(view->selectedIndex(), 1);
  EXPECT_EQ(view->cellWidget(1)->source(), "a = 1");
}
