#include "ui/MainWindow.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/NotebookView.h"

// Resources live in the static ui library, so they must be registered explicitly.
static void initTilescopeResources() { Q_INIT_RESOURCE(resources); }

namespace tilescope::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initTilescopeResources();
  setObjectName("mainWindow");
  setWindowTitle("tilescope");
  setWindowIcon(QIcon(":/icons/tilescope.svg"));
  resize(1100, 800);
  view_ = new NotebookView(this);
  setCentralWidget(view_);
  deviceLabel_ = new QLabel(tr("Probing for a CUDA device..."), this);
  deviceLabel_->setObjectName("deviceStatus");
  statusBar()->addPermanentWidget(deviceLabel_);
  buildMenus();
  startDeviceProbe();
}

MainWindow::~MainWindow() { probe_.waitForFinished(); }

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::openWithDialog);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About tilescope"), this, [this] {
    QMessageBox::about(this, tr("About tilescope"),
                       tr("tilescope %1\nWrite, run and see Triton-style GPU kernels.\n\n%2")
                           .arg(TILESCOPE_VERSION, deviceLabel_->toolTip()));
  });
}

void MainWindow::startDeviceProbe() {
  // Loading libcuda and calling cuInit can take a second: never on the UI thread.
  connect(&probe_, &QFutureWatcher<DeviceStatus>::finished, this, [this] { showDeviceStatus(probe_.result()); });
  probe_.setFuture(QtConcurrent::run(&CoreFacade::probeDevices));
}

void MainWindow::showDeviceStatus(const DeviceStatus& status) {
  deviceLabel_->setText(status.statusLine);
  deviceLabel_->setToolTip(status.details);
  probeFinished_ = true;
  emit deviceProbeDone();
}

QString MainWindow::deviceStatusText() const { return deviceLabel_->text(); }

QString MainWindow::openNotebook(const QString& path) {
  CoreFacade::Loaded loaded = CoreFacade::loadNotebook(path);
  if (!loaded.notebook) {
    statusBar()->showMessage(loaded.error, 10000);
    if (isVisible()) QMessageBox::warning(this, tr("Cannot open notebook"), loaded.error);
    return loaded.error;
  }
  notebook_ = std::move(*loaded.notebook);
  path_ = path;
  view_->setNotebook(notebook_);
  setWindowTitle(QFileInfo(path).fileName() + " - tilescope");
  return {};
}

void MainWindow::openWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open notebook"), QString(),
                                                    tr("Notebooks (*.ipynb *.py);;All files (*)"));
  if (!path.isEmpty()) openNotebook(path);
}

}  // namespace tilescope::ui
