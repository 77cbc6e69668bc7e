#include "ui/viz/BenchmarkPanel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "ui/viz/BenchmarkChart.h"

namespace tilescope::ui {

namespace {
constexpr QSize kMinimumExportSize{900, 520};
}

BenchmarkPanel::BenchmarkPanel(QWidget* parent)
    : QWidget(parent), lines_(std::make_unique<QList<BenchmarkChartLine>>()), theme_(Theme::lightTheme()) {
  setObjectName(QStringLiteral("benchmarkPanel"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);

  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("benchmarkResults"));
  list_->setMaximumHeight(72);
  list_->setToolTip(tr("perf_report results of this session; uncheck one to hide it"));
  column->addWidget(list_);

  auto* controls = new QHBoxLayout;
  layout_ = new QComboBox(this);
  layout_->addItem(tr("Overlaid"));
  layout_->addItem(tr("Side by side"));
  controls->addWidget(layout_);
  log2_ = new QCheckBox(tr("log\u2082 x"), this);
  controls->addWidget(log2_);
  controls->addWidget(new QLabel(tr("Ceiling:"), this));
  ceilingValue_ = new QLineEdit(this);
  ceilingValue_->setPlaceholderText(tr("e.g. 3350"));
  ceilingValue_->setToolTip(tr("A horizontal line at this y value: measured copy bandwidth (GB/s) or peak FLOP/s (TFLOP/s)"));
  ceilingValue_->setMaximumWidth(80);
  controls->addWidget(ceilingValue_);
  ceilingLabel_ = new QLineEdit(this);
  ceilingLabel_->setPlaceholderText(tr("label"));
  ceilingLabel_->setMaximumWidth(120);
  controls->addWidget(ceilingLabel_);
  controls->addStretch(1);
  column->addLayout(controls);
  // The actions on a row of their own, so the dock stays narrow enough to leave the notebook most of
  // the window.
  auto* actions = new QHBoxLayout;
  actions->addStretch(1);
  auto* remove = new QToolButton(this);
  remove->setText(tr("Remove"));
  remove->setToolTip(tr("Remove the selected result"));
  actions->addWidget(remove);
  auto* importButton = new QToolButton(this);
  importButton->setText(tr("Import..."));
  importButton->setToolTip(tr("Add the results of a CSV file exported here (another session, a GPU machine)"));
  actions->addWidget(importButton);
  connect(importButton, &QToolButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import benchmarks"), {}, tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !importCsv(path, &error)) QMessageBox::warning(this, tr("Import benchmarks"), error);
  });
  export_ = new QToolButton(this);
  export_->setText(tr("Export"));
  export_->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(export_);
  for (const auto& [label, suffix] : {std::pair{tr("PNG image..."), QStringLiteral("png")}, std::pair{tr("SVG drawing..."), QStringLiteral("svg")},
                                      std::pair{tr("PDF document..."), QStringLiteral("pdf")},
                                      std::pair{tr("CSV data (full precision)..."), QStringLiteral("csv")}})
    menu->addAction(label, this, [this, suffix = suffix] { exportWithDialog(suffix); });
  export_->setMenu(menu);
  actions->addWidget(export_);
  column->addLayout(actions);

  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("benchmarkPlot"));
  plot_->setMinimumHeight(260);
  plot_->setMouseTracking(true);
  column->addWidget(plot_, 1);

  connect(layout_, &QComboBox::currentIndexChanged, this, &BenchmarkPanel::redraw);
  connect(log2_, &QCheckBox::toggled, this, &BenchmarkPanel::redraw);
  connect(ceilingValue_, &QLineEdit::textChanged, this, &BenchmarkPanel::redraw);
  connect(ceilingLabel_, &QLineEdit::textChanged, this, &BenchmarkPanel::redraw);
  connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    const int row = list_->row(item);
    if (row >= 0 && row < shown_.size() && shown_[row] != (item->checkState() == Qt::Checked)) {
      shown_[row] = item->checkState() == Qt::Checked;
      redraw();
    }
  });
  connect(remove, &QToolButton::clicked, this, [this] {
    if (list_->currentRow() >= 0) removeResult(list_->currentRow());
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    const QString tip = tooltipAt(event->position().toPoint());
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(event->globalPosition().toPoint(), tip, plot_);
  });
  redraw();
}

BenchmarkPanel::~BenchmarkPanel() = default;

bool BenchmarkPanel::addResult(const nlohmann::json& spec, const QString& source) {
  auto result = viz::BenchmarkResult::fromJson(spec, source.toStdString());
  if (!result) return false;
  add(std::move(*result));
  return true;
}

bool BenchmarkPanel::importCsv(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = tr("Could not read '%1': %2").arg(path, file.errorString());
    return false;
  }
  try {
    viz::BenchmarkCollection imported = viz::BenchmarkCollection::fromCsv(file.readAll().toStdString());
    for (const viz::BenchmarkResult& r : imported.results()) add(r);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = tr("%1: %2").arg(path, QString::fromStdString(e.what()));
    return false;
  }
}

