// What a code cell shows under its editor: streams, images, monospaced tables, and tracebacks whose
// cell locations are links that put the cursor on the failing line.
#include <gtest/gtest.h>

#include <QApplication>
#include <QBuffer>
#include <QFontInfo>
#include <QLabel>
#include <QPainter>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTest>
#include <QVBoxLayout>

#include "core/notebook/CellOutputs.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/BenchmarkPlot.h"
#include "ui/CodeCellWidget.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RecoveryStore.h"
#include "ui/TracebackLink.h"

using nlohmann::json;
using tilescope::ui::OutputArea;
using tilescope::ui::TracebackLink;

namespace {
QString base64Png(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return QString::fromLatin1(bytes.toBase64());
}

// A table as `perf_report(...).run(print_data=True)` prints it (pandas style, right-aligned columns).
constexpr const char* kBenchmarkTable =
    "vector-add-performance:\n"
    "          size      Triton       Torch\n"
    "0       4096.0    0.013653    0.010240\n"
    "1      65536.0    0.137216    0.131072\n"
    "2    1048576.0    2.184533    2.097152\n";

// Clicks a link inside a label the way a user would: at the middle of the line it is on.
void clickLine(QLabel* label, int lineIndex) {
  const QFontMetrics metrics(label->font());
  const QRect inside = label->contentsRect();
  const QPoint at(inside.left() + metrics.horizontalAdvance(QStringLiteral("Cel")),
                  inside.top() + metrics.lineSpacing() * lineIndex + metrics.lineSpacing() / 2);
  QTest::mouseClick(label, Qt::LeftButton, Qt::NoModifier, at);
}
}  // namespace

TEST(TracebackLink, ReadsTheCellLocationsTheControllerWrites) {
  auto byCount = TracebackLink::fromTracebackLine("Cell [3], line 12, column 5: division by zero");
  ASSERT_TRUE(byCount);
  EXPECT_EQ(byCount->by, TracebackLink::CellBy::ExecutionCount);
  EXPECT_EQ(byCount->cell, 3);
  EXPECT_EQ(byCount->line, 12);
  EXPECT_EQ(byCount->column, 5);
  auto byPosition = TracebackLink::fromTracebackLine("Cell 4, line 1, column 0: here");
  ASSERT_TRUE(byPosition);
  EXPECT_EQ(byPosition->by, TracebackLink::CellBy::Position);
  EXPECT_EQ(byPosition->cell, 4);
  EXPECT_FALSE(TracebackLink::fromTracebackLine("/usr/lib/x.py:3:4: not a cell"));
  EXPECT_FALSE(TracebackLink::fromTracebackLine("ZeroDivisionError: Cell [3], line 1, column 1"));
  // A link survives its round trip through the href.
  auto parsed = TracebackLink::parse(byCount->href());
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->cell, 3);
  EXPECT_EQ(parsed->line, 12);
  EXPECT_EQ(parsed->column, 5);
  EXPECT_FALSE(TracebackLink::parse("https://example.com"));
  // The HTML escapes everything but the link.
  const QString html = TracebackLink::linkify("E: a < b\nCell [3], line 12, column 5: <oops>");
  EXPECT_TRUE(html.contains("a &lt; b"));
  EXPECT_TRUE(html.contains("&lt;oops&gt;"));
  EXPECT_TRUE(html.contains("<a href=\"" + byCount->href() + "\">Cell [3], line 12, column 5</a>")) << html.toStdString();
}

