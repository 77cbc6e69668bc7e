#pragma once
// The outputs under a code cell: streams, rich results (text, markdown, HTML, PNG/JPEG/SVG images)
// and errors with their traceback, rendered from the cell's nbformat outputs. Updating compares with
// what is shown and re-renders only outputs that changed, so a loop of prints stays cheap. Traceback
// lines that point into a notebook cell are links (TracebackLink); clicking one emits locationActivated.
#include <QWidget>
#include <nlohmann/json.hpp>
#include <vector>

#include "ui/InspectorLink.h"
#include "ui/Theme.h"
#include "ui/TracebackLink.h"

class QLabel;
class QMenu;
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
  // The widget showing output i: a QLabel, or a RichTextView for HTML and markdown (tests).
  QWidget* outputWidget(int index) const;
  // The same when it is a label (text, images, errors), else nullptr (tests).
  QLabel* outputLabel(int index) const;
  // The traceback links of every shown error, in order (tests).
  QStringList links() const;
  // A benchmark chart's context menu (export PNG/SVG/PDF/CSV); null when output `index` is no chart.
  QMenu* createBenchmarkMenu(int index);
  // What the menu's actions do once a file is chosen: by suffix, .png/.svg/.pdf or .csv.
  bool exportBenchmark(int index, const QString& path, QString* error = nullptr) const;

  // Longer streams show only their end, so a runaway print loop cannot freeze the window.
  static constexpr int kMaxShownCharacters = 200'000;

signals:
  // A traceback link (a place in a notebook cell) was clicked.
  void locationActivated(const tilescope::ui::TracebackLink& link);
  // An inspector link in an HTML output was clicked (tilescope.check's report).
  void inspectorLinkActivated(const tilescope::ui::InspectorLink& link);

private:
  QWidget* render(const nlohmann::json& output);
  const nlohmann::json* benchmarkSpec(int index) const;
  void style(QWidget* widget, const nlohmann::json& output) const;

  QVBoxLayout* layout_;
  std::vector<nlohmann::json> shown_;
  std::vector<QWidget*> widgets_;
  std::vector<QString> plainTexts_;  // what each widget shows, without markup
  Appearance appearance_;
};

}  // namespace tilescope::ui
