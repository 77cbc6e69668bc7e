#include "ui/MainWindow.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QResizeEvent>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/BackendSelector.h"
#include "ui/FileController.h"
#include "ui/NoticeBar.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/PreferencesDialog.h"
#include "ui/RecoveryStore.h"
#include "ui/Resources.h"
#include "ui/RunOnApprovalDialog.h"
#include "ui/RunOnDialog.h"
#include "ui/ToolIcons.h"
#include "ui/WorkerProcessClient.h"
#include "ui/viz/BenchmarkPanel.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/PerformanceDock.h"
#include "ui/viz/PresentationScale.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/TimelinePanel.h"

namespace tilescope::ui {

namespace {

// The torch the worker's cells import: the notebook's metadata {"tilescope": {"torch": ...}}, else the
// preference. A preference applies at the worker's next restart; `restartNow` restarts a started worker
// when the choice changed (a notebook asking for another one).
void applyWorkerTorch(WorkerProcessClient& worker, const notebook::Notebook& nb, const QString& preference, bool restartNow) {
  QString torch = preference;
  if (const auto ts = nb.metadata.find("tilescope"); ts != nb.metadata.end() && ts->is_object()) {
    if (const auto t = ts->find("torch"); t != ts->end() && t->is_string()) {
      const QString asked = QString::fromStdString(t->get<std::string>());
      if (asked == QLatin1String("builtin") || asked == QLatin1String("system")) torch = asked;
    }
  }
  if (torch == worker.torch()) return;
  worker.setTorch(torch);
  if (restartNow && worker.state() != WorkerProcessClient::State::NotStarted) worker.restart();
}

}  // namespace
namespace {
// Room for the title bar and borders a window manager adds around the window.
const QSize kWindowFrameAllowance(16, 48);
}  // namespace

MainWindow::MainWindow(ExecutionClient* client, std::unique_ptr<RecoveryStore> recovery, QWidget* parent)
    : QMainWindow(parent) {
  ensureResourcesLoaded();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/tilescope.svg")));
  // Never larger than the screen, frame included: on an 800x600 or 1024x768 screen the toolbar's end
  // would be off it.
  QSize size(1100, 800);
  if (const QScreen* screen = QGuiApplication::primaryScreen())
    size = size.boundedTo(screen->availableGeometry().size() - kWindowFrameAllowance);
  resize(size);

  model_ = new NotebookModel(this);
  view_ = new NotebookView(model_, this);
  notice_ = new NoticeBar(this);
  auto* central = new QWidget(this);
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addWidget(notice_);
  column->addWidget(view_, 1);
  setCentralWidget(central);

  auto* worker = client ? nullptr : new WorkerProcessClient(WorkerProcessClient::defaultWorkerProgram(), this);
  client_ = client ? client : worker;
  if (client) client->setParent(this);
  backendSelector_ = new BackendSelector(this);
  notebookController_ = new NotebookController(model_, view_, client_, backendSelector_, this);
  fileController_ = new FileController(model_, this, std::move(recovery), this);
  inspector_ = new InspectorDock(this, view_, client_);
  performance_ = new PerformanceDock(this, inspector_, client_, model_);
  connect(performance_->timeline(), &TimelinePanel::inspectRequested, this, [this](const QByteArray& line) {
    if (inspector_->panel()->inspectProgramTiming(line)) {
      inspector_->show();
      inspector_->raise();
    }
  });

  buildMenus();
  buildToolBar();
  buildStatusBar();
  connectControllers();
  applyPreferences(Preferences::load());
  if (worker) {
    // A notebook's own torch choice applies when it is opened (a started worker restarts).
    connect(model_, &NotebookModel::modelReset, worker, [this, worker] {
      applyWorkerTorch(*worker, model_->notebook(), preferences_.torch, true);
    });
  }
  updateTitle();
  startDeviceProbe();
  view_->setFocus();
  // Started from the event loop so a window that is only built (tests, --help) does not pay for it.
  // A remote worker connects when a cell first runs, never on opening a notebook that names a host.
  if (worker)
    QTimer::singleShot(0, worker, [worker] {
      if (!worker->runOn().isRemote()) worker->start();
    });
}

MainWindow::~MainWindow() { probe_.waitForFinished(); }

void MainWindow::buildMenus() {
  const auto& cell = notebookController_->actions();
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(fileController_->newAction());
  file->addAction(fileController_->openAction());
  QMenu* recent = file->addMenu(tr("Open &Recent"));
  connect(recent, &QMenu::aboutToShow, this, [this, recent] { fileController_->fillRecentMenu(recent); });
  file->addAction(fileController_->saveAction());
  file->addAction(fileController_->saveAsAction());
  file->addSeparator();
  file->addAction(tr("&Preferences..."), this, &MainWindow::editPreferences);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Cell"));
  edit->addActions({cell.insertAbove, cell.insertBelow, cell.deleteCell, cell.undoDelete});
  edit->addSeparator();
  edit->addActions({cell.toCode, cell.toMarkdown});
  edit->addSeparator();
  edit->addActions({cell.moveUp, cell.moveDown, cell.selectPrevious, cell.selectNext});

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({cell.runAndAdvance, cell.run, cell.runAndInsertBelow, cell.runAll, cell.runAbove});
  run->addSeparator();
  run->addActions({cell.interrupt, cell.restart, cell.clearOutputs});
  run->addSeparator();
  runOnAction_ = run->addAction(tr("Run &On..."), this, &MainWindow::editRunOn);
  runOnAction_->setObjectName(QStringLiteral("runOnAction"));
  runOnAction_->setToolTip(tr("Run cells on this machine or on an SSH host's GPU"));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(inspector_->toggleViewAction());
  view->addAction(performance_->toggleViewAction());
  presentationAction_ = view->addAction(tr("&Presentation Mode"));
  presentationAction_->setCheckable(true);
  presentationAction_->setShortcut(QKeySequence(Qt::Key_F5));
  presentationAction_->setToolTip(tr("Large fonts and one cell at a time, for teaching (F5)"));
  connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentationMode);
  inspectorScaleAction_ = view->addAction(tr("&Inspector at Presentation Scale"));
  inspectorScaleAction_->setObjectName(QStringLiteral("inspectorPresentationAction"));
  inspectorScaleAction_->setCheckable(true);
  inspectorScaleAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  inspectorScaleAction_->setToolTip(tr("The inspector and performance docks at presentation scale, for a projector (Ctrl+Shift+P)"));
  connect(inspectorScaleAction_, &QAction::toggled, this, [this](bool on) {
    preferences_.inspectorPresentation = on;
    preferences_.save();
    applyInspectorScale();
  });
  QAction* fullScreen = view->addAction(tr("&Full Screen"));
  fullScreen->setCheckable(true);
  fullScreen->setShortcut(QKeySequence::FullScreen);
  connect(fullScreen, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
  view->addSeparator();
  QAction* dark = view->addAction(tr("&Dark Theme"));
  dark->setCheckable(true);
  connect(dark, &QAction::toggled, this, [this](bool on) {
    Preferences p = preferences_;
    p.theme = on ? QStringLiteral("dark") : QStringLiteral("light");
    p.save();
    applyPreferences(p);
  });
  connect(view, &QMenu::aboutToShow, this, [this, dark] {
    const QSignalBlocker block(dark);
    dark->setChecked(preferences_.theme == QLatin1String("dark"));
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showKeyboardHelp);
  help->addAction(tr("&About tilescope"), this, [this] {
    QMessageBox::about(this, tr("About tilescope"),
                       tr("tilescope %1\nWrite, run and see Triton-style GPU kernels.\n\n%2")
                           .arg(QStringLiteral(TILESCOPE_VERSION), deviceLabel_->toolTip()));
  });
}

void MainWindow::buildToolBar() {
  const auto& cell = notebookController_->actions();
  toolBar_ = addToolBar(tr("Run"));
  toolBar_->setObjectName(QStringLiteral("runToolBar"));
  toolBar_->setMovable(false);
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolBar_->addActions({cell.runAndAdvance, cell.runAll, cell.runAbove, cell.interrupt, cell.restart, cell.clearOutputs});
  toolBar_->addSeparator();
  auto* backendLabel = new QLabel(tr(" Backend: "), toolBar_);
  toolBar_->addWidget(backendLabel);
  toolBar_->addWidget(backendSelector_);
  auto* spacer = new QWidget(toolBar_);
  spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  toolBar_->addWidget(spacer);
  // Whatever does not fit even without text goes into the toolbar's extension menu (>>).
  toolBar_->addAction(presentationAction_);
}

void MainWindow::fitToolBarToWidth() {
  // Text beside the icons while it fits; icons alone (the names are in the tooltips) when the window
  // is narrow. The width with text is measured whenever text is shown: fonts change with presentation mode.
  if (toolBar_->toolButtonStyle() == Qt::ToolButtonTextBesideIcon) toolBarWidthWithText_ = toolBar_->sizeHint().width();
  const bool text = toolBarWidthWithText_ <= width();
  toolBar_->setToolButtonStyle(text ? Qt::ToolButtonTextBesideIcon : Qt::ToolButtonIconOnly);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  if (toolBar_) fitToolBarToWidth();
}

void MainWindow::buildStatusBar() {
  modeLabel_ = new QLabel(this);
  modeLabel_->setObjectName(QStringLiteral("modeStatus"));
  workerLabel_ = new QLabel(tr("Worker: starting"), this);
  workerLabel_->setObjectName(QStringLiteral("workerStatus"));
  deviceLabel_ = new QLabel(tr("Probing for a CUDA device..."), this);
  deviceLabel_->setObjectName(QStringLiteral("deviceStatus"));
  statusBar()->addPermanentWidget(modeLabel_);
  statusBar()->addPermanentWidget(workerLabel_);
  statusBar()->addPermanentWidget(deviceLabel_);
  auto showMode = [this](NotebookView::Mode mode) {
    modeLabel_->setText(mode == NotebookView::Mode::Edit ? tr("Edit mode (Esc: command mode)")
                                                         : tr("Command mode (Enter: edit)"));
  };
  connect(view_, &NotebookView::modeChanged, this, showMode);
  showMode(view_->mode());
}

void MainWindow::connectControllers() {
  connect(model_, &NotebookModel::dirtyChanged, this, &MainWindow::updateTitle);
  connect(fileController_, &FileController::pathChanged, this, [this] {
    updateTitle();
    view_->setBaseDirectory(fileController_->directory());
  });
  connect(fileController_, &FileController::fileError, this, [this](const QString& message) {
    notice_->showNotice(NoticeBar::Kind::Error, message);
  });
  connect(fileController_, &FileController::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 6000); });
  connect(notebookController_, &NotebookController::statusMessage, this,
          [this](const QString& m) { statusBar()->showMessage(m, 6000); });
  connect(notebookController_, &NotebookController::workerProblem, this, [this](const QString& reason) {
    notice_->showNotice(NoticeBar::Kind::Warning, reason);
    statusBar()->showMessage(reason, 10000);
  });
  connect(client_, &ExecutionClient::workerStarted, this, [this](const QString& description) {
    workerLabel_->setToolTip(description);
  });
  connect(client_, &ExecutionClient::busyChanged, this, [this](bool busy) {
    // A worker that could not start (or connect) is not idle: it waits for the next Run to try again.
    const auto* worker = qobject_cast<WorkerProcessClient*>(client_);
    if (!busy && worker && worker->state() == WorkerProcessClient::State::Dead) return;
    showWorkerState(busy ? tr("busy") : tr("idle"));
  });
  if (auto* worker = qobject_cast<WorkerProcessClient*>(client_)) {
    connect(worker, &WorkerProcessClient::stateChanged, this, [this, worker](WorkerProcessClient::State state) {
      switch (state) {
        case WorkerProcessClient::State::NotStarted: showWorkerState(tr("not started")); break;
        case WorkerProcessClient::State::Starting:
          showWorkerState(worker->runOn().isRemote() ? tr("connecting") : tr("starting"));
          break;
        case WorkerProcessClient::State::Idle: showWorkerState(tr("idle")); break;
        case WorkerProcessClient::State::Busy: showWorkerState(tr("busy")); break;
        case WorkerProcessClient::State::Dead:
          showWorkerState(tr("stopped"));
          if (worker->runOn().isRemote()) deviceLabel_->setText(tr("%1: not connected").arg(worker->runOn().displayName()));
          break;
      }
    });
    connect(worker, &WorkerProcessClient::remoteDeviceReported, this,
            [this, worker](bool gpuAvailable, const QString& statusLine, const QString& details) {
              if (!worker->runOn().isRemote()) return;
              const QString line = tr("%1: %2").arg(worker->runOn().displayName(), statusLine);
              deviceLabel_->setText(line);
              deviceLabel_->setToolTip(tr("Cells run on %1 (ssh).\n%2").arg(worker->runOn().host, details));
              backendSelector_->setGpuAvailability(gpuAvailable, line);
            });
    // Another notebook may run elsewhere (its own "run_on"); its host is asked about afresh.
    connect(model_, &NotebookModel::modelReset, this, [this] {
      notebookHostDeclined_ = false;
      applyRunOn();
    });
    notebookController_->setRunGate([this] { return approveNotebookHost(); });
  }
}