TEST(OutputArea, StreamsShowStdoutAndStderrApart) {
  OutputArea area;
  json outputs = json::array();
  tilescope::notebook::appendStreamOutput(outputs, "stdout", "one\n");
  tilescope::notebook::appendStreamOutput(outputs, "stdout", "two\n");  // merges with the first
  tilescope::notebook::appendStreamOutput(outputs, "stderr", "warning: careful\n");
  area.setOutputs(outputs);
  ASSERT_EQ(area.outputCount(), 2);
  EXPECT_EQ(area.plainText(), "one\ntwo\nwarning: careful");
  QLabel* out = area.outputLabel(0);
  QLabel* err = area.outputLabel(1);
  EXPECT_EQ(out->property("outputType").toString(), "stream");
  EXPECT_FALSE(out->autoFillBackground());
  EXPECT_TRUE(err->autoFillBackground()) << "stderr is set apart by its background";
  EXPECT_NE(err->palette().color(QPalette::Window), out->palette().color(QPalette::Window));
  // Streaming more text updates the label in place.
  tilescope::notebook::appendStreamOutput(outputs, "stderr", "again\n");
  area.setOutputs(outputs);
  EXPECT_EQ(area.plainText(), "one\ntwo\nwarning: careful\nagain");
}

TEST(OutputArea, PngImagesAreShownAsPictures) {
  QImage image(40, 30, QImage::Format_RGB32);
  image.fill(QColor(200, 30, 30));
  QPainter(&image).fillRect(0, 0, 10, 10, QColor(20, 40, 220));
  OutputArea area;
  json outputs = json::array();
  outputs.push_back(tilescope::notebook::displayDataOutput(
      {{"image/png", base64Png(image).toStdString()}, {"text/plain", "<Figure 40x30>"}}, json::object()));
  outputs.push_back(tilescope::notebook::executeResultOutput(
      2, {{"image/png", base64Png(image).toStdString()}, {"text/plain", "<Figure>"}}, json::object()));
  area.setOutputs(outputs);
  ASSERT_EQ(area.outputCount(), 2);
  for (int i = 0; i < 2; ++i) {
    const QPixmap shown = area.outputLabel(i)->pixmap();
    ASSERT_FALSE(shown.isNull()) << "output " << i << " shows text instead of the picture";
    EXPECT_EQ(shown.size(), QSize(40, 30));
    const QImage pixels = shown.toImage();
    EXPECT_EQ(pixels.pixelColor(30, 20), QColor(200, 30, 30));
    EXPECT_EQ(pixels.pixelColor(2, 2), QColor(20, 40, 220));
  }
}

TEST(OutputArea, BenchmarkTablesAreMonospacedAndStayAligned) {
  OutputArea area;
  area.resize(900, 300);
  json outputs = json::array();
  tilescope::notebook::appendStreamOutput(outputs, "stdout", kBenchmarkTable);
  area.setOutputs(outputs);
  QLabel* label = area.outputLabel(0);
  ASSERT_NE(label, nullptr);
  EXPECT_TRUE(QFontInfo(label->font()).fixedPitch()) << label->font().family().toStdString();
  EXPECT_EQ(label->textFormat(), Qt::PlainText) << "spaces must not collapse as in HTML";
  EXPECT_EQ(label->text() + "\n", kBenchmarkTable) << "every space is kept";
  // Right-aligned columns end at the same x on every row.
  const QFontMetrics metrics(label->font());
  const QStringList rows = QString(kBenchmarkTable).split('\n', Qt::SkipEmptyParts).mid(1);
  for (const QString& row : rows) EXPECT_EQ(metrics.horizontalAdvance(row), metrics.horizontalAdvance(rows[0])) << row.toStdString();
}

namespace {
json benchmarkSpec() {
  return {{"plot_name", "vector-add-performance"},
          {"x_names", {"size"}},
          {"x_vals", {4096.0, 65536.0, 1048576.0}},
          {"x_log", true},
          {"y_log", false},
          {"xlabel", "size"},
          {"ylabel", "GB/s"},
          {"line_names", {"Triton", "Torch"}},
          {"styles", json::array({json::array({"blue", "-"}), json::array({"green", "--"})})},
          {"series", {{{"name", "Triton"}, {"y", {10.0, 80.0, 300.0}}, {"y_min", {nullptr, nullptr, nullptr}}, {"y_max", {nullptr, nullptr, nullptr}}},
                      {{"name", "Torch"}, {"y", {12.0, 90.0, 310.0}}, {"y_min", {nullptr, nullptr, nullptr}}, {"y_max", {nullptr, nullptr, nullptr}}}}}};
}

// Pixels close to a colour (antialiasing blends the edges of lines).
int pixelsNear(const QImage& image, QColor colour) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) + std::abs(c.blue() - colour.blue()) < 40) ++count;
    }
  return count;
}
}  // namespace

