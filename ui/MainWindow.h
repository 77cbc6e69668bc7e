#pragma once
#include <QFutureWatcher>
#include <QMainWindow>

#include "core/notebook/Notebook.h"
#include "ui/CoreFacade.h"

class QLabel;

namespace tilescope::ui {

class NotebookView;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a notebook; on failure shows the error (and returns it) and keeps the current notebook.
  QString openNotebook(const QString& path);
  const QString& currentPath() const { return path_; }
  NotebookView* notebookView() const { return view_; }
  QString deviceStatusText() const;
  bool deviceProbeFinished() const { return probeFinished_; }

signals:
  void deviceProbeDone();

private:
  void buildMenus();
  void startDeviceProbe();
  void showDeviceStatus(const DeviceStatus& status);
  void openWithDialog();

  NotebookView* view_;
  QLabel* deviceLabel_;
  QFutureWatcher<DeviceStatus> probe_;
  bool probeFinished_ = false;
  notebook::Notebook notebook_;
  QString path_;
};

}  // namespace tilescope::ui
