// A big grid's launch is sampled by the trace policy; a program the user clicks that was not traced
// can be asked for, and the cell's next run (with the real worker) traces it.
#include <gtest/gtest.h>

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>

#include "tests/ui/UiTestSupport.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/WorkerProcessClient.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/ProgramGridView.h"

using tilescope::testing::waitUntil;
using tilescope::ui::ProgramId;

TEST(InspectorTraceRequest, AProgramOutsideTheSampleIsTracedOnTheNextRun) {
  tilescope::ui::MainWindow w;
  w.resize(1300, 900);
  w.show();
  auto* panel = w.inspectorDock()->panel();
  auto* client = w.executionClient();
  // 300 programs: the policy traces the first 256.
  const QString code =
      "import torch\nimport triton\nimport triton.language as tl\n"
      "@triton.jit\ndef scale(x_ptr, n, B: tl.constexpr):\n"
      "    i = tl.program_id(0) * B + tl.arange(0, B)\n"
      "    tl.store(x_ptr + i, tl.load(x_ptr + i, mask=i < n) * 2, mask=i < n)\n"
      "x = torch.ones(600)\nscale[(300,)](x, 600, 2)\n";
  w.model()->insertCell(0, tilescope::notebook::CellType::Code, code);
  const QString id = w.model()->cellId(0);
  w.notebookView()->select(0);
  QSignalSpy launched(client, &tilescope::ui::ExecutionClient::kernelLaunched);
  client->runCell(id, code, tilescope::ui::Backend::Simulator);
  ASSERT_TRUE(launched.wait(30000)) << "no launch reported";
  ASSERT_TRUE(waitUntil([&] { return panel->document() != nullptr; }, 10000));
  const ProgramId last{299, 0, 0};
  ASSERT_FALSE(panel->document()->isTraced(last));
  EXPECT_FALSE(panel->traceNextRunButton()->isVisible()) << "program 0 was traced";

  // Click the last program in the grid: not traced, and the panel says why and offers to trace it.
  auto* grid = panel->gridView();
  const QPointF at = grid->cellTopLeft(last) + QPointF(grid->cellSize() / 2, grid->cellSize() / 2);
  QTest::mouseClick(grid, Qt::LeftButton, {}, at.toPoint());
  ASSERT_EQ(panel->currentProgram(), last);
  EXPECT_TRUE(panel->programLabel()->text().contains("not traced")) << panel->programLabel()->text().toStdString();
  EXPECT_TRUE(panel->programLabel()->text().contains("the trace kept 256 of the launch's 300 programs"))
      << panel->programLabel()->text().toStdString();
  ASSERT_TRUE(panel->traceNextRunButton()->isVisible());
  QTest::mouseClick(panel->traceNextRunButton(), Qt::LeftButton);
  EXPECT_EQ(client->requestedTracePrograms(id), (std::vector<ProgramId>{last}));
  EXPECT_TRUE(panel->programLabel()->text().contains("will be traced when this cell runs again"));
  EXPECT_FALSE(panel->traceNextRunButton()->isEnabled());

  // Nothing ran again by itself; the user's next run traces the program.
  EXPECT_EQ(launched.size(), 1);
  launched.clear();
  client->runCell(id, code, tilescope::ui::Backend::Simulator);
  ASSERT_TRUE(launched.wait(30000)) << "no launch reported";
  ASSERT_TRUE(waitUntil([&] { return panel->document() != nullptr && panel->document()->isTraced(last); }, 10000));
  EXPECT_EQ(panel->document()->tracedPrograms().size(), 257u);
  EXPECT_EQ(panel->launchList()->item(0)->text(), "scale  grid (300, 1, 1)  simulator  257 programs traced");
  panel->selectProgram(last);
  EXPECT_FALSE(panel->traceNextRunButton()->isVisible());
  EXPECT_TRUE(panel->programLabel()->text().contains("1 loads, 1 stores")) << panel->programLabel()->text().toStdString();
}
