// The inspector's "Export stepping..." (ui/viz/SteppingExportDialog) driven with real clicks and
// keys: the frames are written off the UI thread as a PNG sequence or an animated GIF, the choices
// follow what is being stepped, and Cancel leaves nothing behind.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>

#include "core/sim/TraceWriter.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/viz/SeedTraces.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/SteppingExportDialog.h"

using tilescope::testing::waitUntil;
using tilescope::ui::InspectorPanel;
using tilescope::ui::KernelLaunch;
using tilescope::ui::SteppingExportDialog;

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

// Types into a line edit as a user would: select all, then the new text.
void typeInto(QLineEdit* edit, const QString& text) {
  edit->setFocus();
  QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(edit, text);
}

// Picks a combo box entry with the keyboard.
void pick(QComboBox* box, int index) {
  box->setFocus();
  while (box->currentIndex() < index) QTest::keyClick(box, Qt::Key_Down);
  while (box->currentIndex() > index) QTest::keyClick(box, Qt::Key_Up);
}

class SteppingExportDialogTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto lines = tilescope::viz::testing::seedLines(tilescope::viz::testing::kGuide);
    if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    if (!dir_.isValid()) GTEST_SKIP() << "no temporary folder";
    const auto traces = tilescope::viz::testing::copyTraces(*lines);
    ASSERT_EQ(traces.size(), 3u);
    panel_.resize(700, 800);
    panel_.show();
    panel_.showCell(QStringLiteral("cell"));
    panel_.addLaunch(QStringLiteral("cell"), launchOf(traces.back()));  // the fixed copy_k: 3 programs
    QApplication::processEvents();
  }
  // Clicks the grid tab's Export button and returns the dialog it opened.
  SteppingExportDialog* openDialog() {
    auto* button = panel_.findChild<QToolButton*>(QStringLiteral("exportStepping"));
    EXPECT_NE(button, nullptr);
    if (!button) return nullptr;
    QTest::mouseClick(button, Qt::LeftButton);
    auto* dialog = panel_.findChild<SteppingExportDialog*>();
    EXPECT_NE(dialog, nullptr);
    if (dialog) {
      EXPECT_TRUE(QTest::qWaitForWindowExposed(dialog));
    }
    return dialog;
  }
  QString path(const QString& name) const { return dir_.filePath(name); }

  InspectorPanel panel_;
  QTemporaryDir dir_;
};

TEST_F(SteppingExportDialogTest, ExportsEveryProgramAsAPngSequenceOffTheUiThread) {
  SteppingExportDialog* dialog = openDialog();
  ASSERT_NE(dialog, nullptr);
  pick(dialog->formatBox(), 1);
  typeInto(dialog->findChild<QLineEdit*>(QStringLiteral("exportTarget")), path(QStringLiteral("frames")));
  QSignalSpy finished(dialog, &SteppingExportDialog::finished);
  QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
  // Started and handed to a pool thread: the button waits for it.
  EXPECT_FALSE(dialog->exportButton()->isEnabled());
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_EQ(finished.at(0).at(0).toString(), QString());
  EXPECT_EQ(QDir(path(QStringLiteral("frames"))).entryList(QDir::Files),
            (QStringList{"frame-0001.png", "frame-0002.png", "frame-0003.png"}));
  EXPECT_TRUE(dialog->statusLabel()->text().startsWith(QStringLiteral("Wrote 3 frames to "))) << dialog->statusLabel()->text().toStdString();
  EXPECT_EQ(dialog->progressBar()->value(), dialog->progressBar()->maximum());
  EXPECT_TRUE(dialog->exportButton()->isEnabled());
}

TEST_F(SteppingExportDialogTest, MemoryOperationsOfTheSelectedProgramAsAGif) {
  if (!tilescope::ui::TraceDocument::gifExportAvailable()) GTEST_SKIP() << "built without giflib";
  panel_.selectProgram({2, 0, 0});
  SteppingExportDialog* dialog = openDialog();
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->viewBox()->isEnabled());
  pick(dialog->unitBox(), 1);
  EXPECT_NE(dialog->unitBox()->currentText().indexOf(QStringLiteral("(2, 0, 0)")), -1) << dialog->unitBox()->currentText().toStdString();
  // Operations change only the tiles view: the grid cannot be chosen.
  EXPECT_FALSE(dialog->viewBox()->isEnabled());
  EXPECT_EQ(dialog->viewBox()->currentIndex(), 0);
  typeInto(dialog->findChild<QLineEdit*>(QStringLiteral("exportTarget")), path(QStringLiteral("ops.gif")));
  QSignalSpy finished(dialog, &SteppingExportDialog::finished);
  QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_EQ(finished.at(0).at(0).toString(), QString());
  EXPECT_EQ(dialog->statusLabel()->text(), QStringLiteral("Wrote 2 frames to %1").arg(path(QStringLiteral("ops.gif"))));
  EXPECT_EQ(tilescope::testing::readBytes(path(QStringLiteral("ops.gif"))).left(6), QByteArray("GIF89a"));
}

TEST_F(SteppingExportDialogTest, CancelStopsTheExportAndLeavesNothing) {
  // A launch of 512 programs, exported at 4x: long enough to cancel while it runs.
  tilescope::viz::testing::TracedSession session;
  session.run(
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "@triton.jit\ndef bump(x_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    keep = offs < n\n"
      "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=keep) + 1, mask=keep)\n\n"
      "x = torch.zeros(8192)\nbump[(512,)](x, 8192, BLOCK=16)\n");
  const auto traces = session.takeTraces();
  ASSERT_EQ(traces.size(), 1u);
  panel_.addLaunch(QStringLiteral("cell"), launchOf(traces[0]));
  panel_.selectLaunch(1);
  SteppingExportDialog* dialog = openDialog();
  ASSERT_NE(dialog, nullptr);
  pick(dialog->formatBox(), 1);
  dialog->findChild<QDoubleSpinBox*>(QStringLiteral("exportScale"))->setValue(4);
  typeInto(dialog->findChild<QLineEdit*>(QStringLiteral("exportTarget")), path(QStringLiteral("big")));
  QSignalSpy finished(dialog, &SteppingExportDialog::finished);
  QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
  ASSERT_TRUE(dialog->cancelButton()->isEnabled());
  QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
  ASSERT_TRUE(finished.wait(30000));
  EXPECT_EQ(finished.at(0).at(0).toString(), QStringLiteral("cancelled"));
  EXPECT_EQ(dialog->statusLabel()->text(), QStringLiteral("Cancelled; nothing was written."));
  EXPECT_FALSE(QDir(path(QStringLiteral("big"))).exists());
}

TEST(SteppingExportDialog, TheButtonSaysWhatToPickWithoutATrace) {
  InspectorPanel panel;
  panel.show();
  auto* button = panel.findChild<QToolButton*>(QStringLiteral("exportStepping"));
  ASSERT_NE(button, nullptr);
  QTest::mouseClick(button, Qt::LeftButton);
  EXPECT_EQ(panel.findChild<SteppingExportDialog*>(), nullptr);
  EXPECT_EQ(panel.statusLabel()->text(), QStringLiteral("Pick a launch with a trace to export its stepping."));
}

}  // namespace
