#include <gtest/gtest.h>

#include <QApplication>
#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextTable>
#include <QDir>
#include <QSignalSpy>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/MarkdownCellWidget.h"
#include "ui/MarkdownText.h"
#include "ui/NotebookResourceDocument.h"
#include "tests/ui/UiTestSupport.h"

using tilescope::ui::Appearance;
using tilescope::ui::MarkdownCellWidget;
using tilescope::ui::markdownWithLiteralMath;
using tilescope::testing::waitUntil;

namespace {
tilescope::notebook::Cell markdownCell(const std::string& source) {
  tilescope::notebook::Cell cell;
  cell.id = "m1";
  cell.type = tilescope::notebook::CellType::Markdown;
  cell.source = source;
  return cell;
}
}  // namespace

TEST(MarkdownText, MathIsKeptLiterally) {
  EXPECT_EQ(markdownWithLiteralMath("costs $a_i * b_j$ here"), "costs $a\\_i \\* b\\_j$ here");
  EXPECT_EQ(markdownWithLiteralMath("$$\\sum_i x$$"), "$$\\\\sum\\_i x$$");
  EXPECT_EQ(markdownWithLiteralMath("price: 5$ only"), "price: 5$ only") << "a lone dollar is not math";
  EXPECT_EQ(markdownWithLiteralMath("`$a_b$` stays code"), "`$a_b$` stays code");
  EXPECT_EQ(markdownWithLiteralMath("```\n$x_1$\n```"), "```\n$x_1$\n```");
  EXPECT_EQ(markdownWithLiteralMath("$$\nx_1 * y\n$$"), "$$\nx\\_1 \\* y\n$$");
}

TEST(MarkdownCell, RendersHeadingsListsCodeAndTables) {
  MarkdownCellWidget cell(markdownCell("# Title\n\n- one\n- two\n\nCall `code()` here.\n\n```\nblock()\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                                       "Math: $a_i * b_j$"),
                          Appearance{}, "/tmp", /*startRendered=*/true);
  cell.resize(600, 400);
  ASSERT_TRUE(cell.isRendered());
  QTextDocument* doc = cell.renderer()->document();
  const QString text = doc->toPlainText();
  EXPECT_TRUE(text.contains("Title"));
  EXPECT_FALSE(text.contains("# Title")) << "the heading is rendered, not shown as source";
  EXPECT_EQ(doc->firstBlock().blockFormat().headingLevel(), 1);
  EXPECT_TRUE(text.contains("block()"));
  EXPECT_TRUE(text.contains("a_i * b_j")) << "math stays plain text: " << text.toStdString();
  bool sawList = false;
  bool sawTable = false;
  for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
    if (block.textList()) sawList = true;
    if (QTextCursor(block).currentTable()) sawTable = true;
  }
  EXPECT_TRUE(sawList);
  EXPECT_TRUE(sawTable);
  // Code is set in the editor's monospace font, not just marked "fixed pitch".
  const int codeAt = text.indexOf("code()");
  QTextCursor cursor(doc);
  cursor.setPosition(codeAt + 1);
  EXPECT_EQ(cursor.charFormat().fontFamilies().toStringList().value(0), Appearance{}.editorFont.family());
  EXPECT_FALSE(cell.editor()->isVisible());
}

TEST(MarkdownCell, DoubleClickEditsAndRenderShowsTheNewText) {
  MarkdownCellWidget cell(markdownCell("# Old"), Appearance{}, "/tmp", true);
  cell.resize(600, 300);
  cell.show();
  QTest::mouseDClick(cell.renderer()->viewport(), Qt::LeftButton);
  EXPECT_FALSE(cell.isRendered());
  EXPECT_TRUE(cell.editor()->isVisible());
  EXPECT_FALSE(cell.renderer()->isVisible());
  cell.editor()->setText("## New heading");
  cell.render();
  EXPECT_TRUE(cell.isRendered());
  EXPECT_TRUE(cell.renderer()->document()->toPlainText().contains("New heading"));
  EXPECT_FALSE(cell.editor()->isVisible());
}

