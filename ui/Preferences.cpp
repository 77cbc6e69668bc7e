#include "ui/Preferences.h"

#include <QApplication>
#include <QSettings>
#include <algorithm>

namespace tilescope::ui {

Preferences Preferences::load() {
  QSettings s;
  Preferences p;
  p.theme = s.value("appearance/theme", p.theme).toString();
  p.editorFontFamily = s.value("appearance/editorFontFamily", p.editorFontFamily).toString();
  // Clamped: a hand-edited settings file must not make text unreadable or the app unusable.
  p.editorPointSize = std::clamp(s.value("appearance/editorPointSize", p.editorPointSize).toInt(), 6, 48);
  p.outputPointSize = std::clamp(s.value("appearance/outputPointSize", p.outputPointSize).toInt(), 6, 48);
  p.markdownPointSize = std::clamp(s.value("appearance/markdownPointSize", p.markdownPointSize).toInt(), 6, 48);
  p.autosaveSeconds = std::clamp(s.value("files/autosaveSeconds", p.autosaveSeconds).toInt(), 5, 3600);
  p.presentationScale = std::clamp(s.value("appearance/presentationScale", p.presentationScale).toDouble(), 1.0, 4.0);
  p.inspectorPresentation = s.value("appearance/inspectorPresentation", p.inspectorPresentation).toBool();
  p.runOn.host = s.value("runOn/host").toString();
  p.runOn.port = std::clamp(s.value("runOn/port", 0).toInt(), 0, 65535);
  p.runOn.identityFile = s.value("runOn/identityFile").toString();
  p.runOn.remoteCommand = s.value("runOn/remoteCommand", p.runOn.remoteCommand).toString();
  p.approvedRunOnHosts = s.value("runOn/approvedNotebookHosts").toStringList();
  const QString torch = s.value("python/torch", p.torch).toString();
  if (torch == QLatin1String("builtin") || torch == QLatin1String("system")) p.torch = torch;
  p.simulatorThreads = std::clamp(s.value("simulator/threads", p.simulatorThreads).toInt(), 0, 1024);
  return p;
}

void Preferences::save() const {
  QSettings s;
  s.setValue("appearance/theme", theme);
  s.setValue("appearance/editorFontFamily", editorFontFamily);
  s.setValue("appearance/editorPointSize", editorPointSize);
  s.setValue("appearance/outputPointSize", outputPointSize);
  s.setValue("appearance/markdownPointSize", markdownPointSize);
  s.setValue("files/autosaveSeconds", autosaveSeconds);
  s.setValue("appearance/presentationScale", presentationScale);
  s.setValue("appearance/inspectorPresentation", inspectorPresentation);
  s.setValue("runOn/host", runOn.host);
  s.setValue("runOn/port", runOn.port);
  s.setValue("runOn/identityFile", runOn.identityFile);
  s.setValue("runOn/remoteCommand", runOn.remoteCommand);
  s.setValue("runOn/approvedNotebookHosts", approvedRunOnHosts);
  s.setValue("python/torch", torch);
  s.setValue("simulator/threads", simulatorThreads);
}

void Preferences::applySimulatorThreads() const {
  static const QByteArray startedWith = qgetenv("TILESCOPE_SIM_THREADS");
  if (simulatorThreads > 0)
    qputenv("TILESCOPE_SIM_THREADS", QByteArray::number(simulatorThreads));
  else if (!startedWith.isEmpty())
    qputenv("TILESCOPE_SIM_THREADS", startedWith);
  else
    qunsetenv("TILESCOPE_SIM_THREADS");
}

Appearance Preferences::appearance(bool presentation) const {
  const double scale = presentation ? presentationScale : 1.0;
  Appearance a;
  a.theme = Theme::named(theme);
  a.editorFont = monospaceFont(editorPointSize * scale, editorFontFamily);
  a.outputFont = monospaceFont(outputPointSize * scale, editorFontFamily);
  a.markdownFont = QApplication::font();
  a.markdownFont.setPointSizeF(markdownPointSize * scale);
  a.presentation = presentation;
  return a;
}

}  // namespace tilescope::ui