TEST(OutputArea, BenchmarkSeriesAreDrawnAsAPlot) {
  OutputArea area;
  json outputs = json::array();
  outputs.push_back(tilescope::notebook::displayDataOutput(
      {{tilescope::ui::BenchmarkPlot::kMimeType, benchmarkSpec()}, {"text/plain", "<benchmark vector-add-performance: 3 points x 2 lines>"}},
      json::object()));
  area.setOutputs(outputs);
  ASSERT_EQ(area.outputCount(), 1);
  const QPixmap plot = area.outputLabel(0)->pixmap();
  ASSERT_FALSE(plot.isNull()) << "shown as text: " << area.plainText().toStdString();
  EXPECT_EQ(plot.size(), tilescope::ui::BenchmarkPlot::kDefaultSize);
  const QImage image = plot.toImage();
  EXPECT_GT(pixelsNear(image, QColor("blue")), 50) << "the Triton line, in its style's colour";
  EXPECT_GT(pixelsNear(image, QColor("green")), 30) << "the Torch line";
  // The dark theme draws it again on a dark background.
  tilescope::ui::Appearance dark;
  dark.theme = tilescope::ui::Theme::darkTheme();
  area.setAppearance(dark);
  const QImage darkImage = area.outputLabel(0)->pixmap().toImage();
  EXPECT_LT(darkImage.pixelColor(3, 3).lightness(), 100);
  EXPECT_GT(image.pixelColor(3, 3).lightness(), 150);
}

TEST(BenchmarkPlot, ASimulatorRunIsLabelledSimulatedInTheChart) {
  // The same series from a simulator run and from a GPU run, one under the other.
  json simulated = benchmarkSpec();
  simulated["simulated"] = true;
  json gpu = benchmarkSpec();
  gpu["simulated"] = false;
  OutputArea area;
  json outputs = json::array();
  for (const json& spec : {simulated, gpu})
    outputs.push_back(tilescope::notebook::displayDataOutput({{tilescope::ui::BenchmarkPlot::kMimeType, spec}, {"text/plain", "<benchmark>"}},
                                                             json::object()));
  area.setOutputs(outputs);
  ASSERT_EQ(area.outputCount(), 2);
  QLabel* simulatedChart = area.outputLabel(0);
  QLabel* gpuChart = area.outputLabel(1);
  EXPECT_EQ(simulatedChart->accessibleName(), "Benchmark chart: vector-add-performance (simulated)");
  EXPECT_EQ(simulatedChart->toolTip(), simulatedChart->accessibleName());
  EXPECT_EQ(gpuChart->accessibleName(), "Benchmark chart: vector-add-performance");
  // The chart itself carries a note in the theme's warning colour; the GPU chart has none.
  const QColor warning = tilescope::ui::Theme::lightTheme().warningText;
  const int simulatedNote = pixelsNear(simulatedChart->pixmap().toImage(), warning);
  const int gpuNote = pixelsNear(gpuChart->pixmap().toImage(), warning);
  EXPECT_GT(simulatedNote, gpuNote + 100) << simulatedNote << " vs " << gpuNote;
  EXPECT_EQ(tilescope::ui::BenchmarkPlot::title(simulated), "vector-add-performance (simulated)");
  EXPECT_EQ(tilescope::ui::BenchmarkPlot::title(benchmarkSpec()), "vector-add-performance") << "no field: not simulated";
}