void MainWindow::showWorkerState(const QString& state) {
  const auto* worker = qobject_cast<WorkerProcessClient*>(client_);
  workerLabel_->setText(worker && worker->runOn().isRemote() ? tr("Worker on %1: %2").arg(worker->runOn().displayName(), state)
                                                             : tr("Worker: %1").arg(state));
}

QString MainWindow::workerStatusText() const { return workerLabel_->text(); }

RunOnTarget MainWindow::effectiveRunOn() const {
  const std::optional<RunOnTarget> own = RunOnTarget::fromNotebookMetadata(model_->notebook().metadata);
  if (!own) return preferences_.runOn;
  if (own->isRemote() && (notebookHostDeclined_ || unapprovedNotebookHost())) return RunOnTarget{};
  return *own;
}

std::optional<RunOnTarget> MainWindow::unapprovedNotebookHost() const {
  const std::optional<RunOnTarget> own = RunOnTarget::fromNotebookMetadata(model_->notebook().metadata);
  if (!own || !own->isRemote() || notebookHostDeclined_) return std::nullopt;
  // The app-wide host was chosen by the user in Run On... or Preferences.
  if (*own == preferences_.runOn || preferences_.approvedRunOnHosts.contains(own->approvalKey())) return std::nullopt;
  return own;
}

