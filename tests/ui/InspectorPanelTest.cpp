// The kernel inspector (ui/viz): real traces of the practitioners' guide's copy_k in the panel,
// driven with real mouse clicks; and the real worker reporting a cell's launches with their traces.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <cmath>
#include <QListWidget>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>

#include "core/sim/Grid.h"
#include "core/sim/TraceWriter.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/viz/SeedTraces.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/WorkerProcessClient.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/ProgramGridView.h"
#include "ui/viz/SceneView.h"
#include "ui/viz/ScenePainter.h"
#include "ui/viz/SourceLineMarker.h"
#include "ui/CellWidget.h"
#include "ui/CodeEditor.h"

using tilescope::testing::waitUntil;
using tilescope::ui::InspectorPanel;
using tilescope::ui::KernelLaunch;
using tilescope::ui::ProgramId;

namespace {

bool contains(const std::vector<std::string>& texts, const std::string& t) {
  return std::find(texts.begin(), texts.end(), t) != texts.end();
}

// The guide's three copy_k launches as the worker would send them.
std::vector<KernelLaunch> copyLaunches() {
  std::vector<KernelLaunch> out;
  const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
  if (!lines) return out;
  for (const auto& t : tilescope::viz::testing::copyTraces(*lines)) {
    KernelLaunch l;
    l.kernel = QString::fromStdString(t.kernelName);
    for (int i = 0; i < 3; ++i) l.grid[i] = t.grid[i];
    l.backend = QStringLiteral("simulator");
    l.tracedPrograms = static_cast<qint64>(t.programs.size());
    const std::string bytes = tilescope::sim::TraceWriter::write(t);
    l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    out.push_back(l);
  }
  return out;
}

class InspectorPanelTest : public ::testing::Test {
protected:
  void SetUp() override {
    launches_ = copyLaunches();
    if (launches_.empty()) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    panel_.resize(700, 800);
    panel_.show();
    panel_.showCell(QStringLiteral("cellA"));
    for (const KernelLaunch& l : launches_) panel_.addLaunch(QStringLiteral("cellA"), l);
    panel_.addLaunch(QStringLiteral("cellB"), launches_[0]);
    QApplication::processEvents();
  }
  // Clicks the centre of a program's cell in the grid.
  void clickProgram(const ProgramId& pid) {
    auto* grid = panel_.gridView();
    const QPointF topLeft = grid->cellTopLeft(pid);
    const double cell = grid->cellSize();
    QTest::mouseClick(grid, Qt::LeftButton, {}, (topLeft + QPointF(cell / 2, cell / 2)).toPoint());
  }
  std::vector<KernelLaunch> launches_;
  InspectorPanel panel_;
};

TEST_F(InspectorPanelTest, ListsTheCellsLaunchesAndFollowsTheSelectedCell) {
  ASSERT_EQ(panel_.launchList()->count(), 3);
  EXPECT_EQ(panel_.launchList()->item(0)->text(), "copy_k  grid (3, 1, 1)  simulator  3 programs traced");
  // The count follows launches as they arrive, not only when the cell is picked again.
  EXPECT_EQ(panel_.findChild<QLabel*>(QStringLiteral("launchTitle"))->text(), "Kernel launches of this cell (3):");
  panel_.showCell(QStringLiteral("cellB"));
  EXPECT_EQ(panel_.launchList()->count(), 1);
  panel_.showCell(QStringLiteral("cellC"));
  EXPECT_EQ(panel_.launchList()->count(), 0);
  EXPECT_EQ(panel_.document(), nullptr);
  panel_.showCell(QStringLiteral("cellA"));
  panel_.clearCell(QStringLiteral("cellA"));  // the cell runs again
  EXPECT_EQ(panel_.launchList()->count(), 0);
}

TEST_F(InspectorPanelTest, ClickingProgramTwoShowsOffsetsFourFiveAndItsVariables) {
  // Pick the fixed kernel (third launch) with a real click on its row.
  auto* list = panel_.launchList();
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(2)).center());
  ASSERT_NE(panel_.document(), nullptr);
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{0, 0, 0}));
  clickProgram({2, 0, 0});
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{2, 0, 0}));
  EXPECT_EQ(panel_.gridView()->selected(), (ProgramId{2, 0, 0}));
  EXPECT_TRUE(panel_.programLabel()->text().startsWith("pid (2, 0, 0): 1 loads, 1 stores, 0 masked-off lanes"))
      << panel_.programLabel()->text().toStdString();
  const auto texts = panel_.tilesView()->scene().texts();
  const auto offsets = std::find(texts.begin(), texts.end(), "offsets");
  ASSERT_NE(offsets, texts.end());
  EXPECT_EQ(std::vector<std::string>(offsets + 1, offsets + 3), (std::vector<std::string>{"4", "5"}));
  const auto mask = std::find(texts.begin(), texts.end(), "mask");
  ASSERT_NE(mask, texts.end());
  EXPECT_EQ(std::vector<std::string>(mask + 1, mask + 3), (std::vector<std::string>{"T", "T"}));
  EXPECT_TRUE(panel_.variablesView()->toPlainText().contains("offs = [4 5]")) << panel_.variablesView()->toPlainText().toStdString();
  EXPECT_TRUE(panel_.variablesView()->toPlainText().contains("mask = [True True]"));
  // The second operation is the store into z.
  auto* nextOp = panel_.findChild<QToolButton*>(QStringLiteral("nextOp"));
  ASSERT_NE(nextOp, nullptr);
  panel_.tabs()->setCurrentIndex(1);
  QTest::mouseClick(nextOp, Qt::LeftButton);
  EXPECT_EQ(panel_.currentMemoryOp(), 1);
  EXPECT_TRUE(panel_.tilesView()->scene().texts().front().find("store z_ptr") != std::string::npos);
}