TEST(BenchmarkPlot, ANarrowLogAxisIsLabelledAtTheBenchmarksOwnSizes) {
  using tilescope::ui::BenchmarkPlot;
  json narrow = benchmarkSpec();
  narrow["x_vals"] = {32.0, 64.0, 128.0};
  const auto ticks = BenchmarkPlot::valueTicks(narrow);
  ASSERT_EQ(ticks.size(), 3);
  EXPECT_EQ(ticks[0], std::make_pair(32.0, QString("32")));
  EXPECT_EQ(ticks[2], std::make_pair(128.0, QString("128")));
  EXPECT_TRUE(BenchmarkPlot::valueTicks(benchmarkSpec()).isEmpty()) << "4096 to 1048576: the log ticker's powers of ten";
  narrow["x_log"] = false;
  EXPECT_TRUE(BenchmarkPlot::valueTicks(narrow).isEmpty()) << "a linear axis keeps its own ticks";
  EXPECT_FALSE(BenchmarkPlot::render(narrow, tilescope::ui::Theme::lightTheme()).isNull());
}

TEST(BenchmarkPlot, NothingToDrawGivesNoImage) {
  EXPECT_TRUE(tilescope::ui::BenchmarkPlot::render(json::object(), tilescope::ui::Theme::lightTheme()).isNull());
  json empty = benchmarkSpec();
  empty["series"] = json::array();
  EXPECT_TRUE(tilescope::ui::BenchmarkPlot::render(empty, tilescope::ui::Theme::lightTheme()).isNull());
  json text = benchmarkSpec();
  text["x_vals"] = {"fp16", "fp32", "fp64"};  // text values on the x axis still plot
  EXPECT_FALSE(tilescope::ui::BenchmarkPlot::render(text, tilescope::ui::Theme::lightTheme()).isNull());
}

TEST(BenchmarkPlot, ASavedBenchmarkCarriesItsPlotAsPng) {
  // What the worker sends is kept, plus an image/png of the plot for GitHub and Jupyter.
  auto* client = new tilescope::testing::RecordingClient;
  QTemporaryDir dir;
  tilescope::ui::MainWindow window(client, std::make_unique<tilescope::ui::RecoveryStore>(dir.path()));
  window.model()->setSource(0, "bench.run(print_data=True)");
  window.notebookView()->select(0);
  window.notebookController()->runSelected();
  ASSERT_EQ(client->runs.size(), 1u);
  tilescope::ui::RichOutput output;
  output.data = {{tilescope::ui::BenchmarkPlot::kMimeType, benchmarkSpec()}, {"text/plain", "<benchmark>"}};
  emit client->richOutput(client->runs[0].cellId, output);
  client->finishAll();
  const json& saved = window.model()->cell(0).outputs.at(0);
  ASSERT_TRUE(saved["data"].contains("image/png"));
  EXPECT_EQ(saved["data"][tilescope::ui::BenchmarkPlot::kMimeType], benchmarkSpec());
  QImage png;
  ASSERT_TRUE(png.loadFromData(QByteArray::fromBase64(QByteArray::fromStdString(saved["data"]["image/png"].get<std::string>()))));
  EXPECT_EQ(png.size(), tilescope::ui::BenchmarkPlot::kDefaultSize);
}

// ---- links in a notebook ----

