#pragma once
// The interactive program grid: one cell per program, coloured as TraceDocument::gridPicture says
// (painted from one image of the whole slice, so 65,536 programs repaint in a few milliseconds);
// hovering shows a program's stats, clicking selects it for the other views.
#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>

#include "ui/viz/TraceDocument.h"

namespace tilescope::ui {

class ProgramGridView : public QWidget {
  Q_OBJECT
public:
  explicit ProgramGridView(QWidget* parent = nullptr);

  void setDocument(std::shared_ptr<const TraceDocument> document);
  void setColoring(TraceDocument::Coloring coloring);
  void setSlice(qint64 slice);
  void setSelected(const std::optional<ProgramId>& pid);
  // Presentation scale: cells, labels, outlines and margins this many times larger.
  void setZoom(double zoom);
  double zoom() const { return zoom_; }
  std::optional<ProgramId> selected() const { return selected_; }
  qint64 slice() const { return slice_; }

  // Geometry, for tests and hit testing: the top-left of the cell of `pid` and the cell size.
  QPointF cellTopLeft(const ProgramId& pid) const;
  double cellSize() const;
  std::optional<ProgramId> programAt(const QPointF& pos) const;
  QString hoverText() const { return hoverText_; }
  // What the colours mean ("colour by bytes moved ...; grey: not traced"), as the CLI's picture says.
  QString legend() const { return image_.isNull() ? QString() : picture_.legend; }
  // The grid as core draws it for `tilescope-cli viz --view grid` (for export).
  viz::Scene scene() const;

  static constexpr qint64 kWrap = 32;

signals:
  void programSelected(const tilescope::ui::ProgramId& pid);
  void legendChanged(const QString& legend);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

private:
  void rebuildImage();
  QPointF origin() const;

  std::shared_ptr<const TraceDocument> document_;
  TraceDocument::Coloring coloring_ = TraceDocument::Coloring::Pid;
  TraceDocument::GridPicture picture_;
  QImage image_;  // one pixel per cell of the current slice
  qint64 slice_ = 0;
  std::optional<ProgramId> selected_;
  QString hoverText_;
  double zoom_ = 1;
};

}  // namespace tilescope::ui
