#include "ui/FittedImageLabel.h"

#include <QPainter>
#include <algorithm>

namespace tilescope::ui {

namespace {
constexpr int kNarrowest = 120;  // below this an image is unreadable anyway: scroll instead
}

FittedImageLabel::FittedImageLabel(const QPixmap& image, QWidget* parent) : QLabel(parent) {
  setPixmap(image);
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

QSize FittedImageLabel::shownSize(int width) const {
  const QSize full = pixmap().deviceIndependentSize().toSize();
  if (full.isEmpty() || width >= full.width()) return full;
  const int w = std::max(width, 1);
  return {w, std::max(1, static_cast<int>(static_cast<qint64>(full.height()) * w / full.width()))};
}

int FittedImageLabel::heightForWidth(int width) const { return shownSize(width).height(); }

QSize FittedImageLabel::sizeHint() const { return pixmap().deviceIndependentSize().toSize(); }

QSize FittedImageLabel::minimumSizeHint() const {
  return shownSize(std::min(kNarrowest, sizeHint().width()));
}

void FittedImageLabel::paintEvent(QPaintEvent*) {
  if (pixmap().isNull()) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::SmoothPixmapTransform);
  painter.drawPixmap(QRect(QPoint(0, 0), shownSize(width())), pixmap());
}

}  // namespace tilescope::ui
