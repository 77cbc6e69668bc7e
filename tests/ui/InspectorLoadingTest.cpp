// The inspector reads a large trace off the UI thread: the panel says it is loading, the event loop
// (timers, clicks) runs meanwhile, and the views appear when the reading is done.
#include <gtest/gtest.h>

#include <QLabel>
#include <QListWidget>
#include <QThreadPool>
#include <QTimer>

#include "core/sim/Grid.h"
#include "core/sim/TraceWriter.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/SceneView.h"

using tilescope::testing::waitUntil;
using tilescope::ui::InspectorPanel;
using tilescope::ui::KernelLaunch;
using tilescope::ui::ProgramId;

namespace {

// `programs` programs of a 1-D grid, each loading 256 values at scattered offsets (not affine, so
// the binary format cannot shrink them): about 3 KiB per program.
KernelLaunch scatteredLoads(int64_t programs) {
  using namespace tilescope::sim;
  LaunchTrace t;
  t.kernelName = "gather";
  t.grid = {programs, 1, 1};
  t.totalPrograms = programs;
  t.valuesRecorded = true;
  t.policy = "all " + std::to_string(programs) + " programs that ran are traced";
  t.tensors = {{1, "x", tilescope::ir::DType::FP32, {programs * 256}}};
  t.args = {{"x_ptr", 1, tilescope::ir::DType::FP32, ""}};
  t.locations = {{"gather.py", 4, 9, 4, 30}};
  for (int64_t id = 0; id < programs; ++id) {
    ProgramTrace p;
    p.pid = {id, 0, 0};
    p.linearId = id;
    MemAccessEvent e;
    e.kind = MemOpKind::Load;
    e.argIndex = 0;
    e.tensorId = 1;
    e.shape = {256};
    auto values = std::make_shared<Tile>(tilescope::ir::DType::FP32, false, tilescope::ir::Shape{256});
    for (int64_t l = 0; l < 256; ++l) {
      e.offsets.push_back(id * 256 + (l * 37) % 256);
      values->floats()[l] = static_cast<double>(l) * 0.5;
    }
    e.values = values;
    p.events.push_back(std::move(e));
    t.programs.push_back(std::move(p));
  }
  const std::string bytes = TraceWriter::write(t);
  KernelLaunch l;
  l.kernel = "gather";
  l.grid[0] = programs;
  l.backend = "simulator";
  l.tracedPrograms = programs;
  l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
  return l;
}

}  // namespace

TEST(InspectorLoading, ALargeTraceIsReadWhileTheEventLoopRuns) {
  const KernelLaunch big = scatteredLoads(8192);
  ASSERT_GT(big.trace.size(), qsizetype{16} << 20) << "the trace must be one that takes a while to read";
  InspectorPanel panel;
  panel.resize(700, 800);
  panel.show();
  panel.showCell("c");
  panel.addLaunch("c", big);
  // addLaunch came back without reading the trace; the panel says what it is doing.
  EXPECT_TRUE(panel.loading());
  EXPECT_EQ(panel.document(), nullptr);
  EXPECT_TRUE(panel.statusLabel()->text().startsWith("Loading the trace")) << panel.statusLabel()->text().toStdString();
  EXPECT_EQ(panel.coverageView()->message().toStdString(), "Loading the trace\u2026");
  bool timerRan = false, stillLoadingThen = false;
  QTimer::singleShot(0, &panel, [&] {
    timerRan = true;
    stillLoadingThen = panel.loading();
  });
  ASSERT_TRUE(waitUntil([&] { return panel.document() != nullptr; }, 60000)) << "the trace never finished loading";
  // The timer came due while the trace was being read, and ran then.
  EXPECT_TRUE(timerRan);
  EXPECT_TRUE(stillLoadingThen);
  EXPECT_FALSE(panel.loading());
  EXPECT_EQ(panel.document()->tracedPrograms().size(), 8192u);
  EXPECT_EQ(panel.currentProgram(), (ProgramId{0, 0, 0}));
  EXPECT_EQ(panel.statusLabel()->text(), "all 8192 programs that ran are traced");
  EXPECT_FALSE(panel.coverageView()->scene().items().empty());  // built on the pool thread with the document
}

// Clicking another launch while a large one loads shows that one at once; the large trace, when it
// is read, does not take the views back. Picking it later shows it without reading it again.
TEST(InspectorLoading, ClickingAnotherLaunchWhileOneLoads) {
  InspectorPanel panel;
  panel.resize(700, 800);
  panel.show();
  panel.showCell("c");
  panel.addLaunch("c", scatteredLoads(8192));
  panel.addLaunch("c", scatteredLoads(4));
  ASSERT_TRUE(panel.loading());
  auto* list = panel.launchList();
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
  ASSERT_NE(panel.document(), nullptr);
  EXPECT_FALSE(panel.loading());
  EXPECT_EQ(panel.document()->tracedPrograms().size(), 4u);
  QThreadPool::globalInstance()->waitForDone();
  QCoreApplication::processEvents();
  EXPECT_EQ(panel.document()->tracedPrograms().size(), 4u);
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
  EXPECT_FALSE(panel.loading());
  ASSERT_NE(panel.document(), nullptr);
  EXPECT_EQ(panel.document()->tracedPrograms().size(), 8192u);
}

// A cell that runs again while its trace loads drops the old launch; the late result is ignored.
TEST(InspectorLoading, ACellClearedWhileItsTraceLoads) {
  InspectorPanel panel;
  panel.show();
  panel.showCell("c");
  panel.addLaunch("c", scatteredLoads(8192));
  ASSERT_TRUE(panel.loading());
  panel.clearCell("c");
  EXPECT_FALSE(panel.loading());
  QThreadPool::globalInstance()->waitForDone();
  QCoreApplication::processEvents();
  EXPECT_EQ(panel.document(), nullptr);
  EXPECT_EQ(panel.launchList()->count(), 0);
}
