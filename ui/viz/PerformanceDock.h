#pragma once
// A dock tabbed with the inspector: the benchmark panel (every perf_report result the notebook's
// runs display, labelled "In [N]" after the run that made it) and the SM timeline of GPU runs with
// program timing. It shares the inspector's saved window layout (InspectorDock::kStateKey).
#include <QDockWidget>
#include <QHash>

class QMainWindow;
class QTabWidget;

namespace tilescope::ui {

class BenchmarkPanel;
class ExecutionClient;
class TimelinePanel;

class PerformanceDock : public QDockWidget {
  Q_OBJECT
public:
  // `besides`: the dock to share a tab group with (the inspector), or null.
  PerformanceDock(QMainWindow* window, QDockWidget* besides, ExecutionClient* client);
  BenchmarkPanel* benchmarks() const { return benchmarks_; }
  TimelinePanel* timeline() const { return timeline_; }
  QTabWidget* tabs() const { return tabs_; }

private:
  QHash<QString, int> executionCounts_;  // the latest "In [N]" of each cell
  QTabWidget* tabs_;
  BenchmarkPanel* benchmarks_;
  TimelinePanel* timeline_;
};

}  // namespace tilescope::ui
