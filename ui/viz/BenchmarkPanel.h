#pragma once
// The benchmark panel: perf_report results gathered from the notebook's runs (cells, runs,
// backends), listed with a check box each, drawn overlaid or side by side (ui/viz/BenchmarkChart)
// with an optional log-2 x axis and a ceiling line the user types in (measured copy bandwidth, peak
// FLOP/s). Hovering a point shows its values; Export writes PNG, SVG, PDF or the CSV of every listed
// result at full precision (core/viz/BenchmarkSeries); Import reads such a CSV back, so runs of
// another session or a GPU machine can be compared with this one's.
#include <QList>
#include <QWidget>
#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <optional>

#include "core/viz/BenchmarkSeries.h"
#include "ui/Theme.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLineEdit;
class QListWidget;
class QToolButton;

namespace tilescope::ui {

struct BenchmarkChartLine;

class BenchmarkPanel : public QWidget {
  Q_OBJECT
public:
  explicit BenchmarkPanel(QWidget* parent = nullptr);
  ~BenchmarkPanel() override;

  // Adds one perf_report display data (application/vnd.tilescope.benchmark+json); `source` says where
  // it came from ("In [3]"). False when it holds nothing to draw.
  bool addResult(const nlohmann::json& spec, const QString& source);
  // Adds the results of a CSV file written by exportTo (another session, another machine's GPU run).
  // False, with `error` naming the file and line, when it is not such a file.
  bool importCsv(const QString& path, QString* error = nullptr);
  void removeResult(int index);
  void clearResults();
  const viz::BenchmarkCollection& collection() const { return collection_; }
  // Unchecked results stay listed (and exported as CSV) but are not drawn.
  void setResultShown(int index, bool shown);

  void setSideBySide(bool sideBySide);
  bool sideBySide() const;
  void setLog2X(bool log2X);
  bool log2X() const;
  // An empty or unparsable text removes the ceiling.
  void setCeiling(const QString& value, const QString& label = {});
  std::optional<double> ceiling() const;
  void setTheme(const Theme& theme);

  // By suffix: .png, .svg, .pdf (the chart as shown, at least 900x520) or .csv (every listed result).
  bool exportTo(const QString& path, QString* error = nullptr);
  // The tooltip for a point of the plot widget, as hovering there shows it.
  QString tooltipAt(QPoint plotPixel) const;

  // For tests and the screenshots.
  QCustomPlot* plot() const { return plot_; }
  QListWidget* resultList() const { return list_; }
  QComboBox* layoutBox() const { return layout_; }
  QCheckBox* log2Box() const { return log2_; }
  QLineEdit* ceilingEdit() const { return ceilingValue_; }
  QStringList legendNames() const;  // the drawn lines' names, in order

signals:
  void resultsChanged();

private:
  void add(viz::BenchmarkResult result);
  void redraw();
  void exportWithDialog(const QString& suffix);

  viz::BenchmarkCollection collection_;
  QList<bool> shown_;
  std::unique_ptr<QList<BenchmarkChartLine>> lines_;  // what the plot shows, for tooltips (BenchmarkChart.h stays out of this header)
  Theme theme_;
  QListWidget* list_;
  QComboBox* layout_;
  QCheckBox* log2_;
  QLineEdit* ceilingValue_;
  QLineEdit* ceilingLabel_;
  QToolButton* export_;
  QCustomPlot* plot_;
};

}  // namespace tilescope::ui
