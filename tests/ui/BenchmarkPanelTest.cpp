// The benchmark panel and SM timeline (ui/viz): perf_report results from several runs overlaid or
// side by side, quantile bands, log-2 x, a ceiling line, tooltips, exports (PNG, SVG, PDF, CSV at
// full precision) also from an inline chart's context menu, and the timeline of a timing file.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <cstring>
#include <fstream>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/viz/BenchmarkSeries.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/OutputArea.h"
#include "ui/viz/BenchmarkPanel.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/PerformanceDock.h"
#include "ui/viz/SceneView.h"
#include "ui/viz/TimelinePanel.h"

using nlohmann::json;
using tilescope::ui::BenchmarkPanel;

namespace {

// perf_report display data as BenchmarkRunner emits it; `simulated` as on the simulator.
json spec(bool simulated, bool quantiles, double scale = 1) {
  json s = json::parse(R"({
    "plot_name": "vector-add-performance", "x_names": ["size"], "x_vals": [4096.0, 65536.0, 1048576.0],
    "x_log": true, "y_log": false, "xlabel": "size", "ylabel": "GB/s", "line_names": ["Triton", "Torch"], "styles": [],
    "series": [{"name": "Triton", "y": [10.5, 100.25, 0.30000000000000004], "y_min": [null, null, null], "y_max": [null, null, null]},
               {"name": "Torch", "y": [9.0, 90.0, 700.0], "y_min": [null, null, null], "y_max": [null, null, null]}]})");
  s["simulated"] = simulated;
  for (auto& series : s["series"])
    for (size_t i = 0; i < 3; ++i) {
      series["y"][i] = series["y"][i].get<double>() * scale;
      if (quantiles) {
        series["y_min"][i] = series["y"][i].get<double>() * 0.8;
        series["y_max"][i] = series["y"][i].get<double>() * 1.2;
      }
    }
  return s;
}

QCPAxis* xAxisOf(BenchmarkPanel& panel, int rect = 0) { return panel.plot()->axisRects().at(rect)->axis(QCPAxis::atBottom); }

uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

TEST(BenchmarkPanel, OverlaysRunsWithOneLinePerProviderAndLabelsSimulatedOnes) {
  BenchmarkPanel panel;
  ASSERT_TRUE(panel.addResult(spec(true, false), QStringLiteral("In [2]")));
  ASSERT_TRUE(panel.addResult(spec(false, false, 3), QStringLiteral("In [5]")));
  EXPECT_FALSE(panel.addResult(json::object(), QStringLiteral("In [6]")));
  EXPECT_EQ(panel.resultList()->count(), 2);
  EXPECT_EQ(panel.resultList()->item(0)->text(), "vector-add-performance (simulated) - In [2]");
  EXPECT_EQ(panel.plot()->axisRectCount(), 1);
  EXPECT_EQ(panel.legendNames(),
            QStringList({"Triton (In [2], simulated)", "Torch (In [2], simulated)", "Triton (In [5])", "Torch (In [5])"}));
  EXPECT_EQ(panel.plot()->graphCount(), 4);  // no quantiles: no bands
  // Simulated lines are dashed, GPU lines solid; the simulated note is in the plot.
  EXPECT_EQ(panel.plot()->graph(0)->pen().style(), Qt::DashLine);
  EXPECT_EQ(panel.plot()->graph(2)->pen().style(), Qt::SolidLine);
  bool note = false;
  for (int i = 0; i < panel.plot()->plotLayout()->elementCount(); ++i)
    if (auto* text = qobject_cast<QCPTextElement*>(panel.plot()->plotLayout()->elementAt(i)))
      note = note || text->text().contains("simulated on the CPU", Qt::CaseInsensitive);
  EXPECT_TRUE(note);
  // Unchecking a result hides its lines but keeps it listed.
  panel.setResultShown(0, false);
  EXPECT_EQ(panel.legendNames().size(), 2);
  EXPECT_EQ(panel.collection().size(), 2u);
}

