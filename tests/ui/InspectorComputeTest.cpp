// The inspector's Dot and Reduce tabs (ui/viz/ComputeView) on real traces of the seeds' naive
// matmul and softmax, driven with real clicks and keys; and, with the real worker, the code cell's
// highlighted line following the dot's line while the Dot tab is in front.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>

#include "core/sim/TraceWriter.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/viz/ComputeSeedTraces.h"
#include "ui/CellWidget.h"
#include "ui/CodeEditor.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/WorkerProcessClient.h"
#include "ui/viz/ComputeView.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/ProgramGridView.h"
#include "ui/viz/SceneView.h"
#include "ui/viz/SourceLineMarker.h"

using tilescope::testing::waitUntil;
using tilescope::ui::ComputeView;
using tilescope::ui::InspectorPanel;
using tilescope::ui::KernelLaunch;
using tilescope::ui::ProgramId;
namespace seeds = tilescope::viz::testing;

namespace {

KernelLaunch launchOf(const tilescope::sim::LaunchTrace& t) {
  KernelLaunch l;
  l.kernel = QString::fromStdString(t.kernelName);
  for (int i = 0; i < 3; ++i) l.grid[i] = t.grid[i];
  l.backend = QStringLiteral("simulator");
  l.tracedPrograms = static_cast<qint64>(t.programs.size());
  const std::string bytes = tilescope::sim::TraceWriter::write(t);
  l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
  return l;
}

bool hasText(const tilescope::ui::SceneView* view, const std::string& text) {
  const auto texts = view->scene().texts();
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

bool hasTextStartingWith(const tilescope::ui::SceneView* view, const std::string& prefix) {
  const auto texts = view->scene().texts();
  return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; });
}

class InspectorComputeTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto guide = seeds::seedLines(seeds::kGuide);
    const auto zero = seeds::seedLines(seeds::kZero);
    if (!guide || !zero) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    const auto matmul = seeds::naiveMatmulTraces(*guide);
    const auto softmax = seeds::softmaxTraces(*zero);
    ASSERT_EQ(matmul.size(), 1u);
    ASSERT_EQ(softmax.size(), 1u);
    panel_.resize(800, 900);
    panel_.show();
    panel_.showCell(QStringLiteral("cell"));
    panel_.addLaunch(QStringLiteral("cell"), launchOf(matmul[0]));
    panel_.addLaunch(QStringLiteral("cell"), launchOf(softmax[0]));
    QApplication::processEvents();
  }
  void clickTab(const QString& title) {
    QTabBar* bar = panel_.tabs()->tabBar();
    for (int i = 0; i < bar->count(); ++i)
      if (bar->tabText(i) == title) {
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
        ASSERT_EQ(panel_.tabs()->currentIndex(), i);
        return;
      }
    FAIL() << "no tab " << title.toStdString();
  }
  void clickProgram(const ProgramId& pid) {
    clickTab(QStringLiteral("Grid"));
    auto* grid = panel_.gridView();
    const double cell = grid->cellSize();
    QTest::mouseClick(grid, Qt::LeftButton, {}, (grid->cellTopLeft(pid) + QPointF(cell / 2, cell / 2)).toPoint());
  }
  InspectorPanel panel_;
};

TEST_F(InspectorComputeTest, DotTabWalksTheKStepsOfTheSelectedProgram) {
  clickTab(QStringLiteral("Dot"));
  ComputeView* dot = panel_.dotView();
  ASSERT_EQ(dot->stepCount(), 3);
  EXPECT_EQ(dot->currentStep(), 0);
  EXPECT_TRUE(dot->stepBox()->currentText().endsWith(", K step 1 of 3")) << dot->stepBox()->currentText().toStdString();
  EXPECT_TRUE(hasText(dot->sceneView(), "k = 0 .. 15 (K step 1 of 3, BK = 16)"));
  EXPECT_TRUE(hasText(dot->sceneView(), "A  fp32 [16, 16]  columns k 0..15"));
  // Next with the button, then the last step with the slider's End key.
  QTest::mouseClick(dot->findChild<QToolButton*>(QStringLiteral("dotNext")), Qt::LeftButton);
  EXPECT_EQ(dot->currentStep(), 1);
  EXPECT_EQ(dot->slider()->value(), 1);
  EXPECT_TRUE(hasText(dot->sceneView(), "k = 16 .. 31 (K step 2 of 3, BK = 16)"));
  dot->slider()->setFocus();
  QTest::keyClick(dot->slider(), Qt::Key_End);
  EXPECT_EQ(dot->currentStep(), 2);
  EXPECT_TRUE(dot->stepBox()->currentText().endsWith(", K step 3 of 3"));
  EXPECT_TRUE(hasText(dot->sceneView(), "acc after  fp32 [16, 16]"));
  // Another program, picked in the grid: the Dot tab follows it and stays at K step 3.
  clickProgram({1, 1, 0});
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{1, 1, 0}));
  // Hidden, the tab does not redraw (playing through programs does not pay for it)...
  EXPECT_TRUE(hasTextStartingWith(dot->sceneView(), "naive_matmul_k  pid (0, 0, 0)  tl.dot line "));
  EXPECT_TRUE(dot->stepBox()->currentText().endsWith(", K step 3 of 3"));
  // ...and draws the new program once shown.
  clickTab(QStringLiteral("Dot"));
  EXPECT_EQ(dot->currentStep(), 2);
  EXPECT_TRUE(hasTextStartingWith(dot->sceneView(), "naive_matmul_k  pid (1, 1, 0)  tl.dot line "));
  // The softmax launch has no dot: the tab says so instead of drawing.
  panel_.selectLaunch(1);
  EXPECT_EQ(dot->stepCount(), 0);
  EXPECT_FALSE(dot->slider()->isEnabled());
  EXPECT_TRUE(dot->sceneView()->scene().items().empty());
  EXPECT_EQ(dot->sceneView()->message(), "program (0, 0, 0) computed no tl.dot");
}

