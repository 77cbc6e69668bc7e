// Presentation scale for the inspector (ui/viz/PresentationScale): View > Inspector at Presentation
// Scale (Ctrl+Shift+P, pressed as a key) and presentation mode (F5) make the inspector's and the
// performance dock's fonts, grid cells and drawn views larger, and back; the choice is remembered.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFontInfo>
#include <QTabWidget>

#include "core/sim/TraceWriter.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/viz/SeedTraces.h"
#include "ui/MainWindow.h"
#include "ui/Preferences.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/PerformanceDock.h"
#include "ui/viz/PresentationScale.h"
#include "ui/viz/ProgramGridView.h"
#include "ui/viz/SceneView.h"

using tilescope::ui::InspectorPanel;
using tilescope::ui::MainWindow;
using tilescope::ui::Preferences;

namespace {

class InspectorPresentation : public ::testing::Test {
protected:
  void SetUp() override {
    const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
    if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    Preferences none;
    none.save();  // each test starts from the defaults (scale 1.8, inspector at normal size)
    window_ = std::make_unique<MainWindow>(new tilescope::testing::RecordingClient);
    window_->resize(1280, 900);
    window_->show();
    window_->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
    panel_ = window_->findChild<InspectorPanel*>();
    ASSERT_NE(panel_, nullptr);
    const auto t = tilescope::viz::testing::copyTraces(*lines).back();
    tilescope::ui::KernelLaunch l;
    l.kernel = QString::fromStdString(t.kernelName);
    for (int i = 0; i < 3; ++i) l.grid[i] = t.grid[i];
    l.backend = QStringLiteral("simulator");
    l.tracedPrograms = static_cast<qint64>(t.programs.size());
    const std::string bytes = tilescope::sim::TraceWriter::write(t);
    l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    panel_->showCell(QStringLiteral("cell"));
    panel_->addLaunch(QStringLiteral("cell"), l);
    QApplication::processEvents();
  }
  void TearDown() override { Preferences().save(); }

  double panelPoints() const { return QFontInfo(panel_->font()).pointSizeF(); }
  double appPoints() const { return QFontInfo(QApplication::font()).pointSizeF(); }

  std::unique_ptr<MainWindow> window_;
  InspectorPanel* panel_ = nullptr;
};

TEST_F(InspectorPresentation, CtrlShiftPScalesTheInspectorAndIsRemembered) {
  auto* action = window_->findChild<QAction*>(QStringLiteral("inspectorPresentationAction"));
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isChecked());
  const QSize tiles = panel_->tilesView()->sizeHint();
  const double cell = panel_->gridView()->cellSize();
  const double points = panelPoints();
  EXPECT_NEAR(points, appPoints(), 0.5);
  auto* performance = window_->findChild<tilescope::ui::PerformanceDock*>();
  ASSERT_NE(performance, nullptr);

  QTest::keyClick(window_.get(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
  EXPECT_TRUE(action->isChecked());
  EXPECT_NEAR(panelPoints(), points * 1.8, 0.6);
  EXPECT_NEAR(QFontInfo(performance->font()).pointSizeF(), appPoints() * 1.8, 0.6);
  EXPECT_NEAR(panel_->tilesView()->sizeHint().width(), tiles.width() * 1.8, 2);
  EXPECT_NEAR(panel_->tilesView()->sizeHint().height(), tiles.height() * 1.8, 2);
  EXPECT_DOUBLE_EQ(panel_->tilesView()->zoom(), 1.8);
  EXPECT_DOUBLE_EQ(panel_->coverageView()->zoom(), 1.8);
  QApplication::processEvents();
  EXPECT_GT(panel_->gridView()->cellSize(), cell * 1.3);  // cells grow where the dock has room
  EXPECT_TRUE(Preferences::load().inspectorPresentation);

  QTest::keyClick(window_.get(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
  EXPECT_FALSE(action->isChecked());
  EXPECT_NEAR(panelPoints(), points, 0.1);
  EXPECT_EQ(panel_->tilesView()->sizeHint(), tiles);
  QApplication::processEvents();
  EXPECT_DOUBLE_EQ(panel_->gridView()->cellSize(), cell);
  EXPECT_FALSE(Preferences::load().inspectorPresentation);
}

TEST_F(InspectorPresentation, PresentationModeShowsTheInspectorAtPresentationScale) {
  const QSize tiles = panel_->tilesView()->sizeHint();
  QTest::keyClick(window_.get(), Qt::Key_F5);
  ASSERT_TRUE(window_->presentationMode());
  EXPECT_NEAR(panelPoints(), appPoints() * 1.8, 0.6);
  EXPECT_NEAR(panel_->tilesView()->sizeHint().width(), tiles.width() * 1.8, 2);
  // Presentation mode alone is not remembered as the inspector's own choice.
  EXPECT_FALSE(Preferences::load().inspectorPresentation);
  QTest::keyClick(window_.get(), Qt::Key_F5);
  EXPECT_EQ(panel_->tilesView()->sizeHint(), tiles);
  EXPECT_NEAR(panelPoints(), appPoints(), 0.1);
}

TEST_F(InspectorPresentation, ARememberedChoiceAppliesToTheNextWindow) {
  Preferences p = Preferences::load();
  p.inspectorPresentation = true;
  p.presentationScale = 2.0;
  p.save();
  MainWindow next(new tilescope::testing::RecordingClient);
  auto* panel = next.findChild<InspectorPanel*>();
  ASSERT_NE(panel, nullptr);
  EXPECT_DOUBLE_EQ(tilescope::ui::PresentationScale::of(next.findChild<tilescope::ui::InspectorDock*>()), 2.0);
  EXPECT_DOUBLE_EQ(panel->tilesView()->zoom(), 2.0);
  auto* action = next.findChild<QAction*>(QStringLiteral("inspectorPresentationAction"));
  EXPECT_TRUE(action->isChecked());
  // Shown large first, then back to normal: the colour box is measured again, not kept large.
  next.show();
  QApplication::processEvents();
  const QSize large = panel->coloringBox()->sizeHint();
  action->trigger();
  EXPECT_DOUBLE_EQ(panel->tilesView()->zoom(), 1.0);
  EXPECT_LT(panel->coloringBox()->sizeHint().height(), large.height());
  EXPECT_LT(panel->coloringBox()->sizeHint().width(), large.width());
}

}  // namespace
