#pragma once
// The main window: lays out the notebook view, notice bar, menus, toolbar and status bar, and wires
// the controllers together. Behaviour lives in NotebookController (cells, keys, running) and
// FileController (files, autosave, recovery).
#include <QFutureWatcher>
#include <QMainWindow>
#include <memory>

#include "ui/CoreFacade.h"
#include "ui/Preferences.h"
#include "ui/RecoveryStore.h"

class QLabel;
class QToolBar;

namespace tilescope::ui {

class BackendSelector;
class ExecutionClient;
class FileController;
class InspectorDock;
class PerformanceDock;
class NoticeBar;
class NotebookController;
class NotebookModel;
class NotebookView;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  // client: how cells run (default: a tilescope-cli worker process); recovery: where recovery copies
  // go (default: the app's data folder). Tests pass their own.
  explicit MainWindow(ExecutionClient* client = nullptr, std::unique_ptr<RecoveryStore> recovery = nullptr,
                      QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a notebook; on failure shows the error (and returns it) and keeps the current notebook.
  QString openNotebook(const QString& path);
  QString currentPath() const;
  // Shows a notice offering to recover work a crashed session left behind; false when there is none.
  bool offerRecovery();

  NotebookModel* model() const { return model_; }
  NotebookView* notebookView() const { return view_; }
  NotebookController* notebookController() const { return notebookController_; }
  FileController* fileController() const { return fileController_; }
  ExecutionClient* executionClient() const { return client_; }
  BackendSelector* backendSelector() const { return backendSelector_; }
  NoticeBar* noticeBar() const { return notice_; }
  QToolBar* toolBar() const { return toolBar_; }
  InspectorDock* inspectorDock() const { return inspector_; }
  PerformanceDock* performanceDock() const { return performance_; }

  void applyPreferences(const Preferences& preferences);
  // Where this notebook's cells run: its own "run_on", else the preferences' (RunOnTarget). A notebook's
  // own SSH host the user has not approved (RunOnApprovalDialog) or declined counts as this machine.
  RunOnTarget effectiveRunOn() const;
  QAction* runOnAction() const { return runOnAction_; }
  QString workerStatusText() const;
  void setPresentationMode(bool on);
  bool presentationMode() const;

  QString deviceStatusText() const;
  bool deviceProbeFinished() const { return probeFinished_; }

signals:
  void deviceProbeDone();

protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

private:
  void buildMenus();
  void buildToolBar();
  void fitToolBarToWidth();
  void buildStatusBar();
  void connectControllers();
  void updateTitle();
  void startDeviceProbe();
  void showDeviceStatus(const DeviceStatus& status);
  void showKeyboardHelp();
  void applyIcons(const Theme& theme);
  // The inspector and performance docks at presentation scale in presentation mode or when the
  // View menu asks for it (remembered in Preferences), else at 1.
  void applyInspectorScale();
  void editPreferences();
  void editRunOn();
  // Points the worker at effectiveRunOn() and shows where in the status bar.
  void applyRunOn();
  // The notebook's own SSH host when it is neither approved (Preferences) nor declined for this notebook.
  std::optional<RunOnTarget> unapprovedNotebookHost() const;
  // The run gate: asks about an unapproved notebook host first; false when the user cancels.
  bool approveNotebookHost();
  void showWorkerState(const QString& state);

  NotebookModel* model_;
  NotebookView* view_;
  NoticeBar* notice_;
  ExecutionClient* client_;
  BackendSelector* backendSelector_;
  NotebookController* notebookController_;
  FileController* fileController_;
  InspectorDock* inspector_ = nullptr;  // the kernel inspector beside the notebook (ui/viz)
  PerformanceDock* performance_ = nullptr;  // benchmark curves and the SM timeline, tabbed with the inspector
  QToolBar* toolBar_ = nullptr;
  int toolBarWidthWithText_ = 0;
  QAction* presentationAction_ = nullptr;
  QAction* inspectorScaleAction_ = nullptr;
  QAction* runOnAction_ = nullptr;
  DeviceStatus localDevice_;  // this machine's probe, shown again when cells run here
  QLabel* modeLabel_ = nullptr;
  QLabel* workerLabel_ = nullptr;
  QLabel* deviceLabel_ = nullptr;
  Preferences preferences_;
  bool notebookHostDeclined_ = false;  // "Run here instead" for the open notebook's host
  bool showingUnapprovedHost_ = false;
  QFutureWatcher<DeviceStatus> probe_;
  bool probeFinished_ = false;
};

}  // namespace tilescope::ui
