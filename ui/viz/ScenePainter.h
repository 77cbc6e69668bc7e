#pragma once
// Paints a core/viz Scene with QPainter: the GUI's copy of what SvgWriter/PngWriter draw, so the
// inspector shows the same pictures as `tilescope-cli viz`.
#include "core/viz/Scene.h"

class QPainter;
class QImage;

namespace tilescope::ui {

void paintScene(QPainter& painter, const viz::Scene& scene);
QImage renderScene(const viz::Scene& scene, double scale = 1.0);  // for export and tests

}  // namespace tilescope::ui