TEST_F(InspectorPanelTest, HoverShowsAProgramsStats) {
  panel_.selectLaunch(1);
  auto* grid = panel_.gridView();
  const QPointF at = grid->cellTopLeft({1, 0, 0}) + QPointF(grid->cellSize() / 2, grid->cellSize() / 2);
  QTest::mouseMove(grid, at.toPoint());
  EXPECT_TRUE(waitUntil([&] { return !grid->hoverText().isEmpty(); }, 2000));
  EXPECT_EQ(grid->hoverText(), "pid (1, 0, 0): 1 loads, 1 stores, 4 masked-off lanes, 0 bytes moved");
}

TEST_F(InspectorPanelTest, StepAndPlayThroughThePrograms) {
  panel_.selectLaunch(2);
  auto* next = panel_.findChild<QToolButton*>(QStringLiteral("nextProgram"));
  auto* prev = panel_.findChild<QToolButton*>(QStringLiteral("prevProgram"));
  auto* play = panel_.findChild<QToolButton*>(QStringLiteral("playPrograms"));
  ASSERT_TRUE(next && prev && play);
  QTest::mouseClick(next, Qt::LeftButton);
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{1, 0, 0}));
  QTest::mouseClick(next, Qt::LeftButton);
  QTest::mouseClick(next, Qt::LeftButton);  // stays on the last program
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{2, 0, 0}));
  QTest::mouseClick(prev, Qt::LeftButton);
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{1, 0, 0}));
  QTest::mouseClick(play, Qt::LeftButton);
  EXPECT_TRUE(panel_.playing());
  // Play goes on to program 2, then wraps around to program 0.
  EXPECT_TRUE(waitUntil([&] { return panel_.currentProgram() == ProgramId{0, 0, 0}; }, 5000));
  QTest::mouseClick(play, Qt::LeftButton);
  EXPECT_FALSE(panel_.playing());
}

// Seen under Xvfb: the grid's colours came without their meaning in the app (the CLI's picture
// prints it). The legend follows the colouring picked with real keys in the colour menu.
TEST_F(InspectorPanelTest, TheGridSaysWhatItsColoursMean) {
  panel_.selectLaunch(2);
  auto* legend = panel_.findChild<QLabel*>(QStringLiteral("gridLegend"));
  ASSERT_TRUE(legend);
  EXPECT_EQ(legend->text(), "colour by program id");
  QComboBox* colors = panel_.coloringBox();
  colors->setFocus();
  QTest::keyClick(colors, Qt::Key_Down);  // launch order
  QTest::keyClick(colors, Qt::Key_Down);  // output tile
  QTest::keyClick(colors, Qt::Key_Down);  // bytes moved
  ASSERT_EQ(colors->currentText(), "Colour by bytes moved");
  EXPECT_TRUE(legend->text().startsWith("colour by bytes moved (loads and stores); darkest = ")) << legend->text().toStdString();
  panel_.selectLaunch(-1);
  EXPECT_EQ(legend->text(), "");
}

