#pragma once
// Draws several perf_report results (core/viz/BenchmarkSeries) into one QCustomPlot for the
// benchmark panel: overlaid on one pair of axes or side by side (one axis rect per result), one
// line per provider with its quantile band where the results carry quantiles, an optional log-2 x
// axis and an optional ceiling line (measured copy bandwidth, peak FLOP/s). Simulated results say
// so in their legend entry and are drawn dashed: their numbers are CPU times. Also saves a plot as
// PNG, SVG or PDF. Only ui/viz's .cpp files include qcustomplot.h.
#include <QList>
#include <QPointF>
#include <QString>
#include <optional>
#include <vector>

#include "core/viz/BenchmarkSeries.h"
#include "ui/Theme.h"

class QCustomPlot;
class QCPGraph;

namespace tilescope::ui {

struct BenchmarkChartOptions {
  bool sideBySide = false;
  bool log2X = false;
  std::optional<double> ceiling;  // in the results' y unit
  QString ceilingLabel;           // e.g. "copy bandwidth"
};

// What one drawn line shows, for tooltips.
struct BenchmarkChartLine {
  QCPGraph* graph = nullptr;
  const viz::BenchmarkResult* result = nullptr;
  size_t line = 0;  // index into result->lines
};

class BenchmarkChart {
public:
  // Clears `plot` and draws `results` (not owned; they must outlive the returned lines).
  static QList<BenchmarkChartLine> draw(QCustomPlot& plot, const std::vector<const viz::BenchmarkResult*>& results,
                                        const BenchmarkChartOptions& options, const Theme& theme);
  // The tooltip for the data point nearest to `pixel` (within `radius` pixels), or empty.
  static QString tooltipAt(const QList<BenchmarkChartLine>& lines, QPointF pixel, double radius = 12);
  // PNG, SVG or PDF by the file's suffix, at width x height pixels. False with `error` set when the
  // suffix is unknown or the file cannot be written.
  static bool save(QCustomPlot& plot, const QString& path, int width, int height, QString* error = nullptr);
};

}  // namespace tilescope::ui
