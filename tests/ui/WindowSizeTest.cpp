// Small screens (issue 28): the window never starts larger than the screen, and at 800x600 the
// toolbar collapses cleanly (icons without text, then its extension menu) instead of losing buttons
// off its right edge.
#include <gtest/gtest.h>

#include <QAction>
#include <QScreen>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>

#include "tests/ui/UiTestSupport.h"
#include "ui/MainWindow.h"
#include "ui/RecoveryStore.h"

using tilescope::ui::MainWindow;

namespace {
std::unique_ptr<MainWindow> window(const QTemporaryDir& dir) {
  return std::make_unique<MainWindow>(new tilescope::testing::RecordingClient,
                                      std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
}

// Every toolbar button (an action's widget) lies wholly inside the toolbar.
void expectEveryButtonInside(QToolBar* toolBar) {
  for (QAction* action : toolBar->actions()) {
    if (action->isSeparator()) continue;
    QWidget* button = toolBar->widgetForAction(action);
    ASSERT_NE(button, nullptr) << action->text().toStdString();
    EXPECT_TRUE(button->isVisible()) << action->text().toStdString() << " is hidden";
    EXPECT_TRUE(toolBar->rect().contains(button->geometry()))
        << action->text().toStdString() << " at x " << button->geometry().x() << ".." << button->geometry().right()
        << " is cut off by the toolbar (width " << toolBar->width() << ")";
  }
}
}  // namespace

TEST(WindowSize, TheWindowStartsNoLargerThanTheScreen) {
  QTemporaryDir dir;
  auto w = window(dir);
  const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
  w->show();
  QTest::qWait(50);
  EXPECT_LE(w->frameGeometry().width(), screen.width());
  EXPECT_LE(w->frameGeometry().height(), screen.height());
}

TEST(WindowSize, AtEightHundredPixelsEveryToolBarButtonStaysOnTheToolBar) {
  QTemporaryDir dir;
  auto w = window(dir);
  w->resize(800, 600);
  w->show();
  QTest::qWait(50);
  ASSERT_EQ(w->width(), 800) << "the window's minimum width is wider than a small screen";
  QToolBar* toolBar = w->toolBar();
  ASSERT_LE(toolBar->geometry().right(), w->width());
  expectEveryButtonInside(toolBar);
  EXPECT_EQ(toolBar->toolButtonStyle(), Qt::ToolButtonIconOnly) << "the names do not fit at 800 pixels";
}

TEST(WindowSize, WideWindowsShowTheButtonNamesAgain) {
  QTemporaryDir dir;
  auto w = window(dir);
  w->resize(800, 600);
  w->show();
  QTest::qWait(50);
  w->resize(1400, 900);
  QTest::qWait(50);
  EXPECT_EQ(w->toolBar()->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
  expectEveryButtonInside(w->toolBar());
}

TEST(WindowSize, PresentationModeAtEightHundredPixelsKeepsItsButtonReachable) {
  QTemporaryDir dir;
  auto w = window(dir);
  w->resize(800, 600);
  w->show();
  w->setPresentationMode(true);
  QTest::qWait(50);
  expectEveryButtonInside(w->toolBar());
  w->setPresentationMode(false);
  QTest::qWait(50);
  expectEveryButtonInside(w->toolBar());
}