TEST(BenchmarkPanel, DrawsAQuantileBandOnlyWhenTheRunCarriesQuantiles) {
  BenchmarkPanel panel;
  panel.addResult(spec(false, true), QStringLiteral("In [1]"));
  // Per provider: the band's low and high graphs, then the line.
  ASSERT_EQ(panel.plot()->graphCount(), 6);
  QCPGraph* high = panel.plot()->graph(1);
  EXPECT_EQ(high->channelFillGraph(), panel.plot()->graph(0));
  EXPECT_NE(high->brush().style(), Qt::NoBrush);
  EXPECT_DOUBLE_EQ(high->data()->at(1)->value, 100.25 * 1.2);
  EXPECT_DOUBLE_EQ(panel.plot()->graph(0)->data()->at(1)->value, 100.25 * 0.8);
  EXPECT_EQ(panel.legendNames(), QStringList({"Triton (In [1])", "Torch (In [1])"}));
}

TEST(BenchmarkPanel, LogTwoXAxisCeilingAndSideBySide) {
  BenchmarkPanel panel;
  panel.addResult(spec(false, false), QStringLiteral("In [1]"));
  // The run asked for a log x axis: log 2 starts on.
  EXPECT_TRUE(panel.log2X());
  EXPECT_EQ(xAxisOf(panel)->scaleType(), QCPAxis::stLogarithmic);
  auto ticker = xAxisOf(panel)->ticker().dynamicCast<QCPAxisTickerLog>();
  ASSERT_TRUE(ticker);
  EXPECT_DOUBLE_EQ(ticker->logBase(), 2);
  QTest::mouseClick(panel.log2Box(), Qt::LeftButton);
  EXPECT_FALSE(panel.log2X());
  EXPECT_EQ(xAxisOf(panel)->scaleType(), QCPAxis::stLinear);

  // A ceiling typed in: a line at that y with its label, inside the y range.
  panel.show();
  QTest::keyClicks(panel.ceilingEdit(), QStringLiteral("2000"));
  ASSERT_EQ(panel.ceiling(), 2000.0);
  // Unlabelled, a GB/s ceiling is the copy bandwidth.
  ASSERT_EQ(panel.plot()->itemCount(), 2);
  EXPECT_EQ(qobject_cast<QCPItemText*>(panel.plot()->item(1))->text(), "copy bandwidth: 2000");
  panel.setCeiling(QStringLiteral("2000"), QStringLiteral("measured copy"));
  EXPECT_EQ(qobject_cast<QCPItemText*>(panel.plot()->item(1))->text(), "measured copy: 2000");
  ASSERT_EQ(panel.plot()->itemCount(), 2);
  auto* line = qobject_cast<QCPItemStraightLine*>(panel.plot()->item(0));
  ASSERT_TRUE(line);
  EXPECT_DOUBLE_EQ(line->point1->coords().y(), 2000);
  EXPECT_GE(panel.plot()->axisRects().at(0)->axis(QCPAxis::atLeft)->range().upper, 2000);
  panel.setCeiling(QStringLiteral("not a number"));
  EXPECT_EQ(panel.plot()->itemCount(), 0);

  panel.addResult(spec(true, false), QStringLiteral("In [2]"));
  panel.layoutBox()->setCurrentIndex(1);
  EXPECT_TRUE(panel.sideBySide());
  EXPECT_EQ(panel.plot()->axisRectCount(), 2);
  EXPECT_EQ(panel.legendNames(), QStringList({"Triton", "Torch", "Triton (simulated)", "Torch (simulated)"}));
}

