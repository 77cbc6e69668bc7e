#include "ui/viz/TimingColoringModes.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QStandardItemModel>

#include "ui/viz/TraceDocument.h"

namespace tilescope::ui {

namespace {

bool isTimingMode(const QComboBox* box, int index) {
  const int c = box->itemData(index).toInt();
  return c == static_cast<int>(TraceDocument::Coloring::Duration) || c == static_cast<int>(TraceDocument::Coloring::Sm);
}

QString tr(const char* text) { return QCoreApplication::translate("TimingColoringModes", text); }

}  // namespace

QString TimingColoringModes::unavailableReason() {
  return tr("Needs program timing from a GPU run: run with 'tilescope-cli run --backend gpu --program-timing F.jsonl', "
            "open F.jsonl in the Performance dock's SM timeline tab and press Show in Inspector.");
}

void TimingColoringModes::addTo(QComboBox* box) {
  box->addItem(tr("Colour by duration"), static_cast<int>(TraceDocument::Coloring::Duration));
  box->addItem(tr("Colour by SM"), static_cast<int>(TraceDocument::Coloring::Sm));
  update(box, false);
}

void TimingColoringModes::update(QComboBox* box, bool launchHasTiming) {
  auto* model = qobject_cast<QStandardItemModel*>(box->model());
  int firstTiming = -1;
  for (int i = 0; i < box->count(); ++i) {
    if (!isTimingMode(box, i)) continue;
    if (firstTiming < 0) firstTiming = i;
    if (model) model->item(i)->setEnabled(launchHasTiming);
    box->setItemData(i, launchHasTiming ? QVariant() : QVariant(unavailableReason()), Qt::ToolTipRole);
  }
  const bool timingNow = isTimingMode(box, box->currentIndex());
  if (!launchHasTiming && timingNow) box->setCurrentIndex(0);
  if (launchHasTiming && !timingNow && firstTiming >= 0) box->setCurrentIndex(firstTiming);
}

bool TimingColoringModes::enabled(const QComboBox* box, int index) {
  const auto* model = qobject_cast<const QStandardItemModel*>(box->model());
  return model && model->item(index) && model->item(index)->isEnabled();
}

}  // namespace tilescope::ui
