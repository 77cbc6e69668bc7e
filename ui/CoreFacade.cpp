#include "ui/CoreFacade.h"

#include "core/gpu/runtime/DeviceReport.h"
#include "core/notebook/NotebookFile.h"

namespace tilescope::ui {

DeviceStatus CoreFacade::probeDevices() {
  const gpu::DeviceReport report = gpu::DeviceReport::probe();
  // With a GPU, the first kernel run compiles and needs a CUDA context: start both in the background.
  report.warmUp();
  return {report.gpuAvailable, QString::fromStdString(report.statusLine()), QString::fromStdString(report.text())};
}

CoreFacade::Loaded CoreFacade::loadNotebook(const QString& path) {
  notebook::LoadResult r = notebook::loadNotebook(path.toStdString());
  return {std::move(r.notebook), QString::fromStdString(r.error), r.duplicateIdsReplaced};
}

CoreFacade::Loaded CoreFacade::parseNotebook(const QByteArray& json, const QString& pathForMessages) {
  notebook::LoadResult r = notebook::parseNotebookJson(json.toStdString(), pathForMessages.toStdString());
  return {std::move(r.notebook), QString::fromStdString(r.error), r.duplicateIdsReplaced};
}

QString CoreFacade::saveNotebook(const notebook::Notebook& nb, const QString& path) {
  return QString::fromStdString(notebook::saveNotebook(nb, path.toStdString()));
}

QByteArray CoreFacade::serializeNotebook(const notebook::Notebook& nb) {
  return QByteArray::fromStdString(notebook::serializeNotebook(nb));
}

}  // namespace tilescope::ui
