#include "ui/viz/SceneView.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>
#include <cmath>

#include "ui/viz/ScenePainter.h"

namespace tilescope::ui {

SceneView::SceneView(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  QPalette p = palette();
  p.setColor(QPalette::Window, Qt::white);
  setPalette(p);
}

void SceneView::setScene(viz::Scene scene, const QString& message) {
  scene_ = std::move(scene);
  message_ = message;
  const QSize hint = sizeHint();
  setMinimumSize(hint);
  resize(hint);
  update();
}

void SceneView::setZoom(double zoom) {
  if (zoom == zoom_) return;
  zoom_ = zoom;
  const QSize hint = sizeHint();
  setMinimumSize(hint);
  resize(hint);
  update();
  emit zoomChanged(zoom);
}

QSize SceneView::sizeHint() const {
  if (scene_.items().empty()) return QSize(320, 80) * zoom_;
  return {static_cast<int>(std::ceil(scene_.width() * zoom_)), static_cast<int>(std::ceil(scene_.height() * zoom_))};
}

void SceneView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  if (scene_.items().empty()) {
    p.setPen(Qt::darkGray);
    p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, message_);
    return;
  }
  p.scale(zoom_, zoom_);
  paintScene(p, scene_);
}

void SceneView::contextMenuEvent(QContextMenuEvent* event) {
  if (scene_.items().empty()) return;
  QMenu menu(this);
  menu.addAction(tr("Save View As..."), this, [this] { exportSceneInteractively(scene_, this, exportName_); });
  menu.exec(event->globalPos());
}

}  // namespace tilescope::ui
