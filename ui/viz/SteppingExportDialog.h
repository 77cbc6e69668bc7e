#pragma once
// "Export stepping..." of the inspector: writes the stepping for slides, one frame per program (in
// the inspector's stepping order, pid filter applied) or per memory operation of the selected
// program, in the tiles or grid view, as an animated GIF or a PNG sequence in a folder. The frames
// are drawn on a pool thread (TraceDocument::exportStepping) while a progress bar advances; Cancel
// stops it and leaves nothing behind.
#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <memory>

#include "ui/viz/TraceDocument.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace tilescope::ui {

class SteppingExportDialog : public QDialog {
  Q_OBJECT
public:
  // `defaults`: the inspector's stepping (its programs, selected program and memory operation, colouring).
  SteppingExportDialog(std::shared_ptr<const TraceDocument> document, const TraceDocument::SteppingExport& defaults,
                       QWidget* parent = nullptr);
  ~SteppingExportDialog() override;

  void setTarget(const QString& target);
  QString target() const;
  // Starts the export (what the Export button does); false, with the reason shown, when the
  // choices cannot be exported.
  bool start();
  void cancel();
  bool running() const;
  TraceDocument::SteppingExport request() const;  // the choices made

  QComboBox* unitBox() const { return unit_; }
  QComboBox* viewBox() const { return view_; }
  QComboBox* formatBox() const { return format_; }
  QProgressBar* progressBar() const { return progress_; }
  QPushButton* exportButton() const { return export_; }
  QPushButton* cancelButton() const { return cancel_; }
  QLabel* statusLabel() const { return status_; }

signals:
  // After each export: "" when written, else what went wrong or "cancelled"; `message` says it in words.
  void finished(const QString& error, const QString& message);

private:
  void updateChoices();
  void browse();
  void done();

  std::shared_ptr<const TraceDocument> document_;
  TraceDocument::SteppingExport defaults_;
  QComboBox* unit_;
  QComboBox* view_;
  QComboBox* format_;
  QDoubleSpinBox* fps_;
  QDoubleSpinBox* scale_;
  QLineEdit* target_;
  QProgressBar* progress_;
  QLabel* status_;
  QPushButton* export_;
  QPushButton* cancel_;
  QTimer* poll_;
  QFutureWatcher<QString> watcher_;
  // Shared with the pool thread: progress made and the cancel request.
  struct Shared {
    std::atomic<qint64> done{0}, total{0}, frames{0};
    std::atomic<bool> cancel{false};
  };
  std::shared_ptr<Shared> shared_;
};

}  // namespace tilescope::ui
