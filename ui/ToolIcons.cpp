#include "ui/ToolIcons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace tilescope::ui {
namespace {
QPainterPath triangle(double left, double top, double width, double height) {
  QPainterPath path;
  path.moveTo(left, top);
  path.lineTo(left + width, top + height / 2);
  path.lineTo(left, top + height);
  path.closeSubpath();
  return path;
}

void draw(QPainter& p, ToolIcon kind, const QColor& colour) {
  // Drawn on a 24x24 grid; the pixmap is scaled by the painter.
  p.setPen(Qt::NoPen);
  p.setBrush(colour);
  switch (kind) {
    case ToolIcon::Run: p.drawPath(triangle(7, 4, 13, 16)); break;
    case ToolIcon::RunAll:
      p.drawPath(triangle(3, 5, 9, 14));
      p.drawPath(triangle(12, 5, 9, 14));
      break;
    case ToolIcon::RunAbove:
      p.drawPath(triangle(8, 8, 11, 13));
      p.drawRect(QRectF(4, 3, 16, 2.5));
      break;
    case ToolIcon::Interrupt: p.drawRoundedRect(QRectF(5, 5, 14, 14), 2, 2); break;
    case ToolIcon::Restart: {
      QPen pen(colour, 2.6, Qt::SolidLine, Qt::RoundCap);
      p.setPen(pen);
      p.setBrush(Qt::NoBrush);
      p.drawArc(QRectF(4.5, 4.5, 15, 15), 100 * 16, 280 * 16);
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      QPainterPath head;
      head.moveTo(10, 1.5);
      head.lineTo(16, 4.8);
      head.lineTo(10, 8.5);
      head.closeSubpath();
      p.drawPath(head);
      break;
    }
    case ToolIcon::ClearOutputs: {
      for (int line = 0; line < 3; ++line) p.drawRect(QRectF(3, 5 + line * 6, 10, 2.2));
      QPen pen(colour, 2.6, Qt::SolidLine, Qt::RoundCap);
      p.setPen(pen);
      p.drawLine(QPointF(15, 10), QPointF(21, 16));
      p.drawLine(QPointF(21, 10), QPointF(15, 16));
      break;
    }
    case ToolIcon::Presentation: {
      QPen pen(colour, 2);
      p.setPen(pen);
      p.setBrush(Qt::NoBrush);
      p.drawRect(QRectF(3, 4, 18, 12));
      p.drawLine(QPointF(12, 16), QPointF(12, 20));
      p.drawLine(QPointF(8, 21), QPointF(16, 21));
      break;
    }
  }
}
}  // namespace

QIcon toolIcon(ToolIcon kind, const QColor& colour) {
  QIcon icon;
  for (int size : {16, 24, 32, 48}) {
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(size / 24.0, size / 24.0);
    draw(painter, kind, colour);
    painter.end();
    icon.addPixmap(pixmap);
    // Disabled actions (Interrupt while idle) show a faded version.
    QPixmap faded(size, size);
    faded.fill(Qt::transparent);
    QPainter fade(&faded);
    fade.setOpacity(0.35);
    fade.drawPixmap(0, 0, pixmap);
    fade.end();
    icon.addPixmap(faded, QIcon::Disabled);
  }
  return icon;
}

}  // namespace tilescope::ui
