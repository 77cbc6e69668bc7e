#include "ui/viz/TimelinePanel.h"

#include <QComboBox>
#include <QHelpEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>
#include <variant>

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
  auto* inspect = new QPushButton(tr("Show in Inspector"), this);
  inspect->setObjectName(QStringLiteral("timingToInspector"));
  inspect->setToolTip(tr("The launch's program grid in the inspector, coloured by duration or by SM"));
  controls->addWidget(inspect);
  connect(inspect, &QPushButton::clicked, this, [this] {
    const int index = launchBox_->currentIndex();
    if (index < 0 || index >= static_cast<int>(launches_.size())) return;
    // Back to the file's own line (core/gpu/runtime/ProgramTiming), the form a launch's timing travels in.
    const gpu::LaunchTiming& l = launches_[static_cast<size_t>(index)];
    std::vector<uint64_t> words;
    for (const gpu::ProgramTime& p : l.programs) words.insert(words.end(), {p.startNs, p.endNs, static_cast<uint64_t>(p.sm)});
    emit inspectRequested(QByteArray::fromStdString(gpu::programTimingLine(l.kernel, l.launch, l.grid, words)));
  });
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
  connect(view_, &SceneView::zoomChanged, this, [this] {
    if (!launches_.empty()) redraw();
  });
  scroll_->viewport()->installEventFilter(this);
  view_->installEventFilter(this);
  view_->setMouseTracking(true);

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

bool TimelinePanel::eventFilter(QObject* watched, QEvent* event) {
  // The time axis follows the visible width.
  if (scroll_ && watched == scroll_->viewport() && event->type() == QEvent::Resize && !launches_.empty() &&
      std::max(400, scroll_->viewport()->width() - 100) != drawnWidth_)
    redraw();
  // Shown on mouse moves as well as on tooltip events: Qt sends those to active windows only.
  if (watched == view_ && (event->type() == QEvent::ToolTip || event->type() == QEvent::MouseMove)) {
    QPoint at, global;
    if (event->type() == QEvent::ToolTip) {
      at = static_cast<QHelpEvent*>(event)->pos();
      global = static_cast<QHelpEvent*>(event)->globalPos();
    } else {
      at = static_cast<QMouseEvent*>(event)->position().toPoint();
      global = static_cast<QMouseEvent*>(event)->globalPosition().toPoint();
    }
    const QString tip = tooltipAt(view_->toScene(at));
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(global, tip, view_);
    return event->type() == QEvent::ToolTip;
  }
  return QWidget::eventFilter(watched, event);
}

QString TimelinePanel::tooltipAt(QPointF scenePoint) const {
  const int index = launchBox_->currentIndex();
  if (index < 0 || index >= static_cast<int>(launches_.size())) return {};
  const gpu::LaunchTiming& launch = launches_[static_cast<size_t>(index)];
  // The scene's rectangles are the bars, in program order (core/viz/TimelineScene).
  size_t program = 0;
  for (const viz::SceneItem& item : view_->scene().items()) {
    const auto* bar = std::get_if<viz::SceneRect>(&item);
    if (!bar) continue;
    if (program < launch.programs.size() && QRectF(bar->x, bar->y, bar->w, bar->h).contains(scenePoint)) {
      const gpu::ProgramTime& p = launch.programs[program];
      return tr("program %1, pid (%2, %3, %4)\nSM %5\n%6 us to %7 us (%8 us)")
          .arg(program)
          .arg(p.pid[0])
          .arg(p.pid[1])
          .arg(p.pid[2])
          .arg(p.sm)
          .arg(static_cast<double>(p.startNs) / 1000.0)
          .arg(static_cast<double>(p.endNs) / 1000.0)
          .arg(static_cast<double>(p.endNs - p.startNs) / 1000.0);
    }
    ++program;
  }
  return {};
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
    options.plotWidth = drawnWidth_ / view_->zoom();  // presentation scale draws it larger
    view_->setScene(viz::timelineScene(launches_[static_cast<size_t>(index)], options));
  }
}

}  // namespace tilescope::ui
