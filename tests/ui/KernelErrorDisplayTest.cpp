// Issue 28, "Errors in kernels": with the real worker, a kernel that does not compile is reported
// by its cell's prompt number as a link, each message once, and marked (with a tooltip) at the spot
// in the kernel's own cell; the marks go when that cell is edited or the launching cell runs again.
#include <gtest/gtest.h>

#include <QHelpEvent>
#include <QLabel>
#include <QTemporaryDir>
#include <QToolTip>
#include <optional>

#include "tests/ui/UiTestSupport.h"
#include "ui/CodeCellWidget.h"
#include "ui/CodeEditor.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RecoveryStore.h"
#include "ui/TracebackLink.h"
#include "ui/WorkerProcessClient.h"

using tilescope::notebook::CellType;
using tilescope::testing::waitUntil;
using tilescope::ui::CodeCellWidget;
using tilescope::ui::CodeEditor;
using tilescope::ui::WorkerProcessClient;

namespace {
// Line 9 stores through `out_ptr + x` with x loaded as fp32: the checker refuses float offsets.
constexpr const char* kKernelCell =
    "import torch\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def shift(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    tl.store(out_ptr + x, x)\n";
constexpr const char* kLaunchCell =
    "x = torch.ones(16)\n"
    "out = torch.empty(16)\n"
    "shift[(1,)](x, out, BLOCK=16)\n";
constexpr const char* kMessage = "pointer offsets must be integers";

class KernelErrorWindow : public ::testing::Test {
protected:
  void SetUp() override {
    qunsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");  // the real host runtime
    worker = new WorkerProcessClient(TILESCOPE_CLI_PATH);
    window = std::make_unique<tilescope::ui::MainWindow>(worker,
                                                         std::make_unique<tilescope::ui::RecoveryStore>(recoveryDir.path()));
    tilescope::notebook::Notebook nb;
    nb.appendCell(CellType::Code, kKernelCell);
    nb.appendCell(CellType::Code, kLaunchCell);
    window->model()->reset(nb);
    window->resize(1000, 800);
    window->show();
  }
  CodeCellWidget* cell(int index) const { return qobject_cast<CodeCellWidget*>(window->notebookView()->cellWidget(index)); }
  QString outputText(int index) const {
    window->notebookView()->flushPendingOutputs();
    return cell(index)->outputArea()->plainText();
  }
  void run(int index) {
    window->notebookView()->select(index);
    window->notebookController()->runSelected();
  }
  bool waitForAllRuns() {
    return waitUntil([&] { return window->notebookController()->pendingRuns() == 0; }, 30000);
  }
  // Runs both cells; the second fails in the kernel of the first.
  void runBoth() {
    run(0);
    ASSERT_TRUE(waitForAllRuns());
    run(1);
    ASSERT_TRUE(waitForAllRuns());
    ASSERT_TRUE(waitUntil([&] { return outputText(1).contains("CompilationError"); })) << outputText(1).toStdString();
  }

  QTemporaryDir recoveryDir;
  WorkerProcessClient* worker = nullptr;  // owned by the window
  std::unique_ptr<tilescope::ui::MainWindow> window;
};
}  // namespace

TEST_F(KernelErrorWindow, TheErrorNamesTheKernelsCellByItsPromptNumberOnce) {
  runBoth();
  const QString text = outputText(1);
  EXPECT_FALSE(text.contains("<cell:")) << "no internal cell ids: " << text.toStdString();
  EXPECT_FALSE(text.contains(":0:0:")) << text.toStdString();
  EXPECT_EQ(text.count(kMessage), 1) << "each diagnostic once: " << text.toStdString();
  EXPECT_TRUE(text.contains("Cell [1], line 9, column 14")) << "the kernel's spot, in the reader's terms: " << text.toStdString();
  EXPECT_TRUE(text.contains("Cell [2], line 3, column 1: shift[(1,)](x, out, BLOCK=16)")) << text.toStdString();
  EXPECT_TRUE(text.contains("tl.store(out_ptr + x, x)")) << "the kernel's line is quoted: " << text.toStdString();

  // Both places are links that lead to the cell, like every traceback link.
  QLabel* label = nullptr;
  for (QLabel* l : cell(1)->outputArea()->findChildren<QLabel*>())
    if (l->property("plainText").toString().contains("CompilationError")) label = l;
  ASSERT_NE(label, nullptr);
  tilescope::ui::TracebackLink kernelSpot;
  kernelSpot.cell = 1;
  kernelSpot.line = 9;
  kernelSpot.column = 14;
  EXPECT_TRUE(label->text().contains(kernelSpot.href())) << label->text().toStdString();
  std::optional<tilescope::ui::TracebackLink> activated;
  QObject::connect(cell(1)->outputArea(), &tilescope::ui::OutputArea::locationActivated,
                   [&](const tilescope::ui::TracebackLink& link) { activated = link; });
  emit label->linkActivated(kernelSpot.href());
  ASSERT_TRUE(activated.has_value());
  EXPECT_EQ(activated->cell, 1);
  EXPECT_EQ(activated->line, 9);
}