TEST(BenchmarkPanel, HoveringAPointShowsItsValues) {
  BenchmarkPanel panel;
  panel.resize(800, 500);
  panel.addResult(spec(true, true), QStringLiteral("In [4]"));
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  panel.plot()->replot();
  QCPGraph* triton = panel.plot()->graph(2);
  const QPoint at(static_cast<int>(triton->keyAxis()->coordToPixel(65536)), static_cast<int>(triton->valueAxis()->coordToPixel(100.25)));
  const QString tip = panel.tooltipAt(at);
  EXPECT_TRUE(tip.startsWith("Triton\nvector-add-performance (simulated) - In [4]\nsize = 65536\nGB/s = 100.25 [80.2, 120.3]")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("simulated: CPU time")) << tip.toStdString();
  EXPECT_TRUE(panel.tooltipAt(QPoint(2, 2)).isEmpty());
  QTest::mouseMove(panel.plot(), at);
  EXPECT_TRUE(tilescope::testing::waitUntil([&] { return QToolTip::text() == tip; }, 2000)) << QToolTip::text().toStdString();
}

TEST(BenchmarkPanel, ExportsPngSvgPdfAndCsvAtFullPrecision) {
  QTemporaryDir dir;
  BenchmarkPanel panel;
  panel.addResult(spec(true, true), QStringLiteral("In [1]"));
  panel.addResult(spec(false, false, 1.0 / 3), QStringLiteral("In [2]"));
  const QString png = dir.filePath("b.png"), svg = dir.filePath("b.svg"), pdf = dir.filePath("b.pdf"), csv = dir.filePath("b.csv");
  QString error;
  ASSERT_TRUE(panel.exportTo(png, &error)) << error.toStdString();
  const QImage image(png);
  EXPECT_GE(image.width(), 900);
  EXPECT_GE(image.height(), 520);
  ASSERT_TRUE(panel.exportTo(svg, &error)) << error.toStdString();
  const QByteArray svgBytes = tilescope::testing::readBytes(svg);
  EXPECT_TRUE(svgBytes.startsWith("<?xml")) << svgBytes.left(40).toStdString();
  EXPECT_TRUE(svgBytes.contains("<svg"));
  EXPECT_GT(svgBytes.count("<path") + svgBytes.count("<polyline"), 4);
  ASSERT_TRUE(panel.exportTo(pdf, &error)) << error.toStdString();
  const QByteArray pdfBytes = tilescope::testing::readBytes(pdf);
  EXPECT_TRUE(pdfBytes.startsWith("%PDF-"));
  EXPECT_GT(pdfBytes.size(), 1000);

  ASSERT_TRUE(panel.exportTo(csv, &error)) << error.toStdString();
  const QByteArray text = tilescope::testing::readBytes(csv);
  EXPECT_EQ(text.toStdString(), panel.collection().toCsv());
  const auto back = tilescope::viz::BenchmarkCollection::fromCsv(text.toStdString());
  ASSERT_EQ(back.size(), 2u);
  // 100.25 / 3 and 0.1 + 0.2 survive bit for bit.
  EXPECT_EQ(bits(back.results()[1].lines[0].y[1]), bits(100.25 * (1.0 / 3)));
  EXPECT_EQ(bits(back.results()[0].lines[0].y[2]), bits(0.30000000000000004));
  EXPECT_TRUE(back.results()[0].simulated);

  // Another session imports the file and shows the same results.
  BenchmarkPanel other;
  ASSERT_TRUE(other.importCsv(csv, &error)) << error.toStdString();
  EXPECT_EQ(other.collection().toCsv(), panel.collection().toCsv());
  EXPECT_EQ(other.resultList()->item(0)->text(), "vector-add-performance (simulated) - In [1]");
  EXPECT_EQ(other.legendNames(), panel.legendNames());
  tilescope::testing::writeBytes(dir.filePath("bad.csv"), "source,plot_name,simulated,xlabel,ylabel,provider,x,y,y_min,y_max\na,b,false,x,y,p,1,2\n");
  EXPECT_FALSE(other.importCsv(dir.filePath("bad.csv"), &error));
  EXPECT_TRUE(error.endsWith("bad.csv: benchmark CSV line 2: expected 10 fields, found 8")) << error.toStdString();
  EXPECT_EQ(other.collection().size(), 2u);

  EXPECT_FALSE(panel.exportTo(dir.filePath("b.bmp"), &error));
  EXPECT_TRUE(error.contains(".png, .svg or .pdf")) << error.toStdString();
  EXPECT_FALSE(panel.exportTo(dir.filePath("missing/folder/b.csv"), &error));
  EXPECT_TRUE(error.contains("missing/folder/b.csv")) << error.toStdString();
}

