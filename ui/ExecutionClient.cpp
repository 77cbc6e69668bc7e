#include "ui/ExecutionClient.h"

namespace tilescope::ui {

QString backendName(Backend backend) {
  switch (backend) {
    case Backend::Simulator: return QStringLiteral("simulator");
    case Backend::Gpu: return QStringLiteral("gpu");
    case Backend::Auto: return QStringLiteral("auto");
  }
  return QStringLiteral("auto");
}

QString TracebackFrame::cellId() const {
  static const QString prefix = QStringLiteral("<cell:");
  if (!file.startsWith(prefix) || !file.endsWith('>')) return {};
  return file.mid(prefix.size(), file.size() - prefix.size() - 1);
}

}  // namespace tilescope::ui
