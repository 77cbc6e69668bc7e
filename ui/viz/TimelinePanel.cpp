#include "ui/viz/TimelinePanel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

#include "core/viz/TimelineScene.h"
#include "ui/viz/SceneView.h"

namespace tilescope::ui {

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("timelinePanel"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  auto* controls = new QHBoxLayout;
  auto* open = new QPushButton(tr("Open timing file..."), this);
  open->setToolTip(tr("A file written by 'tilescope-cli run --backend gpu --program-timing FILE.jsonl'"));
  controls->addWidget(open);
  launchBox_ = new QComboBox(this);
  launchBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  controls->addWidget(launchBox_);
  coloring_ = new QComboBox(this);
  coloring_->addItem(tr("Colour by program"));
  coloring_->addItem(tr("Colour by duration"));
  controls->addWidget(coloring_);
  controls->addStretch(1);
  column->addLayout(controls);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  column->addWidget(status_);
  view_ = new SceneView(this);
  scroll_ = new QScrollArea(this);
  scroll_->setWidget(view_);
  scroll_->setWidgetResizable(false);
  column->addWidget(scroll_, 1);

  connect(open, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open program timing"), {}, tr("Program timing (*.jsonl *.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
  });
  connect(launchBox_, &QComboBox::currentIndexChanged, this, &TimelinePanel::redraw);
  connect(coloring_, &QComboBox::currentIndexChanged, this, &TimelinePanel::redraw);
  status_->setText(tr("After a GPU run with program timing, open its file to see each program as a bar on its SM over time."));
  redraw();
}

bool TimelinePanel::openFile(const QString& path, QString* error) {
  try {
    setLaunches(gpu::readProgramTimingFile(path.toStdString()));
    status_->setText(tr("%1: %n launch(es)", nullptr, static_cast<int>(launches_.size())).arg(path));
    return true;
  } catch (const std::exception& e) {
    const QString why = QString::fromStdString(e.what());
    status_->setText(why);
    if (error) *error = why;
    return false;
  }
}

void TimelinePanel::setLaunches(std::vector<gpu::LaunchTiming> launches) {
  launches_ = std::move(launches);
  const QSignalBlocker block(launchBox_);
  launchBox_->clear();
  for (const gpu::LaunchTiming& l : launches_)
    launchBox_->addItem(tr("%1 #%2 (%3 programs)").arg(QString::fromStdString(l.kernel)).arg(l.launch).arg(l.programs.size()));
  launchBox_->setCurrentIndex(launches_.empty() ? -1 : 0);
  redraw();
}

void TimelinePanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (!launches_.empty() && std::max(400, scroll_->viewport()->width() - 100) != drawnWidth_) redraw();
}

void TimelinePanel::selectLaunch(int index) { launchBox_->setCurrentIndex(index); }
void TimelinePanel::setColorByDuration(bool byDuration) { coloring_->setCurrentIndex(byDuration ? 1 : 0); }

void TimelinePanel::redraw() {
  const int index = launchBox_->currentIndex();
  if (index < 0 || index >= static_cast<int>(launches_.size())) {
    view_->setScene({}, tr("No program timing loaded."));
  } else {
    viz::TimelineOptions options;
    options.coloring = coloring_->currentIndex() == 1 ? viz::TimelineColoring::Duration : viz::TimelineColoring::Program;
    // The time axis fills the visible width (room left for the SM labels and margins), at least 400 px.
    drawnWidth_ = std::max(400, scroll_->viewport()->width() - 100);
    options.plotWidth = drawnWidth_;
    view_->setScene(viz::timelineScene(launches_[static_cast<size_t>(index)], options));
  }
}

}  // namespace tilescope::ui
