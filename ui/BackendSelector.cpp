#include "ui/BackendSelector.h"

#include <QSettings>
#include <QStandardItemModel>

namespace tilescope::ui {
namespace {
constexpr int kSimulatorRow = 0;
constexpr int kGpuRow = 1;
constexpr int kAutoRow = 2;
}  // namespace

BackendSelector::BackendSelector(QWidget* parent) : QComboBox(parent) {
  setObjectName(QStringLiteral("backendSelector"));
  addItem(tr("Simulator"), static_cast<int>(Backend::Simulator));
  addItem(tr("GPU"), static_cast<int>(Backend::Gpu));
  addItem(tr("Auto"), static_cast<int>(Backend::Auto));
  setItemData(kSimulatorRow, tr("Run kernels on tilescope's CPU simulator, which records every load and store"),
              Qt::ToolTipRole);
  setItemData(kAutoRow, tr("Use the GPU when there is one, else the simulator"), Qt::ToolTipRole);
  setToolTip(tr("Where kernels run"));
  setGpuAvailability(false, tr("Looking for a CUDA device..."));
  const int saved = QSettings().value("run/backend", static_cast<int>(Backend::Auto)).toInt();
  setBackend(static_cast<Backend>(saved));
  // Only a choice the user made is remembered: falling back to Auto while there is no GPU is not one.
  connect(this, &QComboBox::activated, this, [this] { QSettings().setValue("run/backend", static_cast<int>(backend())); });
  connect(this, &QComboBox::currentIndexChanged, this, [this] { emit backendChanged(backend()); });
}

Backend BackendSelector::backend() const { return static_cast<Backend>(currentData().toInt()); }

void BackendSelector::setBackend(Backend backend) {
  const int row = findData(static_cast<int>(backend));
  if (row >= 0 && (row != kGpuRow || gpuSelectable())) setCurrentIndex(row);
  else setCurrentIndex(kAutoRow);
}

void BackendSelector::setGpuAvailability(bool available, const QString& reason) {
  auto* items = qobject_cast<QStandardItemModel*>(model());
  QStandardItem* gpu = items->item(kGpuRow);
  gpu->setEnabled(available);
  gpu->setToolTip(available ? tr("Compile kernels with NVRTC and run them on the GPU")
                            : tr("No GPU available: %1").arg(reason));
  if (!available && currentIndex() == kGpuRow) setCurrentIndex(kAutoRow);
  if (available && QSettings().value("run/backend").toInt() == static_cast<int>(Backend::Gpu)) setCurrentIndex(kGpuRow);
}

bool BackendSelector::gpuSelectable() const {
  const auto* items = qobject_cast<const QStandardItemModel*>(model());
  return items->item(kGpuRow)->isEnabled();
}

}  // namespace tilescope::ui
