#pragma once
// The toolbar's choice of where kernels run: Simulator, GPU or Auto (GPU when there is one). The GPU
// entry is disabled, with a tooltip saying why, when no CUDA device was found.
#include <QComboBox>

#include "ui/ExecutionClient.h"

namespace tilescope::ui {

class BackendSelector : public QComboBox {
  Q_OBJECT
public:
  explicit BackendSelector(QWidget* parent = nullptr);
  Backend backend() const;
  void setBackend(Backend backend);
  // reason: why there is no GPU (shown on the disabled entry); ignored when available.
  void setGpuAvailability(bool available, const QString& reason);
  bool gpuSelectable() const;

signals:
  void backendChanged(tilescope::ui::Backend backend);
};

}  // namespace tilescope::ui