TEST(BenchmarkPanel, InlineChartContextMenuExports) {
  QTemporaryDir dir;
  tilescope::ui::OutputArea area;
  area.resize(700, 500);
  json output = {{"output_type", "display_data"},
                 {"data", {{"application/vnd.tilescope.benchmark+json", spec(true, true)}, {"text/plain", "<benchmark>"}}},
                 {"metadata", json::object()}};
  area.setOutputs(json::array({{{"output_type", "stream"}, {"name", "stdout"}, {"text", "hi\n"}}, output}));
  area.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&area));
  EXPECT_EQ(area.createBenchmarkMenu(0), nullptr);  // a stream has no chart menu

  // A right-click on the chart opens the export menu.
  QLabel* chart = area.outputLabel(1);
  EXPECT_EQ(chart->contextMenuPolicy(), Qt::CustomContextMenu);
  emit chart->customContextMenuRequested(QPoint(20, 20));
  QMenu* menu = nullptr;
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return (menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) != nullptr; }, 3000));
  QStringList texts;
  for (QAction* a : menu->actions()) texts << a->text();
  EXPECT_EQ(texts, QStringList({"Export chart as PNG...", "Export chart as SVG...", "Export chart as PDF...",
                                "Export data as CSV (full precision)..."}));
  menu->close();

  QString error;
  ASSERT_TRUE(area.exportBenchmark(1, dir.filePath("c.svg"), &error)) << error.toStdString();
  EXPECT_TRUE(tilescope::testing::readBytes(dir.filePath("c.svg")).startsWith("<?xml"));
  ASSERT_TRUE(area.exportBenchmark(1, dir.filePath("c.pdf"), &error)) << error.toStdString();
  EXPECT_TRUE(tilescope::testing::readBytes(dir.filePath("c.pdf")).startsWith("%PDF-"));
  ASSERT_TRUE(area.exportBenchmark(1, dir.filePath("c.png"), &error)) << error.toStdString();
  EXPECT_EQ(QImage(dir.filePath("c.png")).width(), 640);
  ASSERT_TRUE(area.exportBenchmark(1, dir.filePath("c.csv"), &error)) << error.toStdString();
  const auto back = tilescope::viz::BenchmarkCollection::fromCsv(tilescope::testing::readBytes(dir.filePath("c.csv")).toStdString());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(bits(back.results()[0].lines[0].yMax[2]), bits(0.30000000000000004 * 1.2));
  EXPECT_FALSE(area.exportBenchmark(0, dir.filePath("d.csv"), &error));
}

TEST(PerformanceDock, CollectsEachRunsBenchmarksBesideTheInspector) {
  auto* client = new tilescope::testing::RecordingClient;
  tilescope::ui::MainWindow window(client);
  tilescope::ui::PerformanceDock* dock = window.performanceDock();
  ASSERT_TRUE(dock);
  EXPECT_TRUE(window.tabifiedDockWidgets(window.inspectorDock()).contains(dock));
  emit client->executionStarted(QStringLiteral("cellA"), 3);
  tilescope::ui::RichOutput out;
  out.data = {{"application/vnd.tilescope.benchmark+json", spec(true, false)}, {"text/plain", "<benchmark>"}};
  emit client->richOutput(QStringLiteral("cellA"), out);
  tilescope::ui::RichOutput text;
  text.data = {{"text/plain", "42"}};
  emit client->richOutput(QStringLiteral("cellA"), text);
  ASSERT_EQ(dock->benchmarks()->collection().size(), 1u);
  EXPECT_EQ(dock->benchmarks()->collection().results()[0].source, "In [3]");

  // Opening a notebook adds the benchmark outputs saved in it.
  tilescope::notebook::Notebook saved;
  tilescope::notebook::Cell cell;
  cell.id = "saved1";
  cell.executionCount = 7;
  cell.outputs = json::array({{{"output_type", "display_data"},
                               {"data", {{"application/vnd.tilescope.benchmark+json", spec(false, false)}, {"text/plain", "<b>"}}},
                               {"metadata", json::object()}}});
  saved.cells.push_back(cell);
  window.model()->reset(saved);
  ASSERT_EQ(dock->benchmarks()->collection().size(), 2u);
  EXPECT_EQ(dock->benchmarks()->collection().results()[1].source, "saved In [7]");
}

