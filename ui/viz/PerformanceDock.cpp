#include "ui/viz/PerformanceDock.h"

#include <QMainWindow>
#include <QSettings>
#include <QTabWidget>

#include "ui/BenchmarkPlot.h"
#include "ui/ExecutionClient.h"
#include "ui/NotebookModel.h"
#include "ui/viz/BenchmarkPanel.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/TimelinePanel.h"

namespace tilescope::ui {

PerformanceDock::PerformanceDock(QMainWindow* window, QDockWidget* besides, ExecutionClient* client, NotebookModel* model)
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
  if (model) {
    connect(model, &NotebookModel::modelReset, this, [this, model] {
      for (int i = 0; i < model->cellCount(); ++i) {
        const notebook::Cell& cell = model->cell(i);
        if (!cell.outputs.is_array()) continue;
        for (const nlohmann::json& output : cell.outputs) {
          const auto data = output.find("data");
          if (data == output.end() || !data->is_object() || !data->contains(BenchmarkPlot::kMimeType)) continue;
          benchmarks_->addResult((*data)[BenchmarkPlot::kMimeType],
                                 cell.executionCount > 0 ? tr("saved In [%1]").arg(cell.executionCount) : tr("saved output"));
        }
      }
    });
  }
}

}  // namespace tilescope::ui
