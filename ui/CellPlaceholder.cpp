#include "ui/CellPlaceholder.h"

#include <QFontMetrics>
#include <algorithm>

#include "core/notebook/CellOutputs.h"
#include "ui/BenchmarkPlot.h"

namespace tilescope::ui {
namespace {
// Frame, margins and spacing around the editor (the layout adds no spacing at placeholders), and
// around each output, in pixels.
constexpr int kCellChrome = 24;
constexpr int kOutputChrome = 6;
constexpr int kPictureHeight = 300;
// Outputs longer than this many lines are shown in full too, but estimating them exactly buys nothing.
constexpr int kMaxEstimatedOutputLines = 400;

int lineCount(const std::string& text) {
  if (text.empty()) return 1;
  const int newlines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  return text.back() == '\n' ? std::max(1, newlines) : newlines + 1;
}

int outputHeight(const nlohmann::json& output, int outputLineHeight) {
  if (!output.is_object()) return 0;
  const std::string type = output.value("output_type", "");
  int lines = 0;
  if (type == "stream" && output.contains("text")) {
    lines = lineCount(notebook::joinLines(output["text"]));
  } else if (type == "error") {
    lines = 1 + (output.contains("traceback") && output["traceback"].is_array() ? static_cast<int>(output["traceback"].size()) : 0);
  } else if (output.contains("data") && output["data"].is_object()) {
    const nlohmann::json& data = output["data"];
    for (const char* picture : {"image/png", "image/jpeg", "image/gif", "image/svg+xml", BenchmarkPlot::kMimeType})
      if (data.contains(picture)) return kPictureHeight + kOutputChrome;
    if (data.contains("text/plain")) lines = lineCount(notebook::joinLines(data["text/plain"]));
  }
  return std::min(lines, kMaxEstimatedOutputLines) * outputLineHeight + kOutputChrome;
}
}  // namespace

CellPlaceholder::CellPlaceholder(const notebook::Cell& cell, const Appearance& appearance)
    : QSpacerItem(0, 0, QSizePolicy::Minimum, QSizePolicy::Fixed) {
  reestimate(cell, appearance);
}

int CellPlaceholder::estimatedHeight(const notebook::Cell& cell, const Appearance& appearance) {
  const QFont& sourceFont = cell.type == notebook::CellType::Markdown ? appearance.markdownFont : appearance.editorFont;
  int height = kCellChrome + lineCount(cell.source) * QFontMetrics(sourceFont).lineSpacing();
  if (cell.type == notebook::CellType::Code && cell.outputs.is_array()) {
    const int outputLine = QFontMetrics(appearance.outputFont).lineSpacing();
    for (const nlohmann::json& output : cell.outputs) height += outputHeight(output, outputLine);
  }
  return height;
}

void CellPlaceholder::reestimate(const notebook::Cell& cell, const Appearance& appearance) {
  height_ = estimatedHeight(cell, appearance);
  applySize();
}

void CellPlaceholder::setShown(bool shown) {
  if (shown_ == shown) return;
  shown_ = shown;
  applySize();
}

void CellPlaceholder::applySize() { changeSize(0, shown_ ? height_ : 0, QSizePolicy::Minimum, QSizePolicy::Fixed); }

}  // namespace tilescope::ui