TEST_F(KernelErrorWindow, TheSpotIsMarkedInTheKernelsOwnCellWithTheMessageAsTooltip) {
  runBoth();
  CodeEditor* kernel = cell(0)->editor();
  ASSERT_TRUE(waitUntil([&] { return kernel->diagnosticCount() > 0; })) << "the kernel's cell is marked, not only the launch";
  const QStringList messages = kernel->diagnosticMessages(9);
  ASSERT_EQ(messages.size(), 1) << messages.join(" | ").toStdString();
  EXPECT_TRUE(messages[0].startsWith("CompilationError: pointer offsets must be integers")) << messages[0].toStdString();
  EXPECT_TRUE(kernel->annotation(8).contains(kMessage)) << kernel->annotation(8).toStdString();
  EXPECT_EQ(kernel->SendScintilla(QsciScintilla::SCI_INDICATORALLONFOR,
                                  kernel->positionFromLineIndex(8, 13)) != 0, true)
      << "a squiggle under out_ptr at column 14";
  EXPECT_EQ(kernel->SendScintilla(QsciScintilla::SCI_INDICATORALLONFOR, kernel->positionFromLineIndex(8, 4)), 0)
      << "and not under tl.store before it";
  // The launch line says that the call came from there.
  const QStringList launch = cell(1)->editor()->diagnosticMessages(3);
  ASSERT_EQ(launch.size(), 1);
  EXPECT_EQ(launch[0], "called from here");

  // Hovering the marked line shows the message.
  const long position = kernel->positionFromLineIndex(8, 15);
  const QPoint at(static_cast<int>(kernel->SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, position)),
                  static_cast<int>(kernel->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, position)) + 2);
  QHelpEvent hover(QEvent::ToolTip, at, kernel->viewport()->mapToGlobal(at));
  QApplication::sendEvent(kernel->viewport(), &hover);
  EXPECT_TRUE(QToolTip::isVisible());
  EXPECT_TRUE(QToolTip::text().contains(kMessage)) << QToolTip::text().toStdString();
  QToolTip::hideText();
  ASSERT_TRUE(waitUntil([] { return !QToolTip::isVisible(); }));
  // A line without a mark has no tooltip.
  const long clean = kernel->positionFromLineIndex(6, 6);
  const QPoint cleanAt(static_cast<int>(kernel->SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, clean)),
                       static_cast<int>(kernel->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, clean)) + 2);
  QHelpEvent hoverClean(QEvent::ToolTip, cleanAt, kernel->viewport()->mapToGlobal(cleanAt));
  QApplication::sendEvent(kernel->viewport(), &hoverClean);
  EXPECT_FALSE(QToolTip::isVisible() && QToolTip::text().contains(kMessage));
}

TEST_F(KernelErrorWindow, MarksInTheKernelsCellGoWhenTheLaunchRunsAgainOrTheKernelIsEdited) {
  runBoth();
  CodeEditor* kernel = cell(0)->editor();
  ASSERT_TRUE(waitUntil([&] { return kernel->diagnosticCount() > 0; }));
  run(1);
  EXPECT_EQ(kernel->diagnosticCount(), 0) << "running the launch again starts with a clean kernel cell";
  ASSERT_TRUE(waitForAllRuns());
  ASSERT_TRUE(waitUntil([&] { return kernel->diagnosticCount() > 0; })) << "and the same error marks it again";
  kernel->setCursorPosition(8, 0);
  kernel->setFocus();
  QTest::keyClick(kernel, Qt::Key_Space);
  EXPECT_EQ(kernel->diagnosticCount(), 0) << "an edit clears the marks";
}

TEST_F(KernelErrorWindow, KernelNotesInTheStreamNameTheCellToo) {
  window->model()->setSource(0,
                             "import torch\n"
                             "import triton\n"
                             "import triton.language as tl\n"
                             "\n"
                             "@triton.jit\n"
                             "def fill(out_ptr, BLOCK: tl.constexpr):\n"
                             "    tl.static_print('block', BLOCK)\n"
                             "    tl.store(out_ptr + tl.arange(0, BLOCK), 1.0)\n");
  window->model()->setSource(1, "out = torch.empty(16)\nfill[(1,)](out, BLOCK=16)\n");
  run(0);
  ASSERT_TRUE(waitForAllRuns());
  run(1);
  ASSERT_TRUE(waitForAllRuns());
  ASSERT_TRUE(waitUntil([&] { return outputText(1).contains("static_print"); })) << outputText(1).toStdString();
  const QString text = outputText(1);
  EXPECT_TRUE(text.contains("Cell [1], line 7, column 5: note: static_print: block 16")) << text.toStdString();
  EXPECT_FALSE(text.contains("<cell:")) << text.toStdString();
}