// Seen under Xvfb: while playing, the play button showed a box, as its pause sign (U+23F8) is in
// none of Debian's default fonts. Every stepping button's sign must be one its font can draw.
TEST_F(InspectorPanelTest, TheSteppingButtonsShowSignsTheirFontCanDraw) {
  panel_.selectLaunch(2);
  auto drawable = [](const QToolButton* b) {
    const QFontMetrics metrics(b->font());
    for (const char32_t c : b->text().toUcs4())
      if (!metrics.inFontUcs4(c)) return false;
    return !b->text().isEmpty();
  };
  for (const char* name : {"prevProgram", "playPrograms", "nextProgram"}) {
    auto* b = panel_.findChild<QToolButton*>(QString::fromLatin1(name));
    ASSERT_TRUE(b) << name;
    EXPECT_TRUE(drawable(b)) << name << ": " << b->text().toStdString();
  }
  auto* play = panel_.findChild<QToolButton*>(QStringLiteral("playPrograms"));
  const QString stopped = play->text();
  QTest::mouseClick(play, Qt::LeftButton);
  ASSERT_TRUE(panel_.playing());
  EXPECT_NE(play->text(), stopped) << "playing shows pause, not play";
  EXPECT_TRUE(drawable(play)) << "pause sign: " << play->text().toStdString();
  QTest::mouseClick(play, Qt::LeftButton);
  EXPECT_FALSE(panel_.playing());
  EXPECT_EQ(play->text(), stopped);
}

TEST_F(InspectorPanelTest, APidFilterInTheSeedsSyntaxLimitsStepping) {
  panel_.selectLaunch(2);
  auto* filter = panel_.pidFilterBox();
  filter->setFocus();
  QTest::keyClicks(filter, ">0");
  QTest::keyClick(filter, Qt::Key_Return);
  EXPECT_EQ(panel_.statusLabel()->text(), "2 traced program(s) match the pid filter.");
  auto* next = panel_.findChild<QToolButton*>(QStringLiteral("nextProgram"));
  auto* prev = panel_.findChild<QToolButton*>(QStringLiteral("prevProgram"));
  QTest::mouseClick(next, Qt::LeftButton);  // from program 0, which the filter leaves out
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{1, 0, 0}));
  QTest::mouseClick(prev, Qt::LeftButton);  // stays within the filter
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{1, 0, 0}));
  // A filter that does not parse says why and steps through everything.
  filter->clear();
  QTest::keyClicks(filter, "pid_7 > 1");
  QTest::keyClick(filter, Qt::Key_Return);
  EXPECT_TRUE(panel_.statusLabel()->text().startsWith("Pid filter: column")) << panel_.statusLabel()->text().toStdString();
  QTest::mouseClick(prev, Qt::LeftButton);
  EXPECT_EQ(panel_.currentProgram(), (ProgramId{0, 0, 0}));
}

TEST_F(InspectorPanelTest, VariablesTabDrawsTheNamedTilesOfTheSelectedProgram) {
  panel_.selectLaunch(2);
  clickProgram({2, 0, 0});
  panel_.tabs()->setCurrentIndex(2);
  EXPECT_EQ(panel_.tabs()->tabText(2), "Variables");
  EXPECT_EQ(panel_.loopStepBox()->maximum(), 1);  // copy_k has no loop
  const auto texts = panel_.variablesSceneView()->scene().texts();
  const auto offs = std::find_if(texts.begin(), texts.end(), [](const std::string& t) { return t.rfind("offs  i32 [2]", 0) == 0; });
  ASSERT_NE(offs, texts.end());
  EXPECT_EQ(std::vector<std::string>(offs + 1, offs + 3), (std::vector<std::string>{"4", "5"}));
}