bool MainWindow::approveNotebookHost() {
  const std::optional<RunOnTarget> host = unapprovedNotebookHost();
  if (!host) return true;
  RunOnApprovalDialog dialog(*host, this);
  dialog.exec();
  switch (dialog.choice()) {
    case RunOnApprovalDialog::Choice::Connect: {
      Preferences p = preferences_;
      p.approvedRunOnHosts.append(host->approvalKey());
      p.save();
      preferences_ = p;
      break;
    }
    case RunOnApprovalDialog::Choice::RunHere:
      notebookHostDeclined_ = true;
      break;
    case RunOnApprovalDialog::Choice::Cancel:
      return false;
  }
  applyRunOn();
  return true;
}

void MainWindow::applyRunOn() {
  auto* worker = qobject_cast<WorkerProcessClient*>(client_);
  if (!worker) return;
  const RunOnTarget target = effectiveRunOn();
  const bool changed = !(target == worker->runOn());
  worker->setRunOn(target);
  if (const std::optional<RunOnTarget> unapproved = unapprovedNotebookHost()) {
    showingUnapprovedHost_ = true;
    deviceLabel_->setText(tr("%1: asks before connecting").arg(unapproved->displayName()));
    deviceLabel_->setToolTip(tr("This notebook names the SSH host %1. The app asks you before it connects there, when a cell "
                                "first runs.").arg(unapproved->host));
    showWorkerState(tr("not started"));
    return;
  }
  if (!changed && !showingUnapprovedHost_) return;
  showingUnapprovedHost_ = false;
  if (target.isRemote()) {
    deviceLabel_->setText(tr("%1: not connected yet").arg(target.displayName()));
    deviceLabel_->setToolTip(tr("Cells run on %1 (ssh), connected when a cell runs; its device report comes when the worker "
                                "there has started.").arg(target.host));
  } else if (probeFinished_) {
    showDeviceStatus(localDevice_);
  }
  showWorkerState(tr("not started"));
}