namespace {
class TracebackLinks : public ::testing::Test {
protected:
  void SetUp() override {
    window = std::make_unique<tilescope::ui::MainWindow>(new tilescope::testing::RecordingClient,
                                                         std::make_unique<tilescope::ui::RecoveryStore>(dir.path()));
    tilescope::notebook::Notebook nb;
    auto& helper = nb.appendCell(tilescope::notebook::CellType::Code, "def helper(v):\n    w = v + 1\n    return w / 0\n");
    helper.executionCount = 3;
    nb.appendCell(tilescope::notebook::CellType::Markdown, "Some text");
    auto& caller = nb.appendCell(tilescope::notebook::CellType::Code, "x = 1\nhelper(x)\n");
    caller.executionCount = 4;
    caller.outputs.push_back(tilescope::notebook::errorOutput(
        "ZeroDivisionError", "division by zero",
        {"Cell [4], line 2, column 1: helper(x)", "Cell [3], line 3, column 12: division by zero"}));
    window->model()->reset(nb);
    window->resize(1100, 800);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    window->notebookView()->select(0);
  }
  tilescope::ui::CodeCellWidget* codeCell(int index) {
    return qobject_cast<tilescope::ui::CodeCellWidget*>(window->notebookView()->cellWidget(index));
  }
  QTemporaryDir dir;
  std::unique_ptr<tilescope::ui::MainWindow> window;
};
}  // namespace

TEST_F(TracebackLinks, ErrorLocationsAreLinks) {
  OutputArea* area = codeCell(2)->outputArea();
  ASSERT_EQ(area->outputCount(), 1);
  EXPECT_EQ(area->outputLabel(0)->textFormat(), Qt::RichText);
  EXPECT_FALSE(area->outputLabel(0)->openExternalLinks());
  EXPECT_EQ(area->links().size(), 2);
  EXPECT_TRUE(area->plainText().contains("Cell [3], line 3, column 12: division by zero")) << area->plainText().toStdString();
}

TEST_F(TracebackLinks, ClickingALocationPutsTheCursorThere) {
  QLabel* label = codeCell(2)->outputArea()->outputLabel(0);
  ASSERT_NE(label, nullptr);
  window->notebookView()->ensureWidgetVisible(label);
  QTest::qWait(50);
  // Line 0 is "ZeroDivisionError: division by zero", line 2 the innermost frame, in cell [3].
  clickLine(label, 2);
  auto* view = window->notebookView();
  EXPECT_EQ(view->selectedIndex(), 0) << "the cell with execution count 3";
  EXPECT_EQ(view->mode(), tilescope::ui::NotebookView::Mode::Edit);
  int line = -1, column = -1;
  codeCell(0)->editor()->getCursorPosition(&line, &column);
  EXPECT_EQ(line, 2);  // 0-based
  EXPECT_EQ(column, 11);
  EXPECT_TRUE(codeCell(0)->editor()->hasFocus());

  // The outer frame leads to the caller's own line.
  clickLine(label, 1);
  EXPECT_EQ(view->selectedIndex(), 2);
  codeCell(2)->editor()->getCursorPosition(&line, &column);
  EXPECT_EQ(line, 1);
  EXPECT_EQ(column, 0);
}

TEST_F(TracebackLinks, ACellWithoutThatCountIsNotFound) {
  auto* view = window->notebookView();
  const TracebackLink nowhere{TracebackLink::CellBy::ExecutionCount, 99, 1, 1};
  EXPECT_FALSE(view->goToLocation(window->model()->cellId(2), nowhere));
  EXPECT_EQ(view->selectedIndex(), 0);
  const TracebackLink byPosition{TracebackLink::CellBy::Position, 3, 2, 3};
  EXPECT_TRUE(view->goToLocation(window->model()->cellId(2), byPosition));
  EXPECT_EQ(view->selectedIndex(), 2);
}