TEST_F(InspectorPanelTest, ViewsExportAsPngAndSvg) {
  panel_.selectLaunch(0);
  QTemporaryDir dir;
  QString error;
  ASSERT_TRUE(tilescope::ui::exportScene(panel_.coverageView()->scene(), dir.filePath("c.svg"), &error)) << error.toStdString();
  EXPECT_TRUE(tilescope::testing::readBytes(dir.filePath("c.svg")).contains("never written: z_ptr[2:6] (4 elements)"));
  ASSERT_TRUE(tilescope::ui::exportScene(panel_.gridView()->scene(), dir.filePath("g.png"), &error)) << error.toStdString();
  QImage png(dir.filePath("g.png"));
  EXPECT_EQ(png.width(), static_cast<int>(2 * std::ceil(panel_.gridView()->scene().width())));
  EXPECT_FALSE(tilescope::ui::exportScene(panel_.gridView()->scene(), dir.filePath("g.gif"), &error));
  EXPECT_EQ(error.toStdString(), "Save as .png or .svg (got " + dir.filePath("g.gif").toStdString() + ").");
}

TEST_F(InspectorPanelTest, CoverageAndSwizzleTabs) {
  panel_.selectLaunch(0);  // the first buggy copy
  EXPECT_TRUE(contains(panel_.coverageView()->scene().texts(), "never written: z_ptr[2:6] (4 elements)"));
  auto* source = panel_.findChild<QComboBox*>(QStringLiteral("swizzleSource"));
  ASSERT_NE(source, nullptr);
  source->setCurrentIndex(1);
  EXPECT_TRUE(contains(panel_.swizzleView()->scene().texts(), "first 9 programs load 54 distinct blocks (27 of A, 27 of B)"));
  // copy_k stores to a 1-D tensor: the trace-derived view says why it has no tile order.
  source->setCurrentIndex(0);
  EXPECT_TRUE(contains(panel_.swizzleView()->scene().texts(),
                       "the kernel stores to no 2-D tensor, so there is no output-tile order to show"));
}

TEST_F(InspectorPanelTest, ColouringByMaskedLanesHatchesTheMaskedPrograms) {
  panel_.selectLaunch(1);
  auto* box = panel_.coloringBox();
  box->setCurrentIndex(box->findData(static_cast<int>(tilescope::ui::TraceDocument::Coloring::Masked)));
  const auto picture = panel_.document()->gridPicture(tilescope::ui::TraceDocument::Coloring::Masked, 32);
  EXPECT_EQ(picture.hatched, (std::vector<uint8_t>{0, 1, 1}));
  EXPECT_EQ(panel_.gridView()->grab().isNull(), false);
}

// A 3-D grid shows one pid_2 slice at a time; clicking a cell of slice 1 selects a program there.
TEST(InspectorPanel3d, SlicesOfAThreeDimensionalGrid) {
  tilescope::sim::LaunchTrace t;
  t.kernelName = "k3";
  t.grid = {2, 3, 2};
  t.totalPrograms = 12;
  const tilescope::sim::Grid g{2, 3, 2};
  for (int64_t id = 0; id < 12; ++id) {
    tilescope::sim::ProgramTrace p;
    p.pid = g.pidOf(id);
    p.linearId = id;
    t.programs.push_back(p);
  }
  const std::string bytes = tilescope::sim::TraceWriter::write(t);
  KernelLaunch l;
  l.kernel = "k3";
  l.grid[0] = 2, l.grid[1] = 3, l.grid[2] = 2;
  l.backend = "simulator";
  l.tracedPrograms = 12;
  l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
  InspectorPanel panel;
  panel.resize(600, 700);
  panel.show();
  panel.showCell("c");
  panel.addLaunch("c", l);
  auto* slice = panel.findChild<QSpinBox*>(QStringLiteral("gridSlice"));
  ASSERT_NE(slice, nullptr);
  EXPECT_TRUE(slice->isVisible());
  EXPECT_EQ(slice->maximum(), 1);
  slice->setValue(1);
  auto* grid = panel.gridView();
  const QPointF at = grid->cellTopLeft({1, 2, 1}) + QPointF(grid->cellSize() / 2, grid->cellSize() / 2);
  QTest::mouseClick(grid, Qt::LeftButton, {}, at.toPoint());
  EXPECT_EQ(panel.currentProgram(), (ProgramId{1, 2, 1}));
  // Stepping back to a program of slice 0 shows slice 0 again.
  panel.selectProgram({0, 0, 0});
  EXPECT_EQ(grid->slice(), 0);
  EXPECT_EQ(slice->value(), 0);
}

