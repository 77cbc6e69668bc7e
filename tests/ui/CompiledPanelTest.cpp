// The inspector's Compiled tab (ui/compiled/CompiledPanel) on the seed's vector add and grouped
// matmul, driven with real mouse and key events: hovering a load line lights its PTX loads, clicking
// a PTX store lights the store's source line, the IR pass selector keeps the link, and a kept
// compilation diffs against num_warps=8 with both register counts. Needs NVRTC (no GPU).
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/gpu/runtime/Nvrtc.h"
#include "core/testing/SeedSources.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/compiled/CodePane.h"
#include "ui/compiled/CompiledPanel.h"

using namespace tilescope;
using namespace tilescope::ui;
using Pane = CompiledDocument::Pane;

namespace {

CompiledDocument::Cells seedCells(const char* name) {
  std::ifstream in(std::filesystem::path(TILESCOPE_SEEDS_DIR) / name, std::ios::binary);
  const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CompiledDocument::Cells cells;
  int n = 0;
  for (const seeds::SeedPiece& p : seeds::seedPieces(md))
    cells.append({QStringLiteral("<cell:%1>").arg(++n), QString::fromStdString(p.code)});
  return cells;
}

// The first line (1-based) of the pane whose text holds `needle`; 0 when none.
int lineWith(CodePane* pane, const QString& needle, int from = 1) {
  for (QTextBlock b = pane->document()->findBlockByNumber(from - 1); b.isValid(); b = b.next())
    if (b.text().contains(needle)) return b.blockNumber() + 1;
  return 0;
}

// Where a line is on screen, after scrolling it into view.
QPoint pointOfLine(CodePane* pane, int line) {
  QTextCursor c(pane->document()->findBlockByNumber(line - 1));
  pane->setTextCursor(c);
  pane->centerCursor();
  QRect r = pane->cursorRect(c);
  return QPoint(r.left() + 40, r.center().y());
}

QString text(CodePane* pane, int line) { return pane->document()->findBlockByNumber(line - 1).text(); }

class CompiledPanelTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(std::filesystem::path(TILESCOPE_SEEDS_DIR) / "triton-from-zero.md"))
      GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    if (!gpu::Nvrtc::instance().available())
      GTEST_SKIP() << "NVRTC is not available, so there is no PTX to show: " << gpu::Nvrtc::instance().unavailableReason();
    panel_.resize(790, 560);  // inside the offscreen screen (800x600): events outside it are dropped
  }
  bool compiledNow() {
    return tilescope::testing::waitUntil([&] { return !panel_.busy() && !panel_.progressBar()->isVisible(); }, 60000);
  }
  CompiledPanel panel_;
};

}  // namespace

