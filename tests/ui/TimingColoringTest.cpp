// The program grid coloured by GPU program timing in the inspector (ui/viz/TimingColoringModes,
// TraceDocument::fromProgramTiming), on a synthetic timing line (no GPU here): the modes are greyed
// out with the reason for launches without timing, and colour a timed launch by duration and SM.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <sstream>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/sim/TraceWriter.h"
#include "core/viz/Palette.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/viz/SeedTraces.h"
#include "ui/MainWindow.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/PerformanceDock.h"
#include "ui/viz/ProgramGridView.h"
#include "ui/viz/TimelinePanel.h"
#include "ui/viz/TimingColoringModes.h"

using tilescope::ui::InspectorPanel;
using tilescope::ui::TimingColoringModes;
using tilescope::ui::TraceDocument;

namespace {

// A 2x2 launch: (0,0) and (0,1) on SM 3, (1,0) and (1,1) on SM 7; 2.0, 1.5, 1.5 and 2.4 us long.
QByteArray timingLine() {
  const int64_t grid[3] = {2, 2, 1};
  return QByteArray::fromStdString(
      tilescope::gpu::programTimingLine("add_kernel", 1, grid, {1000, 3000, 3, 1100, 2600, 7, 3000, 4500, 3, 2600, 5000, 7}));
}

int indexOf(const QComboBox* box, TraceDocument::Coloring c) { return box->findData(static_cast<int>(c)); }

// Picks the next entry of a combo box with the Down key, as a user would (greyed-out ones are skipped).
void pressDown(QComboBox* box) {
  box->setFocus();
  QTest::keyClick(box, Qt::Key_Down);
}

TEST(TimingColoring, WithoutTimingTheModesAreGreyedOutAndSayWhy) {
  const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  const auto t = tilescope::viz::testing::copyTraces(*lines).back();
  tilescope::ui::KernelLaunch l;
  l.kernel = QStringLiteral("copy_k");
  l.grid[0] = t.grid[0];
  l.backend = QStringLiteral("simulator");
  const std::string bytes = tilescope::sim::TraceWriter::write(t);
  l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
  InspectorPanel panel;
  panel.show();
  panel.showCell(QStringLiteral("c"));
  panel.addLaunch(QStringLiteral("c"), l);
  QComboBox* box = panel.coloringBox();
  const int duration = indexOf(box, TraceDocument::Coloring::Duration), sm = indexOf(box, TraceDocument::Coloring::Sm);
  ASSERT_GE(duration, 0);
  ASSERT_GE(sm, 0);
  EXPECT_FALSE(TimingColoringModes::enabled(box, duration));
  EXPECT_FALSE(TimingColoringModes::enabled(box, sm));
  EXPECT_EQ(box->itemData(duration, Qt::ToolTipRole).toString(), TimingColoringModes::unavailableReason());
  EXPECT_TRUE(TimingColoringModes::enabled(box, indexOf(box, TraceDocument::Coloring::Masked)));
  // From the last trace colouring, Down cannot reach them.
  box->setCurrentIndex(indexOf(box, TraceDocument::Coloring::Masked));
  pressDown(box);
  EXPECT_EQ(box->currentIndex(), indexOf(box, TraceDocument::Coloring::Masked));
}

TEST(TimingColoring, ATimedLaunchIsColouredByDurationThenBySm) {
  InspectorPanel panel;
  panel.resize(600, 700);
  panel.show();
  ASSERT_TRUE(panel.inspectProgramTiming(timingLine()));
  EXPECT_EQ(panel.cellId(), QLatin1String(InspectorPanel::kTimingCell));
  ASSERT_NE(panel.document(), nullptr);
  EXPECT_TRUE(panel.document()->hasTiming());
  QComboBox* box = panel.coloringBox();
  EXPECT_TRUE(TimingColoringModes::enabled(box, indexOf(box, TraceDocument::Coloring::Duration)));
  EXPECT_EQ(box->currentIndex(), indexOf(box, TraceDocument::Coloring::Duration));
  auto picture = panel.document()->gridPicture(TraceDocument::Coloring::Duration, 32);
  ASSERT_EQ(picture.colors.size(), 4u);
  EXPECT_EQ(picture.colors[3], tilescope::viz::palette::ramp(1));  // (1,1): the longest, 2.4 us
  EXPECT_EQ(picture.colors[1], tilescope::viz::palette::ramp(0));  // (1,0): 1.5 us
  EXPECT_EQ(picture.legend, QStringLiteral("colour by duration on the GPU: dark 1.50 us to yellow 2.40 us"));
  pressDown(box);
  EXPECT_EQ(box->currentIndex(), indexOf(box, TraceDocument::Coloring::Sm));
  picture = panel.document()->gridPicture(TraceDocument::Coloring::Sm, 32);
  EXPECT_EQ(picture.colors[1], tilescope::viz::palette::categorical(7));
  EXPECT_EQ(picture.colors[0], picture.colors[2]);  // both on SM 3
  EXPECT_EQ(panel.document()->programSummary({1, 1, 0}), QStringLiteral("pid (1, 1, 0): SM 7, 2.40 us (1.60 us to 4.00 us)"));
  // The grid's own scene (its export) draws the legend.
  const auto texts = panel.gridView()->scene().texts();
  EXPECT_NE(std::find(texts.begin(), texts.end(), "SM 7 (2)"), texts.end());
}

TEST(TimingColoring, ALineThatIsNotProgramTimingIsRefused) {
  InspectorPanel panel;
  EXPECT_FALSE(panel.inspectProgramTiming("{\"kernel\": 3}"));
  EXPECT_TRUE(panel.statusLabel()->text().startsWith(QStringLiteral("Program timing: "))) << panel.statusLabel()->text().toStdString();
  EXPECT_EQ(panel.document(), nullptr);
}

TEST(TimingColoring, TheSmTimelinesShowInInspectorButtonOpensTheLaunch) {
  tilescope::ui::MainWindow w(new tilescope::testing::RecordingClient);
  w.show();
  auto* timeline = w.findChild<tilescope::ui::TimelinePanel*>();
  ASSERT_NE(timeline, nullptr);
  QString error;
  auto doc = TraceDocument::fromProgramTiming(timingLine(), &error);
  ASSERT_NE(doc, nullptr) << error.toStdString();
  std::istringstream in(timingLine().toStdString());
  timeline->setLaunches(tilescope::gpu::readProgramTiming(in, "t.jsonl"));
  auto* button = timeline->findChild<QPushButton*>(QStringLiteral("timingToInspector"));
  ASSERT_NE(button, nullptr);
  w.findChild<tilescope::ui::PerformanceDock*>()->raise();
  QApplication::processEvents();
  QTest::mouseClick(button, Qt::LeftButton);
  auto* panel = w.findChild<InspectorPanel*>();
  ASSERT_NE(panel->document(), nullptr);
  EXPECT_TRUE(panel->document()->hasTiming());
  EXPECT_EQ(panel->document()->kernelName(), QStringLiteral("add_kernel"));
  EXPECT_EQ(panel->launchList()->count(), 1);
  // Pressed again after looking at a cell: the same launch comes back, not a second copy.
  panel->showCell(QStringLiteral("some cell"));
  QTest::mouseClick(button, Qt::LeftButton);
  EXPECT_EQ(panel->cellId(), QLatin1String(InspectorPanel::kTimingCell));
  EXPECT_EQ(panel->launchList()->count(), 1);
  EXPECT_TRUE(panel->document() && panel->document()->hasTiming());
}

}  // namespace
