#include "ui/BenchmarkPlot.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFile>
#include <algorithm>
#include <cmath>

#include "core/viz/BenchmarkSeries.h"
#include "ui/viz/BenchmarkChart.h"

namespace tilescope::ui {
using nlohmann::json;

namespace {
// matplotlib's default colour cycle (tab10), used where a benchmark gives no styles.
const QColor kCycle[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                         QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                         QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                         QColor(0x17, 0xbe, 0xcf)};

QString text(const json& spec, const char* key) {
  const auto it = spec.find(key);
  return it != spec.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

// matplotlib colour names as Triton tutorials write them: single letters, "tab:blue", CSS names.
QColor styleColour(const std::string& name, int index) {
  static const std::pair<const char*, QColor> letters[] = {
      {"b", QColor(0x1f, 0x77, 0xb4)}, {"g", QColor(0x2c, 0xa0, 0x2c)}, {"r", QColor(0xd6, 0x27, 0x28)},
      {"c", QColor(0x17, 0xbe, 0xcf)}, {"m", QColor(0xe3, 0x77, 0xc2)}, {"y", QColor(0xbc, 0xbd, 0x22)},
      {"k", QColor(Qt::black)},        {"w", QColor(Qt::white)}};
  for (const auto& [letter, colour] : letters)
    if (name == letter) return colour;
  const QString qname = QString::fromStdString(name).remove(QStringLiteral("tab:"));
  if (QColor colour = QColor::fromString(qname); colour.isValid()) return colour;
  return kCycle[static_cast<size_t>(index) % std::size(kCycle)];
}

Qt::PenStyle styleLine(const std::string& style) {
  if (style == "--") return Qt::DashLine;
  if (style == ":") return Qt::DotLine;
  if (style == "-.") return Qt::DashDotLine;
  return Qt::SolidLine;
}

void styleAxisWithScale(QCPAxis* axis, const Theme& theme, const QString& label, bool log) {
  BenchmarkPlot::styleAxis(axis, theme, label);
  if (log) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    axis->setNumberFormat(QStringLiteral("eb"));  // 10^4, 10^5, ... as matplotlib labels log axes
    axis->setNumberPrecision(0);
  }
}
}  // namespace

void BenchmarkPlot::styleAxis(QCPAxis* axis, const Theme& theme, const QString& label) {
  axis->setLabel(label);
  axis->setBasePen(QPen(theme.mutedText));
  axis->setTickPen(QPen(theme.mutedText));
  axis->setSubTickPen(QPen(theme.mutedText));
  axis->setTickLabelColor(theme.text);
  axis->setLabelColor(theme.text);
  axis->grid()->setPen(QPen(theme.border, 0, Qt::DotLine));
}

bool BenchmarkPlot::simulated(const json& spec) {
  const auto it = spec.find("simulated");
  return it != spec.end() && it->is_boolean() && it->get<bool>();
}

QString BenchmarkPlot::title(const json& spec) {
  const QString name = text(spec, "plot_name");
  if (!simulated(spec)) return name;
  return name.isEmpty() ? QObject::tr("Simulated benchmark") : QObject::tr("%1 (simulated)").arg(name);
}

QList<std::pair<double, QString>> BenchmarkPlot::valueTicks(const json& spec) {
  const json xs = spec.value("x_vals", json::array());
  if (!spec.value("x_log", false) || !xs.is_array() || xs.size() < 2) return {};
  double low = 0, high = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].is_number()) return {};
    const double v = xs[i].get<double>();
    low = i == 0 ? v : std::min(low, v);
    high = i == 0 ? v : std::max(high, v);
  }
  if (low <= 0 || high / low >= 100) return {};
  QList<std::pair<double, QString>> ticks;
  for (const json& v : xs) ticks.append({v.get<double>(), QString::number(v.get<double>(), 'g', 6)});
  return ticks;
}

QImage BenchmarkPlot::render(const json& spec, const Theme& theme, QSize size) {
  QCustomPlot plot;
  plot.resize(size);
  if (!draw(plot, spec, theme)) return {};
  return plot.toPixmap(size.width(), size.height()).toImage();
}

bool BenchmarkPlot::save(const json& spec, const Theme& theme, const QString& path, QString* error, QSize size) {
  if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) {
    std::string why;
    auto result = viz::BenchmarkResult::fromJson(spec, {}, &why);
    if (!result) {
      if (error) *error = QObject::tr("Nothing to export: %1").arg(QString::fromStdString(why));
      return false;
    }
    viz::BenchmarkCollection collection;
    collection.add(std::move(*result));
    const std::string csv = collection.toCsv();
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size())) {
      if (error) *error = QObject::tr("Could not write '%1': check that its folder exists and is writable").arg(path);
      return false;
    }
    return true;
  }
  QCustomPlot plot;
  plot.resize(size);
  if (!draw(plot, spec, theme)) {
    if (error) *error = QObject::tr("Nothing to export: the benchmark has no series");
    return false;
  }
  return BenchmarkChart::save(plot, path, size.width(), size.height(), error);
}

