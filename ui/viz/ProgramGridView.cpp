#include "ui/viz/ProgramGridView.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/viz/ScenePainter.h"

namespace tilescope::ui {

namespace {
constexpr double kMargin = 8;
constexpr double kMaxCell = 40;
}  // namespace

ProgramGridView::ProgramGridView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 120);
  setObjectName(QStringLiteral("programGrid"));
}

void ProgramGridView::setDocument(std::shared_ptr<const TraceDocument> document) {
  document_ = std::move(document);
  slice_ = 0;
  selected_.reset();
  rebuildImage();
}

void ProgramGridView::setColoring(TraceDocument::Coloring coloring) {
  coloring_ = coloring;
  rebuildImage();
}

void ProgramGridView::setSlice(qint64 slice) {
  slice_ = slice;
  rebuildImage();
}

void ProgramGridView::setSelected(const std::optional<ProgramId>& pid) {
  selected_ = pid;
  if (pid && document_ && document_->gridDimensions() == 3 && (*pid)[2] != slice_) setSlice((*pid)[2]);
  update();
}

void ProgramGridView::rebuildImage() {
  image_ = QImage();
  if (document_) {
    picture_ = document_->gridPicture(coloring_, kWrap);
    image_ = QImage(static_cast<int>(picture_.columns), static_cast<int>(picture_.rows), QImage::Format_RGB32);
    image_.fill(Qt::white);
    for (qint64 row = 0; row < picture_.rows; ++row) {
      auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(row)));
      for (qint64 col = 0; col < picture_.columns; ++col) {
        const auto pid = document_->programAt(col, row, slice_, kWrap);
        if (!pid) continue;
        const viz::Color& c = picture_.colors[static_cast<size_t>(document_->linearId(*pid))];
        line[col] = qRgb(c.r, c.g, c.b);
      }
    }
  }
  emit legendChanged(legend());
  update();
}

double ProgramGridView::cellSize() const {
  if (image_.isNull()) return 0;
  const double w = (width() - 2 * kMargin * zoom_) / image_.width();
  const double h = (height() - 2 * kMargin * zoom_) / image_.height();
  return std::max(1.0, std::min({w, h, kMaxCell * zoom_}));
}

QPointF ProgramGridView::origin() const { return {kMargin * zoom_, kMargin * zoom_}; }

void ProgramGridView::setZoom(double zoom) {
  zoom_ = zoom;
  setMinimumSize(QSize(160, 120) * zoom);
  update();
}

QPointF ProgramGridView::cellTopLeft(const ProgramId& pid) const {
  if (!document_) return {};
  const auto c = document_->cellOf(pid, kWrap);
  return origin() + QPointF(static_cast<double>(c[0]) * cellSize(), static_cast<double>(c[1]) * cellSize());
}

std::optional<ProgramId> ProgramGridView::programAt(const QPointF& pos) const {
  if (!document_ || image_.isNull()) return std::nullopt;
  const QPointF p = pos - origin();
  if (p.x() < 0 || p.y() < 0) return std::nullopt;
  const double cell = cellSize();
  return document_->programAt(static_cast<qint64>(p.x() / cell), static_cast<qint64>(p.y() / cell), slice_, kWrap);
}

void ProgramGridView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (image_.isNull()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("Run a cell that launches a kernel: its programs appear here."));
    return;
  }
  const double cell = cellSize();
  const QRectF area(origin(), QSizeF(image_.width() * cell, image_.height() * cell));
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(area, image_);
  const bool detail = cell >= 6;
  if (detail) {
    // Hatching, separators and labels only where cells are large enough to read.
    for (qint64 row = 0; row < picture_.rows; ++row)
      for (qint64 col = 0; col < picture_.columns; ++col) {
        const auto pid = document_->programAt(col, row, slice_, kWrap);
        if (!pid) continue;
        const QRectF r(area.left() + col * cell, area.top() + row * cell, cell, cell);
        const qint64 id = document_->linearId(*pid);
        if (picture_.hatched[static_cast<size_t>(id)]) p.fillRect(r, QBrush(QColor(0, 0, 0, 150), Qt::BDiagPattern));
        if (cell >= 20 * zoom_) {
          const viz::Color& c = picture_.colors[static_cast<size_t>(id)];
          p.setPen(0.299 * c.r + 0.587 * c.g + 0.114 * c.b > 140 ? Qt::black : Qt::white);
          QFont f = font();
          f.setPixelSize(static_cast<int>(std::min(11.0 * zoom_, cell / 2.6)));
          p.setFont(f);
          const QString label = document_->gridDimensions() == 1 ? QString::number((*pid)[0])
                                                                 : QStringLiteral("%1,%2").arg((*pid)[0]).arg((*pid)[1]);
          p.drawText(r, Qt::AlignCenter, label);
        }
      }
    p.setPen(QPen(Qt::white, zoom_));
    for (qint64 col = 0; col <= picture_.columns; ++col)
      p.drawLine(QPointF(area.left() + col * cell, area.top()), QPointF(area.left() + col * cell, area.bottom()));
    for (qint64 row = 0; row <= picture_.rows; ++row)
      p.drawLine(QPointF(area.left(), area.top() + row * cell), QPointF(area.right(), area.top() + row * cell));
  }
  if (selected_ && (document_->gridDimensions() < 3 || (*selected_)[2] == slice_)) {
    p.setPen(QPen(palette().color(QPalette::Highlight), std::max(2.0 * zoom_, cell / 8)));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(cellTopLeft(*selected_), QSizeF(cell, cell)));
  }
}

void ProgramGridView::mouseMoveEvent(QMouseEvent* event) {
  const auto pid = programAt(event->position());
  hoverText_ = pid ? document_->programSummary(*pid) : QString();
  if (pid) QToolTip::showText(event->globalPosition().toPoint(), hoverText_, this);
  else QToolTip::hideText();
}

void ProgramGridView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const auto pid = programAt(event->position());
  if (!pid) return;
  setSelected(pid);
  emit programSelected(*pid);
}

void ProgramGridView::leaveEvent(QEvent*) { hoverText_.clear(); }

viz::Scene ProgramGridView::scene() const {
  return document_ ? document_->gridScene(coloring_, selected_, slice_) : viz::Scene();
}

void ProgramGridView::contextMenuEvent(QContextMenuEvent* event) {
  if (!document_) return;
  QMenu menu(this);
  menu.addAction(tr("Save View As..."), this, [this] { exportSceneInteractively(scene(), this, QStringLiteral("grid.png")); });
  menu.exec(event->globalPos());
}

}  // namespace tilescope::ui
