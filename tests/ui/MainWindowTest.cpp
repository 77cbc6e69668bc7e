#include <gtest/gtest.h>

#include <memory>

#include <QApplication>
#include <QFile>
#include <QFontInfo>
#include <Qsci/qscilexer.h>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>

#include "tests/ui/UiTestSupport.h"
#include "ui/BackendSelector.h"
#include "ui/CodeCellWidget.h"
#include "ui/MarkdownCellWidget.h"
#include "ui/NotebookController.h"
#include "ui/RecoveryStore.h"
#include "ui/NotebookModel.h"
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

// A markdown cell is laid out at its final width once the window shows: no blank space below its
// text (the first layout, made before the notebook gave the cell its width, was narrow and tall).
TEST(MainWindow, OpenedMarkdownCellsFitTheirText) {
  app();
  MainWindow w;
  ASSERT_TRUE(w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  w.resize(1100, 800);
  w.show();
  QApplication::processEvents();
  auto* title = qobject_cast<tilescope::ui::MarkdownCellWidget*>(w.notebookView()->cellWidget(0));
  ASSERT_NE(title, nullptr);
  ASSERT_TRUE(title->isRendered());
  QTextDocument* doc = title->renderer()->document();
  EXPECT_EQ(static_cast<int>(doc->textWidth()), title->renderer()->viewport()->width());
  EXPECT_NEAR(title->renderer()->height(), doc->size().height() + 4, 2.0);
  // The stale layout was the one made at a fraction of the final width: the cell must be shorter
  // than its own text laid out at half the width.
  std::unique_ptr<QTextDocument> narrow(doc->clone());
  narrow->setTextWidth(doc->textWidth() / 2);
  EXPECT_LT(title->renderer()->height(), narrow->size().height()) << "laid out at the final width, not a narrow one";
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
  w.resize(1100, 800);  // the usual size: by default the window fits the offscreen screen (800x600)
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

TEST(MainWindow, GpuBackendIsDisabledWithTheReasonWhenThereIsNoDevice) {
  app();
  MainWindow w(new tilescope::testing::RecordingClient);
  waitForProbe(w);
  auto* selector = w.backendSelector();
  if (w.deviceStatusText().startsWith("No CUDA device")) {
    EXPECT_FALSE(selector->gpuSelectable());
    const QString tip = selector->itemData(1, Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.startsWith("No GPU available: No CUDA device")) << tip.toStdString();
    selector->setBackend(tilescope::ui::Backend::Gpu);
    EXPECT_NE(selector->backend(), tilescope::ui::Backend::Gpu);
  } else {
    EXPECT_TRUE(selector->gpuSelectable());
  }
  selector->setBackend(tilescope::ui::Backend::Simulator);
  EXPECT_EQ(selector->backend(), tilescope::ui::Backend::Simulator);
}

TEST(MainWindow, RunUsesTheSelectedBackend) {
  app();
  auto* client = new tilescope::testing::RecordingClient;
  MainWindow w(client);
  w.backendSelector()->setBackend(tilescope::ui::Backend::Simulator);
  w.notebookController()->runSelected();
  ASSERT_EQ(client->runs.size(), 1u);
  EXPECT_EQ(client->runs[0].backend, tilescope::ui::Backend::Simulator);
}

TEST(MainWindow, PresentationModeShowsOneLargeCell) {
  app();
  MainWindow w(new tilescope::testing::RecordingClient);
  ASSERT_TRUE(w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  w.show();
  auto* view = w.notebookView();
  const double normalSize = view->appearance().editorFont.pointSizeF();
  w.setPresentationMode(true);
  EXPECT_GT(view->appearance().editorFont.pointSizeF(), normalSize * 1.5);
  int visible = 0;
  for (int i = 0; i < view->cellCount(); ++i) visible += view->cellWidget(i)->isVisible() ? 1 : 0;
  EXPECT_EQ(visible, 1);
  EXPECT_TRUE(view->cellWidget(0)->isVisible());
  QTest::keyClick(view, Qt::Key_J);
  EXPECT_TRUE(view->cellWidget(1)->isVisible());
  EXPECT_FALSE(view->cellWidget(0)->isVisible());
  w.setPresentationMode(false);
  for (int i = 0; i < view->cellCount(); ++i) EXPECT_TRUE(view->cellWidget(i)->isVisible());
  EXPECT_DOUBLE_EQ(view->appearance().editorFont.pointSizeF(), normalSize);
}

TEST(MainWindow, DarkThemeRecoloursTheWindow) {
  app();
  MainWindow w(new tilescope::testing::RecordingClient);
  tilescope::ui::Preferences p;
  p.theme = "dark";
  w.applyPreferences(p);
  EXPECT_LT(QApplication::palette().color(QPalette::Window).lightness(), 80);
  EXPECT_TRUE(w.notebookView()->appearance().theme.dark);
  p.theme = "light";
  w.applyPreferences(p);
  EXPECT_GT(QApplication::palette().color(QPalette::Window).lightness(), 200);
}

TEST(MainWindow, TitleShowsUnsavedChanges) {
  app();
  MainWindow w(new tilescope::testing::RecordingClient);
  EXPECT_TRUE(w.windowTitle().startsWith("Untitled.ipynb"));
  EXPECT_FALSE(w.isWindowModified());
  w.model()->setSource(0, "x = 1");
  EXPECT_TRUE(w.isWindowModified());
}

TEST(MainWindow, FontSizesFromPreferencesReachEditorsAndOutputs) {
  app();
  MainWindow w(new tilescope::testing::RecordingClient);
  ASSERT_TRUE(w.openNotebook(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  tilescope::ui::Preferences p;
  p.editorPointSize = 17;
  p.outputPointSize = 13;
  p.markdownPointSize = 15;
  w.applyPreferences(p);
  const auto& appearance = w.notebookView()->appearance();
  EXPECT_DOUBLE_EQ(appearance.editorFont.pointSizeF(), 17);
  EXPECT_DOUBLE_EQ(appearance.outputFont.pointSizeF(), 13);
  EXPECT_DOUBLE_EQ(appearance.markdownFont.pointSizeF(), 15);
  auto* code = qobject_cast<tilescope::ui::CodeCellWidget*>(w.notebookView()->cellWidget(2));
  ASSERT_NE(code, nullptr);
  // QScintilla keeps fonts per lexer style; the default style is what plain code uses.
  EXPECT_DOUBLE_EQ(code->editor()->lexer()->defaultFont().pointSizeF(), 17);
  EXPECT_TRUE(QFontInfo(appearance.outputFont).fixedPitch());
}

// The preference for the simulator's threads reaches the workers through the environment they
// inherit (TILESCOPE_SIM_THREADS); "every CPU" (0) gives back what the app was started with.
TEST(MainWindow, SimulatorThreadsPreferenceSetsTheWorkersEnvironment) {
  app();
  const QByteArray before = qgetenv("TILESCOPE_SIM_THREADS");
  MainWindow w(new tilescope::testing::RecordingClient);
  tilescope::ui::Preferences p;
  p.simulatorThreads = 3;
  w.applyPreferences(p);
  EXPECT_EQ(qgetenv("TILESCOPE_SIM_THREADS"), QByteArray("3"));
  p.simulatorThreads = 0;
  w.applyPreferences(p);
  EXPECT_EQ(qgetenv("TILESCOPE_SIM_THREADS"), before);
}