void MainWindow::editRunOn() {
  const bool own = RunOnTarget::fromNotebookMetadata(model_->notebook().metadata).has_value();
  RunOnDialog dialog(RunOnTarget::fromNotebookMetadata(model_->notebook().metadata).value_or(preferences_.runOn),
                     own ? RunOnDialog::Scope::ThisNotebook : RunOnDialog::Scope::AllNotebooks, this);
  connect(&dialog, &RunOnDialog::applied, this, [this](const RunOnTarget& target, RunOnDialog::Scope scope) {
    if (scope == RunOnDialog::Scope::ThisNotebook) {
      // The user typed this host: it needs no further approval.
      if (target.isRemote() && !preferences_.approvedRunOnHosts.contains(target.approvalKey())) {
        Preferences p = preferences_;
        p.approvedRunOnHosts.append(target.approvalKey());
        p.save();
        preferences_ = p;
      }
      notebookHostDeclined_ = false;
      model_->setTilescopeMetadata("run_on", target.toJson());
    } else {
      // The notebook's own setting would hide the new default: it goes.
      model_->setTilescopeMetadata("run_on", nullptr);
      Preferences p = preferences_;
      p.runOn = target;
      p.save();
      preferences_ = p;
    }
    applyRunOn();
  });
  dialog.exec();
}

