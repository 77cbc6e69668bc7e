#include "ui/viz/BenchmarkChart.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QSet>
#include <QSvgGenerator>
#include <cmath>

#include "ui/BenchmarkPlot.h"

namespace tilescope::ui {

namespace {
// matplotlib's tab10 cycle, as the inline chart (ui/BenchmarkPlot) uses.
const QColor kCycle[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                         QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                         QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                         QColor(0x17, 0xbe, 0xcf)};
// Results overlaid on one pair of axes differ in marker shape as well as colour.
const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
                                                 QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross, QCPScatterStyle::ssPlus};

QString qstr(const std::string& s) { return QString::fromStdString(s); }

// The x axis: text positions with their names, log 2 (1024, 2048, ...) or linear.
void setUpXAxis(QCPAxis* axis, const std::vector<const viz::BenchmarkResult*>& results, bool log2X) {
  const viz::BenchmarkResult* textResult = nullptr;
  for (const viz::BenchmarkResult* r : results)
    if (r->textX()) textResult = r;
  if (textResult) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t i = 0; i < textResult->x.size(); ++i) ticker->addTick(textResult->x[i], qstr(textResult->xText[i]));
    axis->setTicker(ticker);
    return;
  }
  if (log2X) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(7);
  }
}

QString yLabelOf(const std::vector<const viz::BenchmarkResult*>& results) {
  QStringList labels;
  for (const viz::BenchmarkResult* r : results)
    if (!r->yLabel.empty() && !labels.contains(qstr(r->yLabel))) labels << qstr(r->yLabel);
  return labels.join(QStringLiteral(" / "));
}

bool anyYLog(const std::vector<const viz::BenchmarkResult*>& results) {
  for (const viz::BenchmarkResult* r : results)
    if (r->yLog) return true;
  return false;
}

