#pragma once
// A dock tabbed with the inspector: the benchmark panel (every perf_report result the notebook's
// runs display, labelled "In [N]" after the run that made it, plus those saved in a notebook when it
// is opened) and the SM timeline of GPU runs with program timing. It shares the inspector's saved window layout (InspectorDock::kStateKey).
#include <QDockWidget>
#include <QHash>

class QMainWindow;
class QTabWidget;

namespace tilescope::ui {

class BenchmarkPanel;
class ExecutionClient;
class NotebookModel;
class TimelinePanel;

class PerformanceDock : public QDockWidget {
  Q_OBJECT
public:
  // `besides`: the dock to share a tab group with (the inspector), or null.
  // `model`, when given, adds the benchmark outputs saved in each notebook opened.
  PerformanceDock(QMainWindow* window, QDockWidget* besides, ExecutionClient* client, NotebookModel* model = nullptr);
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
