#include "ui/viz/InspectorDock.h"

#include <algorithm>

#include <QEvent>
#include <QMainWindow>
#include <QSettings>

#include "ui/ExecutionClient.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/compiled/CompiledPanel.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/SourceLineMarker.h"

namespace tilescope::ui {

InspectorDock::InspectorDock(QMainWindow* window, NotebookView* view, ExecutionClient* client)
    : QDockWidget(tr("Inspector"), window), window_(window) {
  setObjectName(QStringLiteral("inspectorDock"));
  setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea);
  panel_ = new InspectorPanel(this);
  setWidget(panel_);
  window->addDockWidget(Qt::RightDockWidgetArea, this);
  const QByteArray state = QSettings().value(QLatin1String(kStateKey)).toByteArray();
  if (!state.isEmpty()) window->restoreState(state);
  else sizeToDefault_ = true;
  window->installEventFilter(this);

  client->setInspectLaunches(true);
  connect(client, &ExecutionClient::executionStarted, panel_, [this](const QString& cellId) { panel_->clearCell(cellId); });
  connect(client, &ExecutionClient::kernelLaunched, panel_, &InspectorPanel::addLaunch);
  connect(panel_, &InspectorPanel::tracedProgramsRequested, client, &ExecutionClient::setRequestedTracePrograms);
  connect(view, &NotebookView::selectionChanged, panel_, [this, view] { panel_->showCell(view->selectedCellId()); });
  // tilescope.check's link under a failed exercise: the dock comes to the front on that launch.
  connect(view, &NotebookView::inspectorLinkActivated, this, [this](const QString& cellId, const InspectorLink& link) {
    show();
    raise();
    panel_->openLink(cellId, link);
  });
  marker_ = new SourceLineMarker(view, this);
  connect(panel_, &InspectorPanel::memoryOpLocated, marker_, &SourceLineMarker::show);
  panel_->showCell(view->selectedCellId());
  // The Compiled tab compiles from the notebook's code cells as they are now.
  panel_->compiledPanel()->setCellsProvider([view] {
    CompiledDocument::Cells cells;
    const NotebookModel* model = view->model();
    for (int i = 0; i < model->cellCount(); ++i) {
      const notebook::Cell& c = model->cell(i);
      if (c.type == notebook::CellType::Code)
        cells.append({QStringLiteral("<cell:%1>").arg(QString::fromStdString(c.id)), QString::fromStdString(c.source)});
    }
    return cells;
  });
}

bool InspectorDock::eventFilter(QObject* watched, QEvent* event) {
  // Sized once the window has its own size: before that a dock gets about half of it, which leaves
  // code cells too narrow for their lines. The notebook keeps about two thirds.
  if (watched == window_ && event->type() == QEvent::Show && sizeToDefault_) {
    sizeToDefault_ = false;
    window_->resizeDocks({this}, {std::max(minimumSizeHint().width(), window_->width() * 36 / 100)}, Qt::Horizontal);
  }
  if (watched == window_ && event->type() == QEvent::Close) QSettings().setValue(QLatin1String(kStateKey), window_->saveState());
  return QDockWidget::eventFilter(watched, event);
}

}  // namespace tilescope::ui
