#pragma once
// Input that arrives the way the window system delivers it (spontaneous events through QApplication),
// for what QTest has no function for in Qt 6.4: the mouse wheel. Only real wheel events move focus by
// a widget's focus policy and travel up to the parent widgets, so only they show wheel bugs.
#include <qpa/qwindowsysteminterface.h>

#include <QApplication>
#include <QWidget>
#include <QWindow>

namespace tilescope::testing {

// Turns the wheel by `notches` (positive: away from the user, scrolling up) over `pos` of `widget`.
inline void wheel(QWidget* widget, QPoint pos, int notches) {
  QWidget* top = widget->window();
  QWindow* window = top->windowHandle();
  const QPoint local = widget->mapTo(top, pos);
  QWindowSystemInterface::handleWheelEvent(window, QPointF(local), QPointF(top->mapToGlobal(local)), QPoint(),
                                           QPoint(0, 120 * notches));
  QWindowSystemInterface::flushWindowSystemEvents();
  QApplication::processEvents();
}

}  // namespace tilescope::testing