TEST_F(CompiledPanelTest, HoveringALoadLineLightsItsPtxLoadsAndAPtxStoreLeadsBackToTheStore) {
  panel_.setCellsProvider([] { return seedCells("triton-from-zero.md"); });
  panel_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel_));
  panel_.showKernel(QStringLiteral("add_kernel"));
  // A launch picked in the inspector compiles at once, on a pool thread behind the progress bar.
  EXPECT_TRUE(panel_.busy());
  EXPECT_TRUE(panel_.progressBar()->isVisible());
  ASSERT_TRUE(compiledNow());
  ASSERT_TRUE(panel_.document()) << panel_.statusLabel()->text().toStdString();
  EXPECT_TRUE(panel_.signatureEdit()->text().startsWith(QStringLiteral("*fp32,*fp32,*fp32,i32")))
      << panel_.signatureEdit()->text().toStdString();

  CodePane* source = panel_.pane(Pane::Source);
  CodePane* ptx = panel_.pane(Pane::Ptx);
  CodePane* cuda = panel_.pane(Pane::Cuda);
  const int load = lineWith(source, QStringLiteral("x = tl.load(x_ptr"));
  ASSERT_GT(load, 0);
  QTest::mouseMove(source->viewport(), pointOfLine(source, load));
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return !ptx->highlightedLines().isEmpty(); }, 2000));
  EXPECT_EQ(source->highlightedLines(), QList<int>{load});
  bool sawLoad = false;
  for (int l : ptx->highlightedLines()) {
    sawLoad |= text(ptx, l).contains(QStringLiteral("ld.global"));
    EXPECT_FALSE(text(ptx, l).contains(QStringLiteral("st.global"))) << text(ptx, l).toStdString();
  }
  EXPECT_TRUE(sawLoad);
  EXPECT_FALSE(cuda->highlightedLines().isEmpty());

  // The SASS comes after the other panes (a disassembler is a process start): its loads light up too,
  // or the pane says why there is no SASS.
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return !panel_.disassembling(); }, 60000));
  CodePane* sass = panel_.pane(Pane::Sass);
  if (panel_.document()->hasSass()) {
    QTest::mouseMove(source->viewport(), pointOfLine(source, load + 1));  // b's load, then back to a's
    QTest::mouseMove(source->viewport(), pointOfLine(source, load));
    ASSERT_TRUE(tilescope::testing::waitUntil([&] { return !sass->highlightedLines().isEmpty(); }, 2000));
    bool ldg = false;
    for (int l : sass->highlightedLines()) ldg |= text(sass, l).contains(QStringLiteral("LDG"));
    EXPECT_TRUE(ldg);
  } else {
    EXPECT_TRUE(text(sass, 1).contains(QStringLiteral("neither nvdisasm nor cuobjdump"))) << text(sass, 1).toStdString();
  }

  // The reverse: a click on a PTX store lights the store's source line.
  const int store = lineWith(ptx, QStringLiteral("st.global"));
  ASSERT_GT(store, 0);
  QTest::mouseClick(ptx->viewport(), Qt::LeftButton, {}, pointOfLine(ptx, store));
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return ptx->highlightedLines().contains(store); }, 2000));
  ASSERT_EQ(source->highlightedLines().size(), 1);
  EXPECT_TRUE(text(source, source->highlightedLines()[0]).contains(QStringLiteral("tl.store(")));

  // Another IR stage keeps the link: the store's IR line is lit in the checker's IR too.
  QComboBox* passes = panel_.irPassBox();
  ASSERT_GE(passes->count(), 2);
  EXPECT_EQ(passes->itemText(0), QStringLiteral("checker"));
  passes->setFocus();
  QTest::keyClick(passes, Qt::Key_Home);
  ASSERT_EQ(passes->currentIndex(), 0);
  CodePane* ir = panel_.pane(Pane::Ir);
  ASSERT_FALSE(ir->highlightedLines().isEmpty());
  bool irStore = false;
  for (int l : ir->highlightedLines()) irStore |= text(ir, l).contains(QStringLiteral("store "));
  EXPECT_TRUE(irStore);
}