// HTML and markdown outputs never read local files: <img src="/dev/zero"> used to make the app
// allocate 2 GB and abort, and any readable picture on the disk was shown. Data URLs still show.
TEST(OutputArea, RichOutputsReadNoLocalFiles) {
  QTemporaryDir dir;
  QImage secret(5, 4, QImage::Format_RGB32);
  secret.fill(Qt::green);
  ASSERT_TRUE(secret.save(dir.filePath("secret.png")));
  const QString file = dir.filePath("secret.png");
  const QString inlined = "data:image/png;base64," + base64Png(secret);
  OutputArea area;
  area.setOutputs(json::array(
      {tilescope::notebook::displayDataOutput(
           {{"text/html", ("<p>html</p><img src=\"" + file + "\"><img src=\"/dev/zero\"><img src=\"" + inlined + "\">").toStdString()}},
           json::object()),
       tilescope::notebook::displayDataOutput({{"text/markdown", ("markdown ![s](" + file + ") ![z](/dev/zero)").toStdString()}},
                                              json::object())}));
  area.resize(500, 300);
  area.show();
  QApplication::processEvents();
  ASSERT_EQ(area.outputCount(), 2);
  EXPECT_TRUE(area.plainText().contains("html")) << area.plainText().toStdString();
  EXPECT_TRUE(area.plainText().contains("markdown")) << area.plainText().toStdString();
  (void)area.grab();  // painted, as a user sees it
  // Every text document under the outputs, whatever widget holds it, asked as layout asks: none
  // holds the secret picture (Qt's image handler loads a src itself when the document gives it
  // nothing, and keeps it as a resource).
  const QList<QTextDocument*> documents = area.findChildren<QTextDocument*>();
  ASSERT_FALSE(documents.isEmpty());
  for (QTextDocument* document : documents) {
    for (const QString& url : {file, QUrl::fromLocalFile(file).toString(), QStringLiteral("/dev/zero"), QStringLiteral("file:///dev/zero")}) {
      const QVariant shown = document->resource(QTextDocument::ImageResource, QUrl(url));
      const QImage image = shown.typeId() == QMetaType::QPixmap ? shown.value<QPixmap>().toImage() : shown.value<QImage>();
      EXPECT_NE(image.size(), QSize(5, 4)) << url.toStdString() << " was read from the disk";
      EXPECT_FALSE(shown.typeId() == QMetaType::QByteArray && !shown.toByteArray().isEmpty()) << url.toStdString();
    }
  }
  // Rendered as rich text: the pictures are in the text (as placeholders or pictures), not dropped.
  int pictures = 0;
  for (QTextDocument* document : documents)
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
      for (auto it = block.begin(); !it.atEnd(); ++it) pictures += it.fragment().charFormat().isImageFormat() ? 1 : 0;
  EXPECT_EQ(pictures, 5);
  bool inlinedShown = false;
  for (QTextDocument* document : documents)
    inlinedShown = inlinedShown || document->resource(QTextDocument::ImageResource, QUrl(inlined)).value<QImage>().size() == QSize(5, 4);
  EXPECT_TRUE(inlinedShown) << "a data: URL image is part of the output and shows";
}

// An image wider than the column is scaled to the column's width (aspect kept) instead of widening
// the notebook behind a horizontal scroll bar; where there is room it keeps its own size.
TEST(OutputArea, AnImageWiderThanTheColumnIsScaledToFit) {
  QImage wide(1000, 400, QImage::Format_RGB32);
  wide.fill(Qt::red);
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  ASSERT_TRUE(wide.save(&buffer, "PNG"));
  json outputs = json::array();
  outputs.push_back(tilescope::notebook::displayDataOutput({{"image/png", png.toBase64().toStdString()}}, json::object()));

  QWidget column;
  auto* layout = new QVBoxLayout(&column);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* area = new OutputArea(&column);
  layout->addWidget(area);
  area->setOutputs(outputs);
  QLabel* image = area->outputLabel(0);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->pixmap().size(), QSize(1000, 400)) << "the full image is kept (export, copy)";
  EXPECT_LT(column.minimumSizeHint().width(), 500) << "the image does not force the column wider";

  column.resize(500, 800);
  column.show();
  QApplication::processEvents();
  EXPECT_LE(image->width(), 500);
  EXPECT_EQ(image->heightForWidth(500), 200);
  const QImage shown = image->grab().toImage();
  EXPECT_EQ(shown.pixelColor(image->width() - 2, 100), QColor(Qt::red)) << "drawn across the whole width";

  column.resize(1400, 800);
  QApplication::processEvents();
  EXPECT_EQ(image->heightForWidth(image->width()), 400) << "with room, its own size";
}