TEST(MarkdownCell, ShowsImagesFromAttachmentsAndRelativePaths) {
  QImage red(4, 3, QImage::Format_RGB32);
  red.fill(Qt::red);
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  red.save(&buffer, "PNG");
  tilescope::notebook::Cell cell = markdownCell("![dot](attachment:dot.png)");
  cell.attachments = {{"dot.png", {{"image/png", png.toBase64().toStdString()}}}};
  MarkdownCellWidget widget(cell, Appearance{}, "/tmp", true);
  const QVariant image =
      widget.renderer()->document()->resource(QTextDocument::ImageResource, QUrl("attachment:dot.png"));
  ASSERT_TRUE(image.isValid());
  EXPECT_EQ(image.value<QImage>().size(), QSize(4, 3));

  // A picture next to the notebook, linked by a relative path: read off the UI thread, then shown.
  QTemporaryDir dir;
  ASSERT_TRUE(red.scaled(6, 5).save(dir.filePath("figure.png")));
  QDir(dir.path()).mkdir("img");
  ASSERT_TRUE(red.scaled(2, 7).save(dir.filePath("img/deeper.png")));
  MarkdownCellWidget relative(markdownCell("![figure](figure.png) ![deeper](img/deeper.png)"), Appearance{}, dir.path(), true);
  ASSERT_TRUE(waitUntil([&] { return relative.document()->pendingImageCount() == 0; }));
  const QVariant loaded = relative.document()->resource(QTextDocument::ImageResource, QUrl("figure.png"));
  ASSERT_TRUE(loaded.isValid());
  EXPECT_EQ(loaded.value<QImage>().size(), QSize(6, 5));
  EXPECT_EQ(relative.document()->resource(QTextDocument::ImageResource, QUrl("img/deeper.png")).value<QImage>().size(),
            QSize(2, 7));
}

namespace {
// Asks the rendered cell for the image at url the way layout does, waits until any read has
// finished, and tells whether only the placeholder shows (nothing was read).
bool showsOnlyAPlaceholder(MarkdownCellWidget& cell, const QString& url) {
  (void)cell.document()->resource(QTextDocument::ImageResource, QUrl(url));
  EXPECT_TRUE(waitUntil([&] { return cell.document()->pendingImageCount() == 0; }));
  const QVariant shown = cell.document()->resource(QTextDocument::ImageResource, QUrl(url));
  return shown.typeId() == QMetaType::QImage && shown.value<QImage>() == tilescope::ui::NotebookResourceDocument::placeholder();
}
}  // namespace

// Images come only from the notebook's folder: a path elsewhere, or a link inside the folder that
// leads out of it, shows nothing (it used to be read and shown from anywhere).
TEST(MarkdownCell, ImagesOutsideTheNotebookFolderAreNotRead) {
  QTemporaryDir notebookDir;
  QTemporaryDir elsewhere;
  QImage secret(3, 3, QImage::Format_RGB32);
  secret.fill(Qt::blue);
  ASSERT_TRUE(secret.save(elsewhere.filePath("secret.png")));
  ASSERT_TRUE(QFile::link(elsewhere.filePath("secret.png"), notebookDir.filePath("inside.png")));
  const QString absolute = elsewhere.filePath("secret.png");
  MarkdownCellWidget cell(markdownCell("![a](" + absolute.toStdString() + ") ![b](inside.png) ![c](../secret.png)"),
                          Appearance{}, notebookDir.path(), true);
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, QUrl::fromLocalFile(absolute).toString()));
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, "inside.png"));
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, "../secret.png"));
  // Laid out and painted, the cell still holds no picture of the secret (Qt's image handler loads a
  // src itself when the document gives it nothing).
  cell.resize(400, 300);
  cell.show();
  QApplication::processEvents();
  (void)cell.grab();
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, QUrl::fromLocalFile(absolute).toString()));
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, absolute));
}