// Draws the results' lines (and bands) on one axis rect; returns the lines for tooltips.
QList<BenchmarkChartLine> drawOn(QCustomPlot& plot, QCPAxisRect* rect, QCPLegend* legend,
                                 const std::vector<const viz::BenchmarkResult*>& results, const BenchmarkChartOptions& options,
                                 int& colourIndex, const Theme& theme) {
  QCPAxis* xAxis = rect->axis(QCPAxis::atBottom);
  QCPAxis* yAxis = rect->axis(QCPAxis::atLeft);
  const bool xLog = xAxis->scaleType() == QCPAxis::stLogarithmic;
  const bool yLog = yAxis->scaleType() == QCPAxis::stLogarithmic;
  auto usable = [&](double x, double y) { return std::isfinite(x) && std::isfinite(y) && (!xLog || x > 0) && (!yLog || y > 0); };
  QList<BenchmarkChartLine> lines;
  int resultIndex = 0;
  for (const viz::BenchmarkResult* r : results) {
    const QCPScatterStyle::ScatterShape shape = options.sideBySide ? kShapes[0] : kShapes[static_cast<size_t>(resultIndex) % std::size(kShapes)];
    for (size_t l = 0; l < r->lines.size(); ++l) {
      const viz::BenchmarkLine& line = r->lines[l];
      const QColor colour = kCycle[static_cast<size_t>(colourIndex++) % std::size(kCycle)];
      if (line.hasBand()) {
        // The quantile band: the area between a y_min and a y_max graph, outside the legend.
        QCPGraph* low = plot.addGraph(xAxis, yAxis);
        QCPGraph* high = plot.addGraph(xAxis, yAxis);
        for (QCPGraph* g : {low, high}) g->setPen(Qt::NoPen);
        QColor fill = colour;
        fill.setAlpha(55);
        high->setBrush(fill);
        high->setChannelFillGraph(low);
        for (size_t i = 0; i < r->x.size(); ++i)
          if (usable(r->x[i], line.yMin[i]) && usable(r->x[i], line.yMax[i])) {
            low->addData(r->x[i], line.yMin[i]);
            high->addData(r->x[i], line.yMax[i]);
          }
        for (QCPGraph* g : {low, high}) g->setSelectable(QCP::stNone);
      }
      QCPGraph* graph = plot.addGraph(xAxis, yAxis);
      QString name = qstr(line.provider);
      if (!options.sideBySide || r->simulated) {
        QStringList about;
        // Short: the results list above names each run's plot in full.
        if (!options.sideBySide && !r->source.empty()) about << qstr(r->source);
        if (r->simulated) about << QObject::tr("simulated");
        if (!about.isEmpty()) name += QStringLiteral(" (") + about.join(QStringLiteral(", ")) + QStringLiteral(")");
      }
      graph->setName(name);
      graph->setPen(QPen(colour, 2, r->simulated ? Qt::DashLine : Qt::SolidLine));
      graph->setScatterStyle(QCPScatterStyle(shape, colour, 6));
      for (size_t i = 0; i < r->x.size(); ++i)
        if (usable(r->x[i], line.y[i])) graph->addData(r->x[i], line.y[i]);
      graph->addToLegend(legend);
      lines.append({graph, r, l});
    }
    ++resultIndex;
  }
  // Axes around the data, with a little air, and the ceiling inside.
  bool found = false;
  QCPRange xr = QCPRange(), yr = QCPRange();
  for (const BenchmarkChartLine& line : lines) {
    bool ok = false;
    const QCPRange gx = line.graph->getKeyRange(ok, xLog ? QCP::sdPositive : QCP::sdBoth);
    if (!ok) continue;
    const QCPRange gy = line.graph->getValueRange(ok, yLog ? QCP::sdPositive : QCP::sdBoth);
    if (!ok) continue;
    if (found) {
      xr.expand(gx);
      yr.expand(gy);
    } else {
      xr = gx, yr = gy, found = true;
    }
  }
  for (QCPAbstractPlottable* p : rect->plottables()) {
    bool ok = false;
    const QCPRange band = p->getValueRange(ok, yLog ? QCP::sdPositive : QCP::sdBoth);
    if (ok && found) yr.expand(band);
  }
  if (options.ceiling && (!yLog || *options.ceiling > 0)) {
    if (found) yr.expand(*options.ceiling);
    auto* ceiling = new QCPItemStraightLine(&plot);
    ceiling->setClipAxisRect(rect);
    for (QCPItemPosition* p : {ceiling->point1, ceiling->point2}) {
      p->setAxes(xAxis, yAxis);
      p->setAxisRect(rect);
    }
    ceiling->point1->setCoords(found ? xr.lower : 0, *options.ceiling);
    ceiling->point2->setCoords(found ? xr.upper : 1, *options.ceiling);
    ceiling->setPen(QPen(theme.errorText, 1.5, Qt::DashDotLine));
    auto* label = new QCPItemText(&plot);
    label->setClipAxisRect(rect);
    label->position->setAxes(xAxis, yAxis);
    label->position->setAxisRect(rect);
    label->position->setCoords(found ? xr.lower : 0, *options.ceiling);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setColor(theme.errorText);
    const QString what = options.ceilingLabel.isEmpty() ? QObject::tr("ceiling") : options.ceilingLabel;
    label->setText(QStringLiteral("%1: %2").arg(what, QString::number(*options.ceiling, 'g', 6)));
  }
  if (found) {
    auto air = [](QCPAxis* axis, QCPRange range) {
      if (axis->scaleType() == QCPAxis::stLogarithmic) axis->setRange(range.lower / 1.25, range.upper * 1.25);
      else if (range.size() > 0) axis->setRange(range.lower - range.size() * 0.05, range.upper + range.size() * 0.05);
      else axis->setRange(range.lower - 1, range.upper + 1);
    };
    air(xAxis, xr);
    air(yAxis, yr);
  }
  return lines;
}

QCPTextElement* heading(QCustomPlot& plot, const QString& text, const QColor& colour, int pointSize, bool bold) {
  auto* element = new QCPTextElement(&plot, text, QFont(QFont().family(), pointSize, bold ? QFont::Bold : QFont::Normal));
  element->setTextColor(colour);
  return element;
}
}  // namespace

