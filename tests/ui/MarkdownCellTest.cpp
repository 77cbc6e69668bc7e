#include <gtest/gtest.h>

#include <QApplication>
#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextTable>

#include "ui/MarkdownCellWidget.h"
#include "ui/MarkdownText.h"

using tilescope::ui::Appearance;
using tilescope::ui::MarkdownCellWidget;
using tilescope::ui::markdownWithLiteralMath;

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

  // A picture next to the notebook, linked by a relative path.
  QTemporaryDir dir;
  ASSERT_TRUE(red.scaled(6, 5).save(dir.filePath("figure.png")));
  MarkdownCellWidget relative(markdownCell("![figure](figure.png)"), Appearance{}, dir.path(), true);
  const QVariant loaded = relative.renderer()->loadResource(QTextDocument::ImageResource, QUrl("figure.png"));
  ASSERT_TRUE(loaded.isValid());
  QImage fromFile;
  ASSERT_TRUE(fromFile.loadFromData(loaded.toByteArray()));
  EXPECT_EQ(fromFile.size(), QSize(6, 5));
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