// ![z](/dev/zero) made the app allocate 2 GB and abort: devices are never read, nor files over the
// size cap.
TEST(MarkdownCell, DevicesAndHugeFilesAreNotRead) {
  QTemporaryDir dir;
  ASSERT_TRUE(QFile::link("/dev/zero", dir.filePath("zero.png")));
  QFile huge(dir.filePath("huge.png"));
  ASSERT_TRUE(huge.open(QIODevice::WriteOnly));
  ASSERT_TRUE(huge.resize(tilescope::ui::NotebookResourceDocument::kMaxImageBytes + 1));  // sparse
  huge.close();
  MarkdownCellWidget cell(markdownCell("![z](/dev/zero) ![l](zero.png) ![h](huge.png)"), Appearance{}, "/", true);
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, "file:///dev/zero"));
  MarkdownCellWidget inFolder(markdownCell("![l](zero.png) ![h](huge.png)"), Appearance{}, dir.path(), true);
  EXPECT_TRUE(showsOnlyAPlaceholder(inFolder, "zero.png"));
  EXPECT_TRUE(showsOnlyAPlaceholder(inFolder, "huge.png"));
}

// ![f](A_FIFO) used to block the UI thread in open() until something wrote to the pipe.
TEST(MarkdownCell, APipeDoesNotBlockTheWindow) {
  QTemporaryDir dir;
  const QByteArray fifo = QFile::encodeName(dir.filePath("pipe.png"));
  ASSERT_EQ(::mkfifo(fifo.constData(), 0600), 0);
  tilescope::testing::PipeRescue rescue(fifo);
  // By a relative and by an absolute path (Qt's image handler opens the latter itself when the
  // document gives it nothing).
  MarkdownCellWidget cell(markdownCell("![f](pipe.png) ![g](" + dir.filePath("pipe.png").toStdString() + ")"), Appearance{},
                          dir.path(), true);
  cell.resize(400, 200);
  cell.show();
  QApplication::processEvents();
  (void)cell.grab();
  const bool stuck = rescue.rescued();
  rescue.finish();
  EXPECT_FALSE(stuck) << "the UI thread waited in open() for the pipe";
  EXPECT_TRUE(showsOnlyAPlaceholder(cell, "pipe.png"));
}

// Clicking a link never loads its target into the cell (that read the file on the UI thread).
TEST(MarkdownCell, LocalLinksAreNotFollowedInsideTheCell) {
  QTemporaryDir dir;
  tilescope::testing::writeBytes(dir.filePath("other.md"), "# Somewhere else");
  MarkdownCellWidget cell(markdownCell("[go there](other.md)"), Appearance{}, dir.path(), true);
  cell.resize(400, 200);
  cell.show();
  QApplication::processEvents();
  QSignalSpy clicked(cell.renderer(), &QTextBrowser::anchorClicked);
  QTextCursor onLink(cell.renderer()->document());
  onLink.setPosition(2);
  const QPoint at = cell.renderer()->cursorRect(onLink).center();
  QTest::mouseClick(cell.renderer()->viewport(), Qt::LeftButton, Qt::NoModifier, at);
  QApplication::processEvents();
  ASSERT_EQ(clicked.count(), 1) << "the click missed the link";
  EXPECT_FALSE(cell.renderer()->document()->toPlainText().contains("Somewhere else"));
}

TEST(MarkdownCell, EmptyCellSaysHowToEditIt) {
  MarkdownCellWidget cell(markdownCell(""), Appearance{}, "/tmp", true);
  EXPECT_TRUE(cell.renderer()->document()->toPlainText().contains("double-click"));
}

// The rendered text is exactly as tall as its layout at the cell's current width: first laid out
// narrow (many lines), then widened (one line), no blank space stays below the text.
TEST(MarkdownCell, HeightFollowsTheWidth) {
  MarkdownCellWidget cell(markdownCell("# Vector addition\n\nEach **program** adds one BLOCK_SIZE slice of x and y. The mask keeps "
                                       "the last program inside the tensors."),
                          Appearance{}, "/tmp", true);
  cell.resize(160, 100);
  cell.show();
  QApplication::processEvents();
  const int narrow = cell.renderer()->height();
  cell.resize(1400, 100);
  QApplication::processEvents();
  const int wide = cell.renderer()->height();
  EXPECT_LT(wide, narrow);
  QTextDocument* doc = cell.renderer()->document();
  EXPECT_EQ(static_cast<int>(doc->textWidth()), cell.renderer()->viewport()->width());
  EXPECT_NEAR(wide, doc->size().height() + 4, 2.0);
}
