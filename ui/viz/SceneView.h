#pragma once
// A widget showing one Scene at its natural size (put it in a QScrollArea); the tiles, coverage and
// swizzle tabs of the inspector are SceneViews.
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

protected:
  void paintEvent(QPaintEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

private:
  viz::Scene scene_;
  QString message_;
  QString exportName_ = QStringLiteral("view.png");
};

}  // namespace tilescope::ui
