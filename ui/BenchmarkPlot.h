#pragma once
// Draws the series `triton.testing.perf_report(...).run()` emits (display data of MIME type
// application/vnd.tilescope.benchmark+json, described in docs/HOST_LANGUAGE.md) as a line chart, the
// way Triton's matplotlib plot looks: one line per provider over the x values, log axes when asked,
// the plot name as title and a legend. Rendered to an image, so it can be shown under the cell and
// saved as an image/png output that GitHub and Jupyter display too. A run on the simulator
// ("simulated": true) timed the CPU, so its chart says "simulated" in the title, under it and on the
// y axis: nobody should read it as GPU figures.
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <utility>
#include <nlohmann/json.hpp>

#include "ui/Theme.h"

class QCPAxis;
class QCustomPlot;

namespace tilescope::ui {

class BenchmarkPlot {
public:
  static constexpr const char* kMimeType = "application/vnd.tilescope.benchmark+json";
  static constexpr QSize kDefaultSize{640, 380};

  // The chart's title: the plot name, with "(simulated)" after it for a simulator run.
  static QString title(const nlohmann::json& spec);
  static bool simulated(const nlohmann::json& spec);
  // Within two decades a log ticker labels odd in-between values (5·10^1, then 10^2 twice), so such a
  // log x axis is labelled at the benchmark's own x values instead (the sizes the reader chose).
  // Empty when the axis is linear, spans two decades or more, or has text values.
  static QList<std::pair<double, QString>> valueTicks(const nlohmann::json& spec);
  // Draws the chart into `plot` (sized by the caller); false when the spec has no series to draw.
  static bool draw(QCustomPlot& plot, const nlohmann::json& spec, const Theme& theme);
  // Exports the chart by the file's suffix: .png, .svg or .pdf (the picture above), or .csv (the
  // numbers at full precision, core/viz/BenchmarkSeries). False with `error` set otherwise.
  static bool save(const nlohmann::json& spec, const Theme& theme, const QString& path, QString* error = nullptr, QSize size = kDefaultSize);
  // Colours an axis and its grid in the theme and labels it: every chart of the app (the inline one,
  // the benchmark panel's) looks alike.
  static void styleAxis(QCPAxis* axis, const Theme& theme, const QString& label);
  // A null image when the spec has no series to draw.
  static QImage render(const nlohmann::json& spec, const Theme& theme, QSize size = kDefaultSize);
  // The same picture as base64 PNG (an nbformat image/png value); empty when there is nothing to draw.
  static std::string renderBase64Png(const nlohmann::json& spec, const Theme& theme, QSize size = kDefaultSize);
};

}  // namespace tilescope::ui