TEST_F(CompiledPanelTest, AKeptCompilationDiffsAgainstEightWarpsWithBothRegisterCounts) {
  panel_.setCellsProvider([] { return seedCells("triton-practitioners-guide.md"); });
  panel_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel_));
  QComboBox* kernels = panel_.kernelBox();
  ASSERT_GE(kernels->findText(QStringLiteral("grouped_matmul_k")), 0);
  kernels->setCurrentIndex(kernels->findText(QStringLiteral("grouped_matmul_k")));
  QLineEdit* sig = panel_.signatureEdit();
  sig->setFocus();
  sig->selectAll();
  QTest::keyClicks(sig, QStringLiteral("*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,64,64,64,8"));
  QSpinBox* warps = panel_.warpsBox();
  warps->setFocus();
  warps->selectAll();
  QTest::keyClicks(warps, QStringLiteral("4"));
  QTest::mouseClick(panel_.compileButton(), Qt::LeftButton);
  ASSERT_TRUE(compiledNow());
  ASSERT_TRUE(panel_.document()) << panel_.statusLabel()->text().toStdString();
  QTest::mouseClick(panel_.keepButton(), Qt::LeftButton);
  ASSERT_TRUE(panel_.keptDocument());

  warps->setFocus();
  warps->selectAll();
  QTest::keyClicks(warps, QStringLiteral("8"));
  ASSERT_EQ(warps->value(), 8);
  sig->setFocus();
  QTest::keyClick(sig, Qt::Key_Return);  // Return in the signature compiles too
  ASSERT_TRUE(compiledNow());
  ASSERT_NE(panel_.document(), panel_.keptDocument());

  QTableWidget* diff = panel_.diffTable();
  QStringList regs, threads;
  for (int r = 0; r < diff->rowCount(); ++r) {
    const QString figure = diff->item(r, 0)->text();
    if (figure == QStringLiteral("registers per thread (ptxas)")) regs = {diff->item(r, 1)->text(), diff->item(r, 2)->text()};
    if (figure == QStringLiteral("threads per program")) threads = {diff->item(r, 1)->text(), diff->item(r, 2)->text()};
  }
  ASSERT_EQ(regs.size(), 2);
  EXPECT_GT(regs[0].toInt(), 0) << regs[0].toStdString();
  EXPECT_GT(regs[1].toInt(), 0) << regs[1].toStdString();
  EXPECT_EQ(threads, (QStringList{QStringLiteral("128"), QStringLiteral("256")}));
  EXPECT_TRUE(panel_.resourcesView()->toPlainText().contains(QStringLiteral("registers per thread")));

  // "Open in window": the same kernel and specialization in a window of its own, with the kept side.
  QTest::mouseClick(panel_.windowButton(), Qt::LeftButton);
  CompiledPanel* window = nullptr;
  for (QWidget* w : QApplication::topLevelWidgets())
    if (auto* p = qobject_cast<CompiledPanel*>(w); p && p != &panel_) window = p;
  ASSERT_NE(window, nullptr);
  EXPECT_TRUE(window->isWindow());
  EXPECT_EQ(window->warpsBox()->value(), 8);
  EXPECT_EQ(window->signatureEdit()->text(), sig->text());
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return !window->busy() && window->document(); }, 60000));
  EXPECT_EQ(window->document()->title(), panel_.document()->title());
  EXPECT_EQ(window->keptDocument(), panel_.keptDocument());
  window->close();
}

// Two edits of one kernel: the kept compilation against the kernel after its cell changed.
TEST_F(CompiledPanelTest, AKeptCompilationDiffsAgainstAnEditOfTheKernel) {
  auto code = std::make_shared<QString>(QStringLiteral(
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n"));
  panel_.setCellsProvider([code] { return CompiledDocument::Cells{{QStringLiteral("<cell:a>"), *code}}; });
  panel_.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel_));
  ASSERT_EQ(panel_.kernelBox()->currentText(), QStringLiteral("scale"));
  QLineEdit* sig = panel_.signatureEdit();
  sig->setFocus();
  sig->selectAll();
  QTest::keyClicks(sig, QStringLiteral("*fp32,*fp32,i32,256"));
  QTest::keyClick(sig, Qt::Key_Return);
  ASSERT_TRUE(compiledNow());
  ASSERT_TRUE(panel_.document()) << panel_.statusLabel()->text().toStdString();
  QTest::mouseClick(panel_.keepButton(), Qt::LeftButton);

  // The edit: the loaded values are squared before the store.
  code->replace(QStringLiteral("tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)"),
                QStringLiteral("v = tl.load(x_ptr + offs, mask=offs < n)\n    tl.store(out_ptr + offs, v * v, mask=offs < n)"));
  QTest::mouseClick(panel_.compileButton(), Qt::LeftButton);
  ASSERT_TRUE(compiledNow());
  ASSERT_TRUE(panel_.document()) << panel_.statusLabel()->text().toStdString();
  EXPECT_TRUE(panel_.document()->source().contains(QStringLiteral("v * v")));
  EXPECT_FALSE(panel_.keptDocument()->source().contains(QStringLiteral("v * v")));
  QTableWidget* diff = panel_.diffTable();
  bool ptxDiffers = false, sameSpecialization = false;
  for (int r = 0; r < diff->rowCount(); ++r) {
    const QString figure = diff->item(r, 0)->text();
    if (figure == QStringLiteral("PTX lines")) ptxDiffers = diff->item(r, 1)->text() != diff->item(r, 2)->text();
    if (figure == QStringLiteral("specialization")) sameSpecialization = diff->item(r, 1)->text() == diff->item(r, 2)->text();
  }
  EXPECT_TRUE(ptxDiffers);
  EXPECT_TRUE(sameSpecialization);
}
