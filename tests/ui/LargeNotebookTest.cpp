// Long notebooks (issue 28): cells are built as they come into view (so thousands of cells open at
// once), a cell built late shows what happened to it before (outputs, counts, [*]), and the view keeps
// its place while cells above it grow, so a cell scrolled to (`--cell N`) stays in view.
#include <gtest/gtest.h>

#include <QLabel>
#include <QScrollBar>
#include <QTemporaryDir>
#include <string>

#include "core/notebook/CellOutputs.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/CodeCellWidget.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RecoveryStore.h"

using tilescope::notebook::CellType;
using tilescope::testing::RecordingClient;
using tilescope::testing::waitUntil;
using tilescope::ui::CodeCellWidget;
using tilescope::ui::MainWindow;
using tilescope::ui::NotebookView;

namespace {
tilescope::notebook::Notebook codeCells(int count, const std::string& prefix = "value = ") {
  tilescope::notebook::Notebook nb;
  nb.cells.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    tilescope::notebook::Cell cell;
    cell.id = "cell" + std::to_string(i);
    cell.source = prefix + std::to_string(i);
    nb.cells.push_back(std::move(cell));
  }
  return nb;
}

// The part of a cell the view shows, in viewport coordinates (empty when out of view).
QRect shownPart(NotebookView* view, int index) {
  QWidget* cell = view->cellWidget(index);
  const QRect inViewport(cell->mapTo(view->viewport(), QPoint(0, 0)), cell->size());
  return inViewport.intersected(view->viewport()->rect());
}

class LargeNotebook : public ::testing::Test {
protected:
  void SetUp() override {
    client = new RecordingClient;
    window = std::make_unique<MainWindow>(client, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
    window->resize(1100, 800);
  }
  NotebookView* view() const { return window->notebookView(); }
  void settle() { QTest::qWait(100); }

  QTemporaryDir dir;
  RecordingClient* client = nullptr;
  std::unique_ptr<MainWindow> window;
};
}  // namespace

TEST_F(LargeNotebook, OnlyTheCellsInViewAreBuiltAndScrollingBuildsTheRest) {
  window->show();
  window->model()->reset(codeCells(3000));
  settle();
  EXPECT_EQ(view()->cellCount(), 3000);
  const int builtAtOpen = view()->builtCellCount();
  EXPECT_GT(builtAtOpen, 5) << "the first screen shows real cells";
  EXPECT_LT(builtAtOpen, 150) << "cells far below the view wait until they come into view";
  EXPECT_FALSE(shownPart(view(), 0).isEmpty());

  QScrollBar* bar = view()->verticalScrollBar();
  bar->setValue(bar->maximum());
  ASSERT_TRUE(waitUntil([&] { return view()->builtCellWidget(2999) != nullptr; }, 5000)) << "the last cell came into view";
  settle();
  bar->setValue(bar->maximum());
  settle();
  EXPECT_FALSE(shownPart(view(), 2999).isEmpty()) << "the end of the notebook is the end of the scroll range";
  EXPECT_EQ(view()->builtCellWidget(1500), nullptr) << "cells scrolled past are not built";
  EXPECT_LT(view()->builtCellCount(), builtAtOpen + 150);
}

TEST_F(LargeNotebook, ACellBuiltLateShowsItsRunStateOutputsAndCount) {
  window->show();
  window->model()->reset(codeCells(2000));
  settle();
  ASSERT_EQ(view()->builtCellWidget(1500), nullptr);
  window->notebookController()->runAll();
  ASSERT_EQ(client->runs.size(), 2000u) << "Run all runs cells whether they are built or not";
  const QString id = window->model()->cellId(1500);
  emit client->executionStarted(id, 1501);
  emit client->streamOutput(id, "stdout", "printed while not built\n");
  settle();
  EXPECT_EQ(view()->builtCellWidget(1500), nullptr) << "running does not build cells";
  auto* cell = qobject_cast<CodeCellWidget*>(view()->cellWidget(1500));
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->promptText(), "[*]:") << "still running";
  EXPECT_TRUE(cell->outputArea()->plainText().contains("printed while not built"));
  client->finishAll();
  EXPECT_EQ(cell->promptText(), "[1501]:");
  auto* unbuilt = qobject_cast<CodeCellWidget*>(view()->cellWidget(1700));
  EXPECT_EQ(unbuilt->promptText(), "[ ]:") << "finished while not built: no run state left behind";
}

// The view keeps showing the same place when cells above it change height (built, wrapped, given
// outputs): a cell scrolled into view, as `tilescope --cell N` does, stays there.
TEST_F(LargeNotebook, TheViewKeepsItsPlaceWhenCellsAboveGrow) {
  tilescope::notebook::Notebook nb = codeCells(80, "# a long comment that wraps in a narrow window " + std::string(160, '=') + "\nx = ");
  for (int i = 0; i < 80; i += 3) tilescope::notebook::appendStreamOutput(nb.cells[static_cast<size_t>(i)].outputs, "stdout", "line\nline\nline\n");
  window->model()->reset(nb);
  view()->select(47);  // before the window shows, as main() does for --cell 48
  window->show();
  settle();
  QRect shown = shownPart(view(), 47);
  ASSERT_FALSE(shown.isEmpty()) << "cell 48 is not in view: scrolled to " << view()->verticalScrollBar()->value()
                                << ", cell at " << view()->cellWidget(47)->y() << ", view height " << view()->viewport()->height();
  const int before = view()->cellWidget(47)->mapTo(view()->viewport(), QPoint(0, 0)).y();

  // A cell far above prints a lot: everything below it moves down, but the view follows.
  window->model()->appendStream(5, "stdout", QString("more output\n").repeated(40));
  view()->flushPendingOutputs();
  settle();
  ASSERT_GT(qobject_cast<CodeCellWidget*>(view()->cellWidget(5))->outputArea()->height(), 200);
  const int after = view()->cellWidget(47)->mapTo(view()->viewport(), QPoint(0, 0)).y();
  EXPECT_EQ(after, before) << "cell 48 moved in the view";
  EXPECT_FALSE(shownPart(view(), 47).isEmpty());
}

TEST_F(LargeNotebook, AtTheTopTheViewStaysAtTheTop) {
  window->model()->reset(codeCells(50));
  window->show();
  settle();
  ASSERT_EQ(view()->verticalScrollBar()->value(), 0);
  window->model()->appendStream(0, "stdout", QString("output\n").repeated(30));
  view()->flushPendingOutputs();
  settle();
  EXPECT_EQ(view()->verticalScrollBar()->value(), 0);
}

// Prompts have a fixed size (a new prompt text must not re-lay out the notebook); they still sit by
// the first line of a tall cell, as in Jupyter.
TEST_F(LargeNotebook, PromptsStayByTheFirstLineOfTallCells) {
  window->model()->reset(codeCells(3, "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\nx = "));
  window->show();
  settle();
  auto* cell = qobject_cast<CodeCellWidget*>(view()->cellWidget(1));
  QLabel* prompt = cell->findChild<QLabel*>("prompt");
  ASSERT_NE(prompt, nullptr);
  ASSERT_GT(cell->editor()->height(), 4 * prompt->height());
  EXPECT_LE(std::abs(prompt->mapTo(cell, QPoint(0, 0)).y() - cell->editor()->mapTo(cell, QPoint(0, 0)).y()), 4);
}
