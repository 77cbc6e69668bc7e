#include "ui/viz/PerformanceDock.h"

#include <QMainWindow>
#include <QSettings>
#include <QTabWidget>

#include "ui/BenchmarkPlot.h"
#include "ui/ExecutionClient.h"
#include "ui/viz/BenchmarkPanel.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/TimelinePanel.h"

namespace tilescope::ui {

PerformanceDock::PerformanceDock(QMainWindow* window, QDockWidget* besides, ExecutionClient* client)
    : QDockWidget(tr("Performance"), window) {
  setObjectName(QStringLiteral("performanceDock"));
  setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea);
  tabs_ = new QTabWidget(this);
  benchmarks_ = new BenchmarkPanel(tabs_);
  timeline_ = new TimelinePanel(tabs_);
  tabs_->addTab(benchmarks_, tr("Benchmarks"));
  tabs_->addTab(timeline_, tr("SM timeline"));
  setWidget(tabs_);
  window->addDockWidget(Qt::RightDockWidgetArea, this);
  if (besides) {
    window->tabifyDockWidget(besides, this);
    besides->raise();
  }
  // The inspector restored the saved layout before this dock existed: restore it again to place this one.
  const QByteArray state = QSettings().value(QLatin1String(InspectorDock::kStateKey)).toByteArray();
  if (!state.isEmpty()) window->restoreState(state);

  connect(client, &ExecutionClient::executionStarted, this,
          [this](const QString& cellId, int executionCount) { executionCounts_[cellId] = executionCount; });
  connect(client, &ExecutionClient::richOutput, this, [this](const QString& cellId, const RichOutput& output) {
    const auto spec = output.data.find(BenchmarkPlot::kMimeType);
    if (spec == output.data.end()) return;
    const int count = executionCounts_.value(cellId, 0);
    benchmarks_->addResult(*spec, count > 0 ? tr("In [%1]").arg(count) : tr("cell %1").arg(cellId.left(8)));
  });
}

}  // namespace tilescope::ui
