#pragma once
// The outputs under a code cell: streams, rich results (text, markdown, HTML, PNG/JPEG/SVG images)
// and errors with their traceback, rendered from the cell's nbformat outputs. Updating compares with
// what is shown and re-renders only outputs that changed, so a loop of prints stays cheap.
#include <QWidget>
#include <nlohmann/json.hpp>
#include <vector>

#include "ui/Theme.h"

class QLabel;
class QVBoxLayout;

namespace tilescope::ui {

class OutputArea : public QWidget {
  Q_OBJECT
public:
  explicit OutputArea(QWidget* parent = nullptr);

  void setOutputs(const nlohmann::json& outputs);
  void setAppearance(const Appearance& appearance);
  int outputCount() const { return static_cast<int>(shown_.size()); }
  // All shown text, outputs separated by newlines (tests, copy).
  QString plainText() const;

  // Longer streams show only their end, so a runaway print loop cannot freeze the window.
  static constexpr int kMaxShownCharacters = 200'000;

private:
  QLabel* render(const nlohmann::json& output);
  void style(QLabel* label, const nlohmann::json& output) const;

  QVBoxLayout* layout_;
  std::vector<nlohmann::json> shown_;
  std::vector<QLabel*> labels_;
  Appearance appearance_;
};

}  // namespace tilescope::ui
