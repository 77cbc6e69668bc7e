#pragma once
// Paints a core/viz Scene with QPainter: the GUI's copy of what SvgWriter/PngWriter draw, so the
// inspector shows the same pictures as `tilescope-cli viz`.
#include "core/viz/Scene.h"

class QPainter;
class QImage;
class QString;
class QWidget;

namespace tilescope::ui {

void paintScene(QPainter& painter, const viz::Scene& scene);
QImage renderScene(const viz::Scene& scene, double scale = 1.0);  // for export and tests
// Saves a scene for slides: PNG (at twice the size) or SVG, chosen by the file's suffix. False with
// `error` set when the suffix is neither or the file cannot be written.
bool exportScene(const viz::Scene& scene, const QString& path, QString* error);
// Asks for a file name and saves the scene there; errors are shown in a message box.
void exportSceneInteractively(const viz::Scene& scene, QWidget* parent, const QString& suggestedName);

}  // namespace tilescope::ui
