#pragma once
// Puts the InspectorPanel beside the notebook as a dock (resizable, movable, closable from the View
// menu; its place and size are remembered across sessions) and wires it: the panel follows the
// notebook's selected cell, the execution client reports each cell's kernel launches with their
// traces, a cell that runs again starts with an empty list, and the current memory operation's
// source line is highlighted in its cell.
#include <QDockWidget>

class QMainWindow;

namespace tilescope::ui {

class ExecutionClient;
class InspectorPanel;
class NotebookView;
class SourceLineMarker;

class InspectorDock : public QDockWidget {
  Q_OBJECT
public:
  InspectorDock(QMainWindow* window, NotebookView* view, ExecutionClient* client);
  InspectorPanel* panel() const { return panel_; }
  SourceLineMarker* lineMarker() const { return marker_; }

  // The window's dock layout is saved under this QSettings key when the window closes.
  static constexpr const char* kStateKey = "inspector/windowState";

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  QMainWindow* window_;
  bool sizeToDefault_ = false;  // no saved layout: take the default share of the window when it first shows
  InspectorPanel* panel_;
  SourceLineMarker* marker_;
};

}  // namespace tilescope::ui