void MainWindow::updateTitle() {
  // "[*]" is where Qt puts the unsaved-changes marker.
  setWindowTitle(fileController_->displayName() + QStringLiteral("[*] - tilescope"));
  setWindowModified(model_->isDirty());
}

QString MainWindow::openNotebook(const QString& path) { return fileController_->open(path); }

QString MainWindow::currentPath() const { return fileController_->currentPath(); }

bool MainWindow::offerRecovery() {
  const QList<RecoveryStore::Entry> entries = fileController_->pendingRecoveries();
  if (entries.isEmpty()) return false;
  const RecoveryStore::Entry newest = entries.first();
  const QString name = newest.originalPath.isEmpty() ? tr("an unsaved notebook") : QFileInfo(newest.originalPath).fileName();
  QString text = tr("tilescope did not close properly last time. Unsaved work in %1 (autosaved %2) can be recovered.")
                     .arg(name, newest.savedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm")));
  if (entries.size() > 1) text += tr(" (%1 more copies wait after this one.)").arg(entries.size() - 1);
  notice_->showNotice(NoticeBar::Kind::Warning, text,
                      {{tr("Recover"),
                        [this, newest] {
                          if (fileController_->confirmDiscardOrSave()) fileController_->recover(newest);
                          offerRecovery();
                        }},
                       {tr("Discard"), [this, newest] {
                          fileController_->discardRecovery(newest);
                          offerRecovery();
                        }}});
  return true;
}

void MainWindow::applyPreferences(const Preferences& preferences) {
  preferences_ = preferences;
  const Appearance appearance = preferences.appearance(presentationMode());
  appearance.theme.applyTo(*qApp);
  notice_->setTheme(appearance.theme);
  view_->setAppearance(appearance);
  performance_->benchmarks()->setTheme(appearance.theme);
  applyIcons(appearance.theme);
  fileController_->setAutosaveInterval(preferences.autosaveSeconds);
  if (auto* worker = qobject_cast<WorkerProcessClient*>(client_)) applyWorkerTorch(*worker, model_->notebook(), preferences.torch, false);
  preferences.applySimulatorThreads();
  applyInspectorScale();
  applyRunOn();
}

void MainWindow::applyInspectorScale() {
  {
    const QSignalBlocker block(inspectorScaleAction_);
    inspectorScaleAction_->setChecked(preferences_.inspectorPresentation);
  }
  const double scale = presentationMode() || preferences_.inspectorPresentation ? preferences_.presentationScale : 1.0;
  PresentationScale::apply(inspector_, scale);
  PresentationScale::apply(performance_, scale);
}

void MainWindow::setPresentationMode(bool on) {
  if (presentationAction_->isChecked() != on) {
    presentationAction_->setChecked(on);  // comes back here through toggled()
    return;
  }
  view_->setPresentationMode(on);
  view_->setAppearance(preferences_.appearance(on));
  // Larger, but still one row on a 1024-pixel projector.
  const int icon = on ? 24 : 16;
  toolBar_->setIconSize(QSize(icon, icon));
  QFont toolFont = QApplication::font();
  if (on) toolFont.setPointSizeF(toolFont.pointSizeF() * 1.15);
  toolBar_->setFont(toolFont);
  backendSelector_->setFont(toolFont);
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);  // measured again in the new font
  fitToolBarToWidth();
  applyInspectorScale();
}

