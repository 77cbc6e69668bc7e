#pragma once
// An image output that fits the width it is given: shown at its own size where there is room, and
// scaled down (aspect kept) where the notebook column is narrower, as Jupyter's max-width: 100%.
// A label holding a fixed-size pixmap would instead widen the whole notebook and cut the image off
// behind a horizontal scroll bar. pixmap() is still the full-size image.
#include <QLabel>

namespace tilescope::ui {

class FittedImageLabel : public QLabel {
  Q_OBJECT
public:
  explicit FittedImageLabel(const QPixmap& image, QWidget* parent = nullptr);

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  QSize shownSize(int width) const;  // the image's size in a column this wide
};

}  // namespace tilescope::ui
