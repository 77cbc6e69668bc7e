#pragma once
// The SM timeline tab: opens a --program-timing file written by a GPU run
// (`tilescope-cli run --backend gpu --program-timing F.jsonl`), lists its launches and draws the one
// picked as core/viz/TimelineScene (one row per SM, a bar per program), coloured by program or by
// duration. The file is read by core/gpu/runtime/ProgramTiming, the same reader the command line uses.
#include <QPointF>
#include <QWidget>
#include <vector>

#include "core/gpu/runtime/ProgramTiming.h"

class QComboBox;
class QLabel;
class QScrollArea;

namespace tilescope::ui {

class SceneView;

class TimelinePanel : public QWidget {
  Q_OBJECT
public:
  explicit TimelinePanel(QWidget* parent = nullptr);

  // False, with the reason shown in the panel and in `error`, when the file cannot be read.
  bool openFile(const QString& path, QString* error = nullptr);
  void setLaunches(std::vector<gpu::LaunchTiming> launches);
  void selectLaunch(int index);
  void setColorByDuration(bool byDuration);

  const std::vector<gpu::LaunchTiming>& launches() const { return launches_; }
  // What hovering a point of the scene view shows: the program whose bar is there, or empty.
  QString tooltipAt(QPointF scenePoint) const;
  SceneView* sceneView() const { return view_; }
  QComboBox* launchBox() const { return launchBox_; }
  QLabel* statusLabel() const { return status_; }

signals:
  // "Show in Inspector": the picked launch's --program-timing JSON line.
  void inspectRequested(const QByteArray& programTimingLine);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  void redraw();

  std::vector<gpu::LaunchTiming> launches_;
  QComboBox* launchBox_;
  QComboBox* coloring_;
  QLabel* status_;
  SceneView* view_;
  QScrollArea* scroll_ = nullptr;
  int drawnWidth_ = 0;  // the plot width the scene was drawn for
};

}  // namespace tilescope::ui
