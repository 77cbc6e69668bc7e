#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "ui/CodeCellWidget.h"
#include "ui/MainWindow.h"
#include "ui/NotebookView.h"

using tilescope::ui::MainWindow;

namespace {
// The QApplication is made in UiTestMain.cpp; this only asserts it exists.
void app() { ASSERT_NE(QApplication::instance(), nullptr); }

void waitForProbe(MainWindow& w) {
  if (w.deviceProbeFinished()) return;
  QSignalSpy spy(&w, &MainWindow::deviceProbeDone);
  ASSERT_TRUE(spy.wait(20000)) << "the device probe never finished";
}
}  // namespace

TEST(MainWindow, OpensTheBundledExampleAsCells) {
  app();
  MainWindow w;
  const QString error = w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb");
  ASSERT_TRUE(error.isEmpty()) << error.toStdString();
  EXPECT_EQ(w.notebookView()->cellCount(), 6);
  auto* kernelCell = qobject_cast<tilescope::ui::CodeCellWidget*>(w.notebookView()->cellWidget(2));
  ASSERT_NE(kernelCell, nullptr);
  EXPECT_TRUE(kernelCell->source().startsWith("@triton.jit"));
  EXPECT_TRUE(w.windowTitle().startsWith("vector_add.ipynb"));
}

TEST(MainWindow, StatusBarReportsTheComputeDevice) {
  app();
  MainWindow w;
  waitForProbe(w);
  const QString status = w.deviceStatusText();
  // Either a real GPU with its architecture, or the plain simulator-mode sentence.
  EXPECT_TRUE(status.startsWith("No CUDA device - simulator mode") || status.contains("sm_")) << status.toStdString();
  EXPECT_TRUE(status.contains("NVRTC")) << status.toStdString();
}

TEST(MainWindow, CorruptNotebookIsReportedAndCurrentNotebookKept) {
  app();
  MainWindow w;
  ASSERT_TRUE(w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  QTemporaryDir dir;
  const QString bad = dir.filePath("broken.ipynb");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"cells\": [");
  f.close();
  const QString error = w.openNotebook(bad);
  EXPECT_TRUE(error.contains("not a valid notebook")) << error.toStdString();
  EXPECT_EQ(w.notebookView()->cellCount(), 6);
  EXPECT_TRUE(w.currentPath().endsWith("vector_add.ipynb"));
}

TEST(MainWindow, GrabProducesANonEmptyImage) {
  app();
  MainWindow w;
  w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb");
  w.show();
  waitForProbe(w);
  const QImage image = w.grab().toImage();
  ASSERT_FALSE(image.isNull());
  EXPECT_GE(image.width(), 800);
  // Not a blank picture: the rendered cells have many distinct colours.
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  EXPECT_GT(colours.size(), 10);
}