TEST(TimelinePanel, ShowsATimingFileAsTheRuntimeWritesIt) {
  QTemporaryDir dir;
  const std::string path = dir.filePath("timing.jsonl").toStdString();
  {
    std::ofstream out(path);
    const int64_t grid[3] = {4, 1, 1};
    out << tilescope::gpu::programTimingLine("copy_k", 1, grid, {100, 900, 0, 120, 700, 1, 900, 1500, 0, 700, 1400, 1}) << "\n";
    out << tilescope::gpu::programTimingLine("copy_k", 2, grid, {5, 10, 2, 5, 10, 2, 5, 10, 2, 5, 10, 2}) << "\n";
  }
  tilescope::ui::TimelinePanel panel;
  QString error;
  ASSERT_TRUE(panel.openFile(QString::fromStdString(path), &error)) << error.toStdString();
  EXPECT_EQ(panel.launchBox()->count(), 2);
  EXPECT_EQ(panel.launchBox()->itemText(0), "copy_k #1 (4 programs)");
  auto texts = panel.sceneView()->scene().texts();
  ASSERT_FALSE(texts.empty());
  EXPECT_EQ(texts[0], "copy_k, launch 1: 4 programs on 2 SMs in 1.4 us");
  // Hovering a bar names its program: program 2 ran on SM 0 from 0.8 to 1.4 us.
  panel.resize(900, 500);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const auto bars = [&] {
    std::vector<tilescope::viz::SceneRect> r;
    for (const auto& item : panel.sceneView()->scene().items())
      if (const auto* rect = std::get_if<tilescope::viz::SceneRect>(&item)) r.push_back(*rect);
    return r;
  }();
  ASSERT_EQ(bars.size(), 4u);
  EXPECT_GT(bars[3].x + bars[3].w, 700);  // the time axis fills the shown width
  const QPointF middle(bars[2].x + bars[2].w / 2, bars[2].y + bars[2].h / 2);
  EXPECT_EQ(panel.tooltipAt(middle), "program 2, pid (2, 0, 0)\nSM 0\n0.8 us to 1.4 us (0.6 us)");
  EXPECT_TRUE(panel.tooltipAt(QPointF(1, 1)).isEmpty());
  QTest::mouseMove(panel.sceneView(), middle.toPoint());
  EXPECT_TRUE(tilescope::testing::waitUntil([] { return QToolTip::text() == "program 2, pid (2, 0, 0)\nSM 0\n0.8 us to 1.4 us (0.6 us)"; }, 2000))
      << QToolTip::text().toStdString();
  panel.selectLaunch(1);
  EXPECT_EQ(panel.sceneView()->scene().texts()[0], "copy_k, launch 2: 4 programs on 1 SMs in 0.005 us");

  const QString bad = dir.filePath("bad.jsonl");
  tilescope::testing::writeBytes(bad, "{\"kernel\": 3}\n");
  EXPECT_FALSE(panel.openFile(bad, &error));
  EXPECT_TRUE(error.startsWith(bad + ":1: ")) << error.toStdString();
  EXPECT_EQ(panel.statusLabel()->text(), error);
}

}  // namespace
