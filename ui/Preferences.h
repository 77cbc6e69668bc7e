#pragma once
// User preferences, stored with QSettings: theme, fonts and sizes, autosave interval, presentation
// scale, where cells run (Run On), the torch of notebook code, the simulator's thread count. A plain
// value: load(), change, save(); Appearance is derived from it.
#include <QString>
#include <QStringList>

#include "ui/RunOnTarget.h"
#include "ui/Theme.h"

namespace tilescope::ui {

struct Preferences {
  QString theme = QStringLiteral("light");
  QString editorFontFamily;  // empty: the system's fixed-width font
  int editorPointSize = 11;
  int outputPointSize = 10;
  int markdownPointSize = 11;
  int autosaveSeconds = 30;
  double presentationScale = 1.8;  // font multiplier in presentation mode
  bool inspectorPresentation = false;  // the inspector and performance docks at presentation scale outside presentation mode
  RunOnTarget runOn;  // where notebooks without a "run_on" of their own run their cells
  // SSH targets a notebook's own "run_on" may use without asking (RunOnTarget::approvalKey): those the
  // user approved once in RunOnApprovalDialog or set in Run On... A notebook someone sent cannot add any.
  QStringList approvedRunOnHosts;
  // Which torch notebook code imports (embedded Python): "builtin" (tilescope's) or "system"
  // (installed PyTorch); a notebook's metadata {"tilescope": {"torch": ...}} wins. Passed to the worker.
  QString torch = QStringLiteral("builtin");
  int simulatorThreads = 0;  // 0: every CPU; else TILESCOPE_SIM_THREADS for workers started from now on

  static Preferences load();
  void save() const;
  Appearance appearance(bool presentation) const;
  // Sets TILESCOPE_SIM_THREADS in this process's environment, which workers inherit (0: the value
  // the app was started with, if any).
  void applySimulatorThreads() const;
};

}  // namespace tilescope::ui