bool BenchmarkPlot::draw(QCustomPlot& plot, const json& spec, const Theme& theme) {
  if (!spec.is_object() || !spec.contains("series") || !spec["series"].is_array() || spec["series"].empty()) return false;
  const json xs = spec.value("x_vals", json::array());
  if (!xs.is_array() || xs.empty()) return false;
  const bool xLog = spec.value("x_log", false);
  const bool yLog = spec.value("y_log", false);

  plot.setBackground(theme.cellBackground);
  plot.axisRect()->setBackground(theme.editorPaper);
  // Numbers on the x axis, or the positions of text values (providers, shapes) with their names.
  QVector<double> x;
  auto textTicker = QSharedPointer<QCPAxisTickerText>::create();
  bool textX = false;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].is_number()) {
      x << xs[i].get<double>();
    } else {
      textX = true;
      x << static_cast<double>(i);
      textTicker->addTick(static_cast<double>(i), QString::fromStdString(xs[i].is_string() ? xs[i].get<std::string>() : xs[i].dump()));
    }
  }
  styleAxisWithScale(plot.xAxis, theme, text(spec, "xlabel"), xLog && !textX);
  const bool isSimulated = simulated(spec);
  const QString ylabel = text(spec, "ylabel");
  styleAxisWithScale(plot.yAxis, theme,
            isSimulated ? (ylabel.isEmpty() ? QObject::tr("simulated") : QObject::tr("%1 (simulated)").arg(ylabel)) : ylabel, yLog);
  if (textX) plot.xAxis->setTicker(textTicker);
  if (const QList<std::pair<double, QString>> ticks = valueTicks(spec); !ticks.isEmpty()) {
    auto valueTicker = QSharedPointer<QCPAxisTickerText>::create();
    for (const auto& [value, label] : ticks) valueTicker->addTick(value, label);
    plot.xAxis->setTicker(valueTicker);
  }

  const json styles = spec.value("styles", json::array());
  int index = 0;
  for (const json& series : spec["series"]) {
    if (!series.is_object()) continue;
    QCPGraph* graph = plot.addGraph();
    graph->setName(QString::fromStdString(series.value("name", std::string("series ") + std::to_string(index + 1))));
    std::string colour, line;
    if (styles.is_array() && index < static_cast<int>(styles.size()) && styles[index].is_array()) {
      if (!styles[index].empty() && styles[index][0].is_string()) colour = styles[index][0].get<std::string>();
      if (styles[index].size() > 1 && styles[index][1].is_string()) line = styles[index][1].get<std::string>();
    }
    graph->setPen(QPen(colour.empty() ? kCycle[static_cast<size_t>(index) % std::size(kCycle)] : styleColour(colour, index), 2, styleLine(line)));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    const json y = series.value("y", json::array());
    for (size_t i = 0; i < static_cast<size_t>(x.size()) && y.is_array() && i < y.size(); ++i)
      if (y[i].is_number() && (!yLog || y[i].get<double>() > 0)) graph->addData(x[static_cast<qsizetype>(i)], y[i].get<double>());
    ++index;
  }
  plot.rescaleAxes();
  // A little air around the lines, as matplotlib leaves.
  for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
    const QCPRange range = axis->range();
    if (axis->scaleType() == QCPAxis::stLogarithmic) axis->setRange(range.lower / 1.25, range.upper * 1.25);
    else if (range.size() > 0) axis->setRange(range.lower - range.size() * 0.05, range.upper + range.size() * 0.05);
    else axis->setRange(range.lower - 1, range.upper + 1);
  }
  if (isSimulated) {
    // Right under the title, in the warning colour: these are CPU times of the simulator.
    plot.plotLayout()->insertRow(0);
    auto* note = new QCPTextElement(&plot, QObject::tr("Simulated on the CPU: the simulator's times, not a GPU's"),
                                    QFont(QFont().family(), 9, QFont::Bold));
    note->setTextColor(theme.warningText);
    plot.plotLayout()->addElement(0, 0, note);
  }
  if (const QString heading = title(spec); !heading.isEmpty()) {
    plot.plotLayout()->insertRow(0);
    auto* element = new QCPTextElement(&plot, heading, QFont(QFont().family(), 11, QFont::Bold));
    element->setTextColor(theme.text);
    plot.plotLayout()->addElement(0, 0, element);
  }
  plot.legend->setVisible(index > 0);
  plot.legend->setBrush(theme.editorPaper);
  plot.legend->setTextColor(theme.text);
  plot.legend->setBorderPen(QPen(theme.border));
  plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  return true;
}

std::string BenchmarkPlot::renderBase64Png(const json& spec, const Theme& theme, QSize size) {
  const QImage image = render(spec, theme, size);
  if (image.isNull()) return {};
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return png.toBase64().toStdString();
}

}  // namespace tilescope::ui
