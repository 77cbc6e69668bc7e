#include "ui/viz/SteppingExportDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::ui {

namespace {

QString pidText(const ProgramId& pid) { return QStringLiteral("(%1, %2, %3)").arg(pid[0]).arg(pid[1]).arg(pid[2]); }

}  // namespace

SteppingExportDialog::SteppingExportDialog(std::shared_ptr<const TraceDocument> document, const TraceDocument::SteppingExport& defaults,
                                           QWidget* parent)
    : QDialog(parent), document_(std::move(document)), defaults_(defaults), shared_(std::make_shared<Shared>()) {
  setObjectName(QStringLiteral("steppingExportDialog"));
  setWindowTitle(tr("Export Stepping"));
  auto* column = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  column->addLayout(form);

  const qint64 programs = static_cast<qint64>(defaults_.programs.empty() ? document_->tracedPrograms().size() : defaults_.programs.size());
  unit_ = new QComboBox;
  unit_->setObjectName(QStringLiteral("exportUnit"));
  unit_->addItem(programs == 1 ? tr("Every program in stepping order (1 frame)")
                                : tr("Every program in stepping order (%1 frames)").arg(programs));
  unit_->addItem(tr("Memory operations of program %1").arg(pidText(defaults_.program)));
  form->addRow(tr("Step through:"), unit_);
  view_ = new QComboBox;
  view_->setObjectName(QStringLiteral("exportView"));
  view_->addItem(tr("Tiles (offsets, mask, values)"));
  view_->addItem(tr("Program grid"));
  view_->setCurrentIndex(defaults_.gridView ? 1 : 0);
  form->addRow(tr("View:"), view_);
  format_ = new QComboBox;
  format_->setObjectName(QStringLiteral("exportFormat"));
  format_->addItem(tr("Animated GIF"));
  format_->addItem(tr("PNG sequence (frame-0001.png, ... in a new folder)"));
  if (!TraceDocument::gifExportAvailable()) {
    format_->setItemData(0, false, Qt::UserRole - 1);  // disabled: this build has no giflib
    format_->setItemData(0, tr("This build has no GIF support (install libgif-dev and rebuild)"), Qt::ToolTipRole);
    format_->setCurrentIndex(1);
  }
  form->addRow(tr("Format:"), format_);
  fps_ = new QDoubleSpinBox;
  fps_->setObjectName(QStringLiteral("exportFps"));
  fps_->setRange(0.5, 50);
  fps_->setDecimals(1);
  fps_->setValue(defaults_.fps);
  fps_->setSuffix(tr(" frames/s"));
  form->addRow(tr("Speed:"), fps_);
  scale_ = new QDoubleSpinBox;
  scale_->setObjectName(QStringLiteral("exportScale"));
  scale_->setRange(0.5, 4);
  scale_->setSingleStep(0.5);
  scale_->setValue(defaults_.scale);
  scale_->setSuffix(QStringLiteral(" \u00d7"));
  scale_->setToolTip(tr("Pixels per unit of the view: 2 for sharp slides"));
  form->addRow(tr("Scale:"), scale_);
  auto* targetRow = new QHBoxLayout;
  target_ = new QLineEdit;
  target_->setObjectName(QStringLiteral("exportTarget"));
  auto* browse = new QToolButton;
  browse->setText(tr("Browse..."));
  targetRow->addWidget(target_, 1);
  targetRow->addWidget(browse);
  form->addRow(tr("Save to:"), targetRow);

  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("exportProgress"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  column->addWidget(progress_);
  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("exportStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  column->addWidget(status_);
  auto* buttons = new QDialogButtonBox;
  export_ = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  export_->setObjectName(QStringLiteral("startExport"));
  cancel_ = buttons->addButton(tr("Cancel Export"), QDialogButtonBox::ActionRole);
  cancel_->setObjectName(QStringLiteral("cancelExport"));
  cancel_->setEnabled(false);
  QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
  column->addWidget(buttons);

  poll_ = new QTimer(this);
  poll_->setInterval(50);
  connect(poll_, &QTimer::timeout, this, [this] {
    progress_->setRange(0, static_cast<int>(std::max<qint64>(1, shared_->total.load())));
    progress_->setValue(static_cast<int>(shared_->done.load()));
  });
  connect(&watcher_, &QFutureWatcher<QString>::finished, this, &SteppingExportDialog::done);
  connect(export_, &QPushButton::clicked, this, &SteppingExportDialog::start);
  connect(cancel_, &QPushButton::clicked, this, &SteppingExportDialog::cancel);
  connect(close, &QPushButton::clicked, this, &QDialog::reject);
  connect(browse, &QToolButton::clicked, this, &SteppingExportDialog::browse);
  connect(unit_, &QComboBox::currentIndexChanged, this, &SteppingExportDialog::updateChoices);
  connect(format_, &QComboBox::currentIndexChanged, this, [this] {
    // Keep the name, switch between "name.gif" and the folder "name/".
    QString t = target_->text();
    const bool gif = format_->currentIndex() == 0;
    if (gif && !t.endsWith(QLatin1String(".gif"), Qt::CaseInsensitive)) {
      while (t.endsWith(QLatin1Char('/'))) t.chop(1);
      if (!t.isEmpty()) target_->setText(t + QStringLiteral(".gif"));
    } else if (!gif && t.endsWith(QLatin1String(".gif"), Qt::CaseInsensitive)) {
      t.chop(4);
      target_->setText(t + QLatin1Char('/'));
    }
    updateChoices();
  });
  const QString base = QDir::home().filePath(document_->kernelName() + QStringLiteral("-stepping"));
  target_->setText(format_->currentIndex() == 0 ? base + QStringLiteral(".gif") : base + QLatin1Char('/'));
  updateChoices();
}

SteppingExportDialog::~SteppingExportDialog() {
  // The pool thread reads the document and writes files: stop it before the dialog goes.
  shared_->cancel = true;
  watcher_.waitForFinished();
}

void SteppingExportDialog::updateChoices() {
  const bool ops = unit_->currentIndex() == 1;
  // Memory operations change only the tiles view.
  if (ops) view_->setCurrentIndex(0);
  view_->setEnabled(!ops && !running());
  fps_->setEnabled(format_->currentIndex() == 0 && !running());
}

void SteppingExportDialog::browse() {
  QString chosen;
  if (format_->currentIndex() == 0)
    chosen = QFileDialog::getSaveFileName(this, tr("Save Animated GIF"), target_->text(), tr("GIF images (*.gif)"));
  else
    chosen = QFileDialog::getExistingDirectory(this, tr("Folder for the PNG Frames (new or empty)"), QDir::homePath());
  if (!chosen.isEmpty()) target_->setText(chosen);
}

void SteppingExportDialog::setTarget(const QString& target) { target_->setText(target); }
QString SteppingExportDialog::target() const { return target_->text(); }
bool SteppingExportDialog::running() const { return watcher_.isRunning(); }

TraceDocument::SteppingExport SteppingExportDialog::request() const {
  TraceDocument::SteppingExport r = defaults_;
  r.byMemoryOps = unit_->currentIndex() == 1;
  r.gridView = !r.byMemoryOps && view_->currentIndex() == 1;
  r.fps = fps_->value();
  r.scale = scale_->value();
  return r;
}

bool SteppingExportDialog::start() {
  if (running()) return false;
  QString target = target_->text().trimmed();
  const bool gif = format_->currentIndex() == 0;
  if (target.isEmpty()) {
    status_->setText(tr("Choose where to save: a .gif file or a folder for the PNG frames."));
    return false;
  }
  if (gif && !target.endsWith(QLatin1String(".gif"), Qt::CaseInsensitive)) target += QStringLiteral(".gif");
  if (!gif && target.endsWith(QLatin1String(".gif"), Qt::CaseInsensitive)) {
    status_->setText(tr("A PNG sequence goes into a folder; give a folder name, not a .gif file."));
    return false;
  }
  target_->setText(target);
  shared_ = std::make_shared<Shared>();
  status_->setText(tr("Drawing frames..."));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  export_->setEnabled(false);
  cancel_->setEnabled(true);
  for (QWidget* w : {static_cast<QWidget*>(unit_), static_cast<QWidget*>(format_), static_cast<QWidget*>(scale_),
                     static_cast<QWidget*>(target_)})
    w->setEnabled(false);
  watcher_.setFuture(QtConcurrent::run([document = document_, request = request(), target, shared = shared_] {
    qint64 frames = 0;
    const QString error = document->exportStepping(request, target, [&shared](qint64 done, qint64 total) {
      shared->done = done;
      shared->total = total;
      return !shared->cancel.load();
    }, &frames);
    shared->frames = frames;
    return error;
  }));
  updateChoices();
  poll_->start();
  return true;
}

void SteppingExportDialog::cancel() {
  shared_->cancel = true;
  if (running()) status_->setText(tr("Cancelling..."));
}

void SteppingExportDialog::done() {
  poll_->stop();
  const QString error = watcher_.result();
  export_->setEnabled(true);
  cancel_->setEnabled(false);
  for (QWidget* w : {static_cast<QWidget*>(unit_), static_cast<QWidget*>(format_), static_cast<QWidget*>(scale_),
                     static_cast<QWidget*>(target_)})
    w->setEnabled(true);
  updateChoices();
  QString message;
  if (error.isEmpty()) {
    progress_->setValue(progress_->maximum());
    const qint64 frames = shared_->frames.load();
    message = (frames == 1 ? tr("Wrote 1 frame to %1") : tr("Wrote %1 frames to %2").arg(frames)).arg(target_->text());
  } else if (error == QLatin1String("cancelled")) {
    progress_->setValue(0);
    message = tr("Cancelled; nothing was written.");
  } else {
    message = tr("Not exported: %1").arg(error);
  }
  status_->setText(message);
  emit finished(error, message);
}

}  // namespace tilescope::ui