void BenchmarkPanel::add(viz::BenchmarkResult result) {
  // A first log-x result turns the log-2 axis on, as its author asked for a log axis.
  const bool firstLog = collection_.empty() && result.xLog;
  auto* item = new QListWidgetItem(QString::fromStdString(result.title()));
  item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
  item->setCheckState(Qt::Checked);
  if (result.simulated) item->setToolTip(tr("Simulated: CPU times of the simulator, not GPU figures"));
  collection_.add(std::move(result));
  shown_.append(true);
  {
    const QSignalBlocker block(list_);
    list_->addItem(item);
  }
  if (firstLog) {
    const QSignalBlocker block(log2_);
    log2_->setChecked(true);
  }
  redraw();
  emit resultsChanged();
}

void BenchmarkPanel::removeResult(int index) {
  if (index < 0 || index >= shown_.size()) return;
  collection_.remove(static_cast<size_t>(index));
  shown_.removeAt(index);
  delete list_->takeItem(index);
  redraw();
  emit resultsChanged();
}

void BenchmarkPanel::clearResults() {
  collection_.clear();
  shown_.clear();
  list_->clear();
  redraw();
  emit resultsChanged();
}

void BenchmarkPanel::setResultShown(int index, bool shown) {
  if (QListWidgetItem* item = list_->item(index)) item->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
}

void BenchmarkPanel::setSideBySide(bool sideBySide) { layout_->setCurrentIndex(sideBySide ? 1 : 0); }
bool BenchmarkPanel::sideBySide() const { return layout_->currentIndex() == 1; }
void BenchmarkPanel::setLog2X(bool log2X) { log2_->setChecked(log2X); }
bool BenchmarkPanel::log2X() const { return log2_->isChecked(); }

void BenchmarkPanel::setCeiling(const QString& value, const QString& label) {
  ceilingLabel_->setText(label);
  ceilingValue_->setText(value);
}

std::optional<double> BenchmarkPanel::ceiling() const {
  bool ok = false;
  const double value = ceilingValue_->text().trimmed().toDouble(&ok);
  return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

void BenchmarkPanel::setTheme(const Theme& theme) {
  theme_ = theme;
  redraw();
}

void BenchmarkPanel::redraw() {
  std::vector<const viz::BenchmarkResult*> shown;
  for (size_t i = 0; i < collection_.size(); ++i)
    if (shown_[static_cast<qsizetype>(i)]) shown.push_back(&collection_.results()[i]);
  BenchmarkChartOptions options;
  options.sideBySide = sideBySide();
  options.log2X = log2X();
  options.ceiling = ceiling();
  options.ceilingLabel = ceilingLabel_->text().trimmed();
  // Without a label of its own the ceiling is named after what the y axis measures.
  const viz::BenchmarkUnit unit = shown.empty() ? viz::BenchmarkUnit::Other : viz::benchmarkUnitOf(shown.front()->yLabel);
  const QString defaultLabel = unit == viz::BenchmarkUnit::GBps     ? tr("copy bandwidth")
                               : unit == viz::BenchmarkUnit::TFlops ? tr("peak FLOP/s")
                                                                    : tr("ceiling");
  ceilingLabel_->setPlaceholderText(defaultLabel);
  if (options.ceilingLabel.isEmpty()) options.ceilingLabel = defaultLabel;
  *lines_ = BenchmarkChart::draw(*plot_, shown, options, theme_);
  plot_->replot();
}

QString BenchmarkPanel::tooltipAt(QPoint plotPixel) const { return BenchmarkChart::tooltipAt(*lines_, plotPixel); }

QStringList BenchmarkPanel::legendNames() const {
  QStringList names;
  for (const BenchmarkChartLine& line : *lines_) names << line.graph->name();
  return names;
}

bool BenchmarkPanel::exportTo(const QString& path, QString* error) {
  if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) {
    QFile file(path);
    const std::string csv = collection_.toCsv();
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size())) {
      if (error) *error = tr("Could not write '%1': check that its folder exists and is writable").arg(path);
      return false;
    }
    return true;
  }
  const QSize size = plot_->size().expandedTo(kMinimumExportSize);
  return BenchmarkChart::save(*plot_, path, size.width(), size.height(), error);
}

void BenchmarkPanel::exportWithDialog(const QString& suffix) {
  const QString filter = suffix == QLatin1String("csv") ? tr("CSV files (*.csv)") : tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix);
  QString path = QFileDialog::getSaveFileName(this, tr("Export benchmarks"), QStringLiteral("benchmarks.%1").arg(suffix), filter);
  if (path.isEmpty()) return;
  if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive)) path += QLatin1Char('.') + suffix;
  QString error;
  if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export benchmarks"), error);
}

}  // namespace tilescope::ui
