#pragma once
// The only door from ui/ into core/: widgets never include core headers beyond the notebook model,
// so the engine can change behind this class.
#include <QByteArray>
#include <QString>
#include <optional>

#include "core/notebook/Notebook.h"

namespace tilescope::ui {

struct DeviceStatus {
  bool gpuAvailable = false;
  QString statusLine;  // one line for the status bar
  QString details;     // multi-line text for tooltips and the About box
};

class CoreFacade {
public:
  // Loads libcuda/NVRTC on first use: call it off the UI thread.
  static DeviceStatus probeDevices();

  struct Loaded {
    std::optional<notebook::Notebook> notebook;
    QString error;
    int duplicateIdsReplaced = 0;  // cells that shared an id with an earlier cell and got a fresh one
  };
  static Loaded loadNotebook(const QString& path);
  static Loaded parseNotebook(const QByteArray& json, const QString& pathForMessages);
  static QString saveNotebook(const notebook::Notebook& nb, const QString& path);  // error or empty
  static QByteArray serializeNotebook(const notebook::Notebook& nb);
};

}  // namespace tilescope::ui
