#pragma once
// A widget showing one Scene at its natural size times a zoom (put it in a QScrollArea); the tiles,
// coverage and swizzle tabs of the inspector are SceneViews. Presentation scale zooms them.
#include <QWidget>

#include "core/viz/Scene.h"

namespace tilescope::ui {

class SceneView : public QWidget {
  Q_OBJECT
public:
  explicit SceneView(QWidget* parent = nullptr);
  void setScene(viz::Scene scene, const QString& message = {});
  const viz::Scene& scene() const { return scene_; }
  QString message() const { return message_; }  // shown instead of an empty scene (why nothing is drawn)
  QSize sizeHint() const override;
  // The file name the context menu's "Save View As..." suggests.
  void setExportName(const QString& name) { exportName_ = name; }
  // Drawn this many times larger (presentation scale); exports stay at the scene's own size.
  void setZoom(double zoom);
  double zoom() const { return zoom_; }
  QPointF toScene(QPointF widgetPoint) const { return widgetPoint / zoom_; }

signals:
  void zoomChanged(double zoom);

protected:
  void paintEvent(QPaintEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

private:
  viz::Scene scene_;
  QString message_;
  QString exportName_ = QStringLiteral("view.png");
  double zoom_ = 1;
};

}  // namespace tilescope::ui