// The real worker traces a cell's launch and the window's inspector lists it.
TEST(InspectorDock, TheWorkerReportsACellsLaunchWithItsTrace) {
  tilescope::ui::MainWindow w;
  w.resize(1300, 800);
  w.show();
  auto* panel = w.inspectorDock()->panel();
  auto* model = w.model();
  const QString code =
      "import torch\nimport triton\nimport triton.language as tl\n"
      "@triton.jit\ndef copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):\n"
      "    offs = tl.program_id(0) * bs + tl.arange(0, bs)\n    mask = offs < n\n"
      "    tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask), mask)\n"
      "x = torch.arange(5)\nz = torch.zeros_like(x)\ncopy_k[(3,)](x, z, 5, 2)\n";
  model->insertCell(0, tilescope::notebook::CellType::Code, code);
  const QString id = model->cellId(0);
  QSignalSpy launched(w.executionClient(), &tilescope::ui::ExecutionClient::kernelLaunched);
  w.executionClient()->runCell(id, code, tilescope::ui::Backend::Simulator);
  ASSERT_TRUE(launched.wait(30000)) << "no launch reported";
  w.notebookView()->select(0);
  ASSERT_TRUE(waitUntil([&] { return panel->launchList()->count() == 1; }, 5000));
  EXPECT_EQ(panel->launchList()->item(0)->text(), "copy_k  grid (3, 1, 1)  simulator  3 programs traced");
  ASSERT_NE(panel->document(), nullptr);
  panel->selectProgram({2, 0, 0});
  EXPECT_TRUE(panel->variablesView()->toPlainText().contains("mask = [ True False]"))
      << panel->variablesView()->toPlainText().toStdString();
  // The current memory operation's line (the load and the store are both on line 8) is highlighted.
  auto* marker = w.inspectorDock()->lineMarker();
  ASSERT_NE(marker->markedEditor(), nullptr);
  EXPECT_EQ(marker->markedEditor(), w.notebookView()->cellWidget(id)->editor());
  EXPECT_EQ(marker->markedLine(), 8);
  EXPECT_TRUE(marker->markedEditor()->markersAtLine(7) & (1u << marker->markerNumber()));
  panel->showCell(QStringLiteral("another"));  // no launch selected: no highlight
  EXPECT_EQ(marker->markedEditor(), nullptr);
  EXPECT_FALSE(w.notebookView()->cellWidget(id)->editor()->markersAtLine(7) & (1u << marker->markerNumber()));
}

// The dock's place is remembered across windows.
TEST(InspectorDock, RemembersItsPlace) {
  {
    tilescope::ui::MainWindow w(new tilescope::testing::RecordingClient);
    w.show();
    w.addDockWidget(Qt::LeftDockWidgetArea, w.inspectorDock());
    w.close();
  }
  EXPECT_FALSE(QSettings().value(tilescope::ui::InspectorDock::kStateKey).toByteArray().isEmpty());
  tilescope::ui::MainWindow again(new tilescope::testing::RecordingClient);
  EXPECT_EQ(again.dockWidgetArea(again.inspectorDock()), Qt::LeftDockWidgetArea);
  QSettings().remove(tilescope::ui::InspectorDock::kStateKey);
}

// With no saved layout the notebook keeps most of the window: the docks' controls fit a narrow
// column (a dock of half the window wrapped every line of code in the cells).
TEST(InspectorDock, LeavesTheNotebookMostOfTheWindow) {
  QSettings().remove(tilescope::ui::InspectorDock::kStateKey);
  tilescope::ui::MainWindow w(new tilescope::testing::RecordingClient);
  w.resize(1100, 800);
  w.show();
  QApplication::processEvents();
  EXPECT_LE(w.inspectorDock()->minimumSizeHint().width(), 1100 * 36 / 100);
  EXPECT_GT(w.notebookView()->width(), w.inspectorDock()->width() * 5 / 4);
  w.close();
  QSettings().remove(tilescope::ui::InspectorDock::kStateKey);
}

}  // namespace