TEST_F(InspectorComputeTest, ReduceTabShowsTheRowMaxThenTheSum) {
  auto* list = panel_.launchList();
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
  ASSERT_NE(panel_.document(), nullptr);
  clickProgram({1, 0, 0});
  clickTab(QStringLiteral("Reduce"));
  ComputeView* reduce = panel_.reduceView();
  ASSERT_EQ(reduce->stepCount(), 2);
  EXPECT_TRUE(reduce->stepBox()->currentText().startsWith("tl.max axis 0, line "));
  EXPECT_TRUE(hasText(reduce->sceneView(), "tl.max over all 8 elements: one result"));
  EXPECT_TRUE(hasText(reduce->sceneView(), "9."));  // the row max of [2 9 5 1 8]
  // The combo box, driven from the keyboard, picks the sum.
  reduce->stepBox()->setFocus();
  QTest::keyClick(reduce->stepBox(), Qt::Key_Down);
  EXPECT_EQ(reduce->currentStep(), 1);
  EXPECT_EQ(reduce->slider()->value(), 1);
  EXPECT_TRUE(hasTextStartingWith(reduce->sceneView(), "softmax_kernel  pid (1, 0, 0)  tl.sum axis 0, line "));
}

// With the real worker: the highlighted line is the dot's while the Dot tab is in front, and the
// memory operation's again on the Tiles tab.
TEST(InspectorComputeDock, TheDotTabHighlightsTheDotsSourceLine) {
  tilescope::ui::MainWindow w;
  w.resize(1300, 800);
  w.show();
  auto* panel = w.inspectorDock()->panel();
  const QString code =
      "import torch\nimport triton\nimport triton.language as tl\n"
      "@triton.jit\ndef mm(a_ptr, b_ptr, c_ptr, K: tl.constexpr):\n"
      "    r = tl.arange(0, 16)\n    acc = tl.zeros((16, 16), dtype=tl.float32)\n"
      "    for k in range(0, K, 16):\n"
      "        a = tl.load(a_ptr + r[:, None] * K + k + r[None, :])\n"
      "        b = tl.load(b_ptr + (k + r[:, None]) * 16 + r[None, :])\n"
      "        acc += tl.dot(a, b)\n"
      "    tl.store(c_ptr + r[:, None] * 16 + r[None, :], acc)\n"
      "a = torch.ones((16, 32))\nb = torch.ones((32, 16))\nc = torch.empty((16, 16))\nmm[(1,)](a, b, c, K=32)\n";
  auto* model = w.model();
  model->insertCell(0, tilescope::notebook::CellType::Code, code);
  const QString id = model->cellId(0);
  QSignalSpy launched(w.executionClient(), &tilescope::ui::ExecutionClient::kernelLaunched);
  w.executionClient()->runCell(id, code, tilescope::ui::Backend::Simulator);
  ASSERT_TRUE(launched.wait(30000)) << "no launch reported";
  w.notebookView()->select(0);
  ASSERT_TRUE(waitUntil([&] { return panel->launchList()->count() == 1 && panel->document(); }, 5000));
  auto* marker = w.inspectorDock()->lineMarker();
  QTabBar* bar = panel->tabs()->tabBar();
  auto click = [&](const QString& title) {
    for (int i = 0; i < bar->count(); ++i)
      if (bar->tabText(i) == title) QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
  };
  click(QStringLiteral("Dot"));
  ASSERT_EQ(panel->dotView()->stepCount(), 2);
  EXPECT_EQ(marker->markedEditor(), w.notebookView()->cellWidget(id)->editor());
  EXPECT_EQ(marker->markedLine(), 11);  // acc += tl.dot(a, b)
  QTest::mouseClick(panel->dotView()->findChild<QToolButton*>(QStringLiteral("dotNext")), Qt::LeftButton);
  EXPECT_EQ(panel->dotView()->currentStep(), 1);
  EXPECT_EQ(marker->markedLine(), 11);
  EXPECT_TRUE(hasText(panel->dotView()->sceneView(), "k = 16 .. 31 (K step 2 of 2, BK = 16)"));
  click(QStringLiteral("Tiles"));
  EXPECT_EQ(marker->markedLine(), 9);  // the first memory operation: the load of a
}

}  // namespace