void MainWindow::applyIcons(const Theme& theme) {
  const auto& cell = notebookController_->actions();
  const QColor colour = theme.text;
  cell.runAndAdvance->setIcon(toolIcon(ToolIcon::Run, theme.editModeBar));
  cell.runAll->setIcon(toolIcon(ToolIcon::RunAll, colour));
  cell.runAbove->setIcon(toolIcon(ToolIcon::RunAbove, colour));
  cell.interrupt->setIcon(toolIcon(ToolIcon::Interrupt, theme.errorText));
  cell.restart->setIcon(toolIcon(ToolIcon::Restart, colour));
  cell.clearOutputs->setIcon(toolIcon(ToolIcon::ClearOutputs, colour));
  presentationAction_->setIcon(toolIcon(ToolIcon::Presentation, colour));
}

bool MainWindow::presentationMode() const { return presentationAction_ && presentationAction_->isChecked(); }

void MainWindow::editPreferences() {
  PreferencesDialog dialog(preferences_, this);
  connect(&dialog, &PreferencesDialog::applied, this, [this](const Preferences& p) {
    p.save();
    applyPreferences(p);
  });
  dialog.exec();
}

void MainWindow::showKeyboardHelp() {
  QMessageBox::information(
      this, tr("Keyboard shortcuts"),
      tr("<p>Like Jupyter, tilescope has two modes. <b>Command mode</b> (blue bar): keys act on cells. "
         "<b>Edit mode</b> (green bar): keys type into the cell.</p>"
         "<table cellpadding='3'>"
         "<tr><td><b>Enter</b></td><td>edit the selected cell</td></tr>"
         "<tr><td><b>Esc</b></td><td>back to command mode</td></tr>"
         "<tr><td><b>Shift+Enter</b></td><td>run, select the next cell</td></tr>"
         "<tr><td><b>Ctrl+Enter</b></td><td>run, stay</td></tr>"
         "<tr><td><b>Alt+Enter</b></td><td>run, insert a cell below</td></tr>"
         "<tr><td><b>A / B</b></td><td>insert a cell above / below</td></tr>"
         "<tr><td><b>D, D</b></td><td>delete the cell</td></tr>"
         "<tr><td><b>Z</b></td><td>undo the deletion</td></tr>"
         "<tr><td><b>M / Y</b></td><td>make it markdown / code</td></tr>"
         "<tr><td><b>K, Up / J, Down</b></td><td>select the previous / next cell</td></tr>"
         "<tr><td><b>I, I</b></td><td>interrupt</td></tr>"
         "<tr><td><b>0, 0</b></td><td>restart the worker</td></tr>"
         "<tr><td><b>Ctrl+S</b></td><td>save</td></tr>"
         "<tr><td><b>F5</b></td><td>presentation mode</td></tr>"
         "<tr><td><b>Ctrl+Shift+P</b></td><td>inspector at presentation scale</td></tr></table>"));
}

void MainWindow::startDeviceProbe() {
  // Loading libcuda and calling cuInit can take a second: never on the UI thread.
  connect(&probe_, &QFutureWatcher<DeviceStatus>::finished, this, [this] { showDeviceStatus(probe_.result()); });
  probe_.setFuture(QtConcurrent::run(&CoreFacade::probeDevices));
}

void MainWindow::showDeviceStatus(const DeviceStatus& status) {
  localDevice_ = status;
  probeFinished_ = true;
  // Cells running on another machine: its own report (remoteDeviceReported) is what counts.
  if (const auto* worker = qobject_cast<WorkerProcessClient*>(client_); worker && worker->runOn().isRemote()) {
    emit deviceProbeDone();
    return;
  }
  // A notebook host waiting for approval keeps its line; cells would run here meanwhile.
  if (!showingUnapprovedHost_) {
    deviceLabel_->setText(status.statusLine);
    deviceLabel_->setToolTip(status.details);
  }
  backendSelector_->setGpuAvailability(status.gpuAvailable, status.statusLine);
  probeFinished_ = true;
  emit deviceProbeDone();
}

QString MainWindow::deviceStatusText() const { return deviceLabel_->text(); }

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!fileController_->confirmDiscardOrSave()) {
    event->ignore();
    return;
  }
  event->accept();
}

}  // namespace tilescope::ui