QList<BenchmarkChartLine> BenchmarkChart::draw(QCustomPlot& plot, const std::vector<const viz::BenchmarkResult*>& results,
                                               const BenchmarkChartOptions& options, const Theme& theme) {
  plot.clearPlottables();
  plot.clearItems();
  plot.plotLayout()->clear();  // deletes the axis rects and the legend
  plot.legend = nullptr;
  plot.setAutoAddPlottableToLegend(false);
  plot.setBackground(theme.cellBackground);
  QList<BenchmarkChartLine> lines;
  bool anySimulated = false;
  for (const viz::BenchmarkResult* r : results) anySimulated = anySimulated || r->simulated;

  int row = 0;
  if (results.empty()) {
    plot.plotLayout()->addElement(0, 0, heading(plot, QObject::tr("No benchmark results yet: run a cell that calls perf_report(...).run()"),
                                                theme.mutedText, 10, false));
    return lines;
  }
  if (anySimulated) {
    plot.plotLayout()->addElement(row++, 0, heading(plot, QObject::tr("Dashed lines were simulated on the CPU: the simulator's times, not a GPU's"),
                                                    theme.warningText, 9, true));
  }
  auto* rects = new QCPLayoutGrid;
  plot.plotLayout()->addElement(row, 0, rects);
  const std::vector<std::vector<const viz::BenchmarkResult*>> groups =
      options.sideBySide ? [&] {
        std::vector<std::vector<const viz::BenchmarkResult*>> g;
        for (const viz::BenchmarkResult* r : results) g.push_back({r});
        return g;
      }()
                         : std::vector<std::vector<const viz::BenchmarkResult*>>{results};
  int colourIndex = 0;
  for (size_t column = 0; column < groups.size(); ++column) {
    const auto& group = groups[column];
    auto* cell = new QCPLayoutGrid;
    rects->addElement(0, static_cast<int>(column), cell);
    QString title;
    if (group.size() == 1) title = QString::fromStdString(group[0]->title());
    else {
      QStringList names;
      for (const viz::BenchmarkResult* r : group)
        if (!names.contains(qstr(r->plotName))) names << qstr(r->plotName);
      title = names.join(QStringLiteral(", "));
    }
    cell->addElement(0, 0, heading(plot, title, theme.text, 10, true));
    auto* rect = new QCPAxisRect(&plot);
    cell->addElement(1, 0, rect);
    rect->setBackground(theme.editorPaper);
    BenchmarkPlot::styleAxis(rect->axis(QCPAxis::atBottom), theme, qstr(group[0]->xLabel));
    BenchmarkPlot::styleAxis(rect->axis(QCPAxis::atLeft), theme, yLabelOf(group));
    setUpXAxis(rect->axis(QCPAxis::atBottom), group, options.log2X);
    if (anyYLog(group)) {
      rect->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
      rect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    // The legend goes under the axes, two entries a row: with several runs overlaid it would hide
    // the lines inside them.
    auto* legend = new QCPLegend;
    cell->addElement(2, 0, legend);
    cell->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(options.sideBySide ? 1 : 2);
    legend->setLayer(QStringLiteral("legend"));
    legend->setBrush(theme.editorPaper);
    legend->setTextColor(theme.text);
    legend->setBorderPen(QPen(theme.border));
    if (!plot.legend) plot.legend = legend;
    lines += drawOn(plot, rect, legend, group, options, colourIndex, theme);
  }
  return lines;
}

QString BenchmarkChart::tooltipAt(const QList<BenchmarkChartLine>& lines, QPointF pixel, double radius) {
  double best = radius;
  QString text;
  for (const BenchmarkChartLine& line : lines) {
    if (!line.graph->keyAxis()->axisRect()->rect().contains(pixel.toPoint())) continue;
    const viz::BenchmarkResult& r = *line.result;
    const viz::BenchmarkLine& l = r.lines[line.line];
    for (size_t i = 0; i < r.x.size(); ++i) {
      if (!std::isfinite(l.y[i])) continue;
      const QPointF at(line.graph->keyAxis()->coordToPixel(r.x[i]), line.graph->valueAxis()->coordToPixel(l.y[i]));
      const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
      if (distance > best) continue;
      best = distance;
      text = QStringLiteral("%1\n%2\n%3 = %4\n%5 = %6")
                 .arg(qstr(l.provider), qstr(r.title()), r.xLabel.empty() ? QStringLiteral("x") : qstr(r.xLabel), qstr(r.xText[i]),
                      r.yLabel.empty() ? QStringLiteral("y") : qstr(r.yLabel), QString::number(l.y[i], 'g', 6));
      if (std::isfinite(l.yMin[i]) && std::isfinite(l.yMax[i]))
        text += QStringLiteral(" [%1, %2]").arg(QString::number(l.yMin[i], 'g', 6), QString::number(l.yMax[i], 'g', 6));
      if (r.simulated) text += QStringLiteral("\n") + QObject::tr("simulated: CPU time of the simulator");
    }
  }
  return text;
}

bool BenchmarkChart::save(QCustomPlot& plot, const QString& path, int width, int height, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  bool ok = false;
  if (suffix == QLatin1String("png")) {
    ok = plot.savePng(path, width, height);
  } else if (suffix == QLatin1String("pdf")) {
    ok = plot.savePdf(path, width, height);
  } else if (suffix == QLatin1String("svg")) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(QStringLiteral("tilescope benchmark"));
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      plot.toPainter(&painter, width, height);
      ok = painter.end();
    }
    ok = ok && QFileInfo(path).size() > 0;
  } else {
    if (error) *error = QObject::tr("Cannot export to '%1': use a .png, .svg or .pdf file name").arg(path);
    return false;
  }
  if (!ok && error) *error = QObject::tr("Could not write '%1': check that its folder exists and is writable").arg(path);
  return ok;
}

}  // namespace tilescope::ui
