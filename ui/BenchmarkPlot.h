#pragma once
// Draws the series `triton.testing.perf_report(...).run()` emits (display data of MIME type
// application/vnd.tilescope.benchmark+json, described in docs/HOST_LANGUAGE.md) as a line chart, the
// way Triton's matplotlib plot looks: one line per provider over the x values, log axes when asked,
// the plot name as title and a legend. Rendered to an image, so it can be shown under the cell and
// saved as an image/png output that GitHub and Jupyter display too.
#include <QImage>
#include <QSize>
#include <nlohmann/json.hpp>

#include "ui/Theme.h"

namespace tilescope::ui {

class BenchmarkPlot {
public:
  static constexpr const char* kMimeType = "application/vnd.tilescope.benchmark+json";
  static constexpr QSize kDefaultSize{640, 380};

  // A null image when the spec has no series to draw.
  static QImage render(const nlohmann::json& spec, const Theme& theme, QSize size = kDefaultSize);
  // The same picture as base64 PNG (an nbformat image/png value); empty when there is nothing to draw.
  static std::string renderBase64Png(const nlohmann::json& spec, const Theme& theme, QSize size = kDefaultSize);
};

}  // namespace tilescope::ui
