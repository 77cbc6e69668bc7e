#include "ui/viz/ComputeView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/viz/SceneView.h"

namespace tilescope::ui {

ComputeView::ComputeView(Kind kind, QWidget* parent) : QWidget(parent), kind_(kind) {
  const bool dot = kind == Kind::Dot;
  const QString prefix = dot ? QStringLiteral("dot") : QStringLiteral("reduce");
  setObjectName(prefix + QStringLiteral("View"));
  auto* column = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  prev_ = new QToolButton;
  prev_->setText(QStringLiteral("\u25C0"));
  prev_->setObjectName(prefix + QStringLiteral("Prev"));
  prev_->setToolTip(dot ? tr("Previous dot (K step)") : tr("Previous reduction"));
  steps_ = new QComboBox;
  steps_->setObjectName(prefix + QStringLiteral("Step"));
  next_ = new QToolButton;
  next_->setText(QStringLiteral("\u25B6"));
  next_->setObjectName(prefix + QStringLiteral("Next"));
  next_->setToolTip(dot ? tr("Next dot (K step)") : tr("Next reduction"));
  row->addWidget(prev_);
  row->addWidget(steps_, 1);
  row->addWidget(next_);
  column->addLayout(row);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName(prefix + QStringLiteral("Slider"));
  slider_->setToolTip(dot ? tr("Walk the program's dots: a matmul's K steps") : tr("Walk the program's reductions"));
  slider_->setPageStep(1);
  slider_->setTickPosition(QSlider::TicksBelow);
  column->addWidget(slider_);
  view_ = new SceneView;
  view_->setExportName(dot ? QStringLiteral("dot.png") : QStringLiteral("reduce.png"));
  auto* area = new QScrollArea;
  area->setWidget(view_);
  area->setWidgetResizable(false);
  area->setBackgroundRole(QPalette::Base);
  column->addWidget(area, 1);

  connect(steps_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (slider_->value() != index) {
      const QSignalBlocker block(slider_);
      slider_->setValue(index);
    }
    refresh();
  });
  connect(slider_, &QSlider::valueChanged, this, [this](int index) { steps_->setCurrentIndex(index); });
  connect(prev_, &QToolButton::clicked, this, [this] { selectStep(currentStep() - 1); });
  connect(next_, &QToolButton::clicked, this, [this] { selectStep(currentStep() + 1); });
  refresh();
}

void ComputeView::setDocument(std::shared_ptr<const TraceDocument> document) {
  document_ = std::move(document);
  setProgram(std::nullopt);
}

void ComputeView::setProgram(const std::optional<ProgramId>& pid) {
  program_ = pid;
  const int keep = steps_->currentIndex();
  {
    const QSignalBlocker blockBox(steps_);
    const QSignalBlocker blockSlider(slider_);
    steps_->clear();
    if (document_ && program_) steps_->addItems(document_->computeTitles(*program_, kind_ == Kind::Dot));
    steps_->setCurrentIndex(steps_->count() ? std::clamp(keep, 0, steps_->count() - 1) : -1);
    slider_->setRange(0, std::max(0, steps_->count() - 1));
    slider_->setValue(std::max(0, steps_->currentIndex()));
  }
  refresh();
}

void ComputeView::selectStep(int index) {
  if (steps_->count() == 0) return;
  steps_->setCurrentIndex(std::clamp(index, 0, steps_->count() - 1));
}

int ComputeView::currentStep() const { return steps_->currentIndex(); }
int ComputeView::stepCount() const { return steps_->count(); }

void ComputeView::announceLocation() {
  const int step = currentStep();
  if (document_ && program_ && step >= 0) {
    const auto sources = document_->computeSources(*program_, kind_ == Kind::Dot);
    if (step < static_cast<int>(sources.size())) {
      emit located(sources[static_cast<size_t>(step)].first, sources[static_cast<size_t>(step)].second);
      return;
    }
  }
  emit located({}, 0);
}

void ComputeView::refresh() {
  const bool any = steps_->count() > 0;
  for (QWidget* w : {static_cast<QWidget*>(steps_), static_cast<QWidget*>(slider_), static_cast<QWidget*>(prev_), static_cast<QWidget*>(next_)})
    w->setEnabled(any);
  if (!isVisible()) {
    stale_ = true;
    return;
  }
  stale_ = false;
  if (!document_ || !program_) {
    view_->setScene({}, tr("Pick a launch and a program."));
  } else {
    QString error;
    viz::Scene scene = document_->computeScene(*program_, kind_ == Kind::Dot, std::max(0, currentStep()), &error);
    view_->setScene(std::move(scene), error);
  }
  // Only the tab in front moves the source-line highlight.
  announceLocation();
}

void ComputeView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) refresh();
}

}  // namespace tilescope::ui
