#include "ui/viz/ScenePainter.h"

#include "ui/viz/TraceDocument.h"

#include <QFont>
#include <QFontMetricsF>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

namespace tilescope::ui {

namespace {

QColor qcolor(const viz::Color& c) { return QColor(c.r, c.g, c.b, c.a); }

}  // namespace

void paintScene(QPainter& painter, const viz::Scene& scene) {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  for (const viz::SceneItem& item : scene.items()) {
    if (const auto* r = std::get_if<viz::SceneRect>(&item)) {
      const QRectF rect(r->x, r->y, r->w, r->h);
      painter.fillRect(rect, qcolor(r->fill));
      if (r->hatched) painter.fillRect(rect, QBrush(qcolor(r->hatch), Qt::BDiagPattern));
      if (r->stroke.a) {
        painter.setPen(QPen(qcolor(r->stroke), r->strokeWidth));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect);
      }
    } else if (const auto* l = std::get_if<viz::SceneLine>(&item)) {
      painter.setPen(QPen(qcolor(l->color), l->width));
      painter.drawLine(QPointF(l->x1, l->y1), QPointF(l->x2, l->y2));
      if (l->arrow) {
        const double angle = std::atan2(l->y2 - l->y1, l->x2 - l->x1);
        const double len = 4 + 2 * l->width;
        QPainterPath head;
        head.moveTo(l->x2, l->y2);
        head.lineTo(l->x2 - len * std::cos(angle - 0.45), l->y2 - len * std::sin(angle - 0.45));
        head.lineTo(l->x2 - len * std::cos(angle + 0.45), l->y2 - len * std::sin(angle + 0.45));
        head.closeSubpath();
        painter.fillPath(head, qcolor(l->color));
      }
    } else if (const auto* t = std::get_if<viz::SceneText>(&item)) {
      QFont font = painter.font();
      font.setPixelSize(std::max(1, static_cast<int>(std::lround(t->size))));
      font.setBold(t->bold);
      painter.setFont(font);
      painter.setPen(qcolor(t->color));
      const QString text = QString::fromStdString(t->text);
      double x = t->x;
      const double w = QFontMetricsF(font).horizontalAdvance(text);
      if (t->align == viz::TextAlign::Center) x -= w / 2;
      if (t->align == viz::TextAlign::Right) x -= w;
      painter.drawText(QPointF(x, t->y), text);
    }
  }
  painter.restore();
}

QImage renderScene(const viz::Scene& scene, double scale) {
  QImage image(std::max(1, static_cast<int>(std::ceil(scene.width() * scale))),
               std::max(1, static_cast<int>(std::ceil(scene.height() * scale))), QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter p(&image);
  p.scale(scale, scale);
  paintScene(p, scene);
  return image;
}

bool exportScene(const viz::Scene& scene, const QString& path, QString* error) {
  if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(TraceDocument::svgOf(scene)) >= 0 && f.flush()) return true;
    if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
    if (renderScene(scene, 2.0).save(path, "PNG")) return true;
    if (error) *error = QObject::tr("Cannot write %1.").arg(path);
    return false;
  }
  if (error) *error = QObject::tr("Save as .png or .svg (got %1).").arg(path);
  return false;
}

void exportSceneInteractively(const viz::Scene& scene, QWidget* parent, const QString& suggestedName) {
  const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Save View"), suggestedName,
                                                    QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportScene(scene, path, &error)) QMessageBox::warning(parent, QObject::tr("Save View"), error);
}

}  // namespace tilescope::ui
