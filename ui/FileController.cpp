#include "ui/FileController.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/CoreFacade.h"
#include "ui/NotebookModel.h"

namespace tilescope::ui {
namespace {
constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "files/recent";

notebook::Notebook emptyNotebook() {
  notebook::Notebook nb;
  nb.metadata = {{"kernelspec", {{"display_name", "tilescope"}, {"language", "python"}, {"name", "tilescope"}}},
                 {"language_info", {{"name", "python"}}}};
  nb.appendCell(notebook::CellType::Code, "");
  return nb;
}
}  // namespace

FileController::FileController(NotebookModel* model, QWidget* dialogParent, std::unique_ptr<RecoveryStore> recovery,
                               QObject* parent)
    : QObject(parent),
      model_(model),
      dialogParent_(dialogParent),
      recovery_(recovery ? std::move(recovery) : std::make_unique<RecoveryStore>()) {
  askAboutUnsavedChanges = [this](const QString& name) {
    QMessageBox question(QMessageBox::Warning, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them first?").arg(name),
                         QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, dialogParent_);
    question.setTextFormat(Qt::PlainText);  // the name is a file name, never HTML
    question.setDefaultButton(QMessageBox::Save);
    const auto answer = question.exec();
    return answer == QMessageBox::Save      ? UnsavedChoice::Save
           : answer == QMessageBox::Discard ? UnsavedChoice::Discard
                                            : UnsavedChoice::Cancel;
  };
  askForSavePath = [this](const QString& suggested) {
    return QFileDialog::getSaveFileName(dialogParent_, tr("Save notebook"), suggested, tr("Notebooks (*.ipynb)"));
  };

  new_ = new QAction(tr("&New Notebook"), this);
  new_->setShortcut(QKeySequence::New);
  open_ = new QAction(tr("&Open..."), this);
  open_->setShortcut(QKeySequence::Open);
  save_ = new QAction(tr("&Save"), this);
  save_->setShortcut(QKeySequence::Save);
  saveAs_ = new QAction(tr("Save &As..."), this);
  saveAs_->setShortcut(QKeySequence::SaveAs);
  connect(new_, &QAction::triggered, this, &FileController::newNotebook);
  connect(open_, &QAction::triggered, this, &FileController::openWithDialog);
  connect(save_, &QAction::triggered, this, &FileController::save);
  connect(saveAs_, &QAction::triggered, this, &FileController::saveAsWithDialog);

  connect(&autosaveTimer_, &QTimer::timeout, this, &FileController::autosaveNow);
  connect(&autosave_, &QFutureWatcher<QString>::finished, this, [this] {
    if (const QString error = autosave_.result(); !error.isEmpty())
      emit statusMessage(tr("Could not write the recovery copy: %1").arg(error));
  });
  setAutosaveInterval(30);
  model_->reset(emptyNotebook());
  setPath({});
}

FileController::~FileController() { waitForAutosave(); }

void FileController::setPath(const QString& path, const QString& suggestedPath) {
  path_ = path;
  suggestedPath_ = suggestedPath;
  emit pathChanged(path_);
}

QString FileController::displayName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  if (!suggestedPath_.isEmpty()) return QFileInfo(suggestedPath_).fileName();
  return tr("Untitled.ipynb");
}

QString FileController::directory() const {
  const QString reference = path_.isEmpty() ? suggestedPath_ : path_;
  return reference.isEmpty() ? QDir::currentPath() : QFileInfo(reference).absolutePath();
}

QString FileController::open(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  CoreFacade::Loaded loaded = CoreFacade::loadNotebook(absolute);
  if (!loaded.notebook) {
    if (!QFileInfo::exists(absolute)) removeRecent(absolute);
    emit fileError(loaded.error);
    return loaded.error;
  }
  model_->reset(std::move(*loaded.notebook));
  recovery_->discardOwn(model_->revision());
  autosavedRevision_ = model_->revision();
  if (absolute.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive)) {
    setPath(absolute);
  } else {
    // A script opened as a notebook: Save writes a new .ipynb beside it, never JSON over the script.
    const QFileInfo info(absolute);
    setPath({}, info.absolutePath() + '/' + info.completeBaseName() + QStringLiteral(".ipynb"));
  }
  addRecent(absolute);
  if (loaded.duplicateIdsReplaced > 0)
    emit statusMessage(tr("Opened %1. %n cell(s) had the id of an earlier cell (a hand-edited file?) and got a fresh "
                          "one; saving keeps the fresh ids.", nullptr, loaded.duplicateIdsReplaced)
                           .arg(absolute));
  else
    emit statusMessage(tr("Opened %1").arg(absolute));
  return {};
}

void FileController::newNotebook() {
  if (!confirmDiscardOrSave()) return;
  model_->reset(emptyNotebook());
  recovery_->discardOwn(model_->revision());
  setPath({});
}

bool FileController::save() { return path_.isEmpty() ? saveAsWithDialog() : saveAs(path_); }

bool FileController::saveAs(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (const QString error = CoreFacade::saveNotebook(model_->notebook(), absolute); !error.isEmpty()) {
    emit fileError(error);
    return false;
  }
  model_->setClean();
  recovery_->discardOwn(model_->revision());
  autosavedRevision_ = model_->revision();
  setPath(absolute);
  addRecent(absolute);
  emit statusMessage(tr("Saved %1").arg(absolute));
  return true;
}

bool FileController::saveAsWithDialog() {
  const QString suggested = !path_.isEmpty()           ? path_
                            : !suggestedPath_.isEmpty() ? suggestedPath_
                                                        : QDir::homePath() + QStringLiteral("/Untitled.ipynb");
  QString path = askForSavePath(suggested);
  if (path.isEmpty()) return false;
  if (!path.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive)) path += QStringLiteral(".ipynb");
  return saveAs(path);
}

void FileController::openWithDialog() {
  if (!confirmDiscardOrSave()) return;
  const QString path = QFileDialog::getOpenFileName(dialogParent_, tr("Open notebook"), directory(),
                                                    tr("Notebooks and Python files (*.ipynb *.py);;All files (*)"));
  if (!path.isEmpty()) open(path);
}

bool FileController::confirmDiscardOrSave() {
  if (!model_->isDirty()) return true;
  switch (askAboutUnsavedChanges(displayName())) {
    case UnsavedChoice::Save: return save();
    case UnsavedChoice::Discard: return true;
    case UnsavedChoice::Cancel: return false;
  }
  return false;
}

QStringList FileController::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

void FileController::addRecent(const QString& path) {
  QStringList recent = recentFiles();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecentFiles) recent.removeLast();
  QSettings().setValue(kRecentKey, recent);
  emit recentFilesChanged();
}

void FileController::removeRecent(const QString& path) {
  QStringList recent = recentFiles();
  if (recent.removeAll(path) == 0) return;
  QSettings().setValue(kRecentKey, recent);
  emit recentFilesChanged();
}

void FileController::fillRecentMenu(QMenu* menu) {
  menu->clear();
  const QStringList recent = recentFiles();
  if (recent.isEmpty()) {
    menu->addAction(tr("No recent files"))->setEnabled(false);
    return;
  }
  int number = 1;
  for (const QString& path : recent) {
    const QFileInfo info(path);
    QAction* action = menu->addAction(QStringLiteral("&%1  %2  (%3)").arg(number++).arg(info.fileName(), info.absolutePath()));
    connect(action, &QAction::triggered, this, [this, path] {
      if (confirmDiscardOrSave()) open(path);
    });
  }
  menu->addSeparator();
  connect(menu->addAction(tr("Clear Recent Files")), &QAction::triggered, this, [this] {
    QSettings().remove(kRecentKey);
    emit recentFilesChanged();
  });
}

void FileController::setAutosaveInterval(int seconds) { autosaveTimer_.start(std::max(1, seconds) * 1000); }

void FileController::autosaveNow() {
  if (!model_->isDirty() || model_->revision() == autosavedRevision_ || autosave_.isRunning()) return;
  // Serialised here (fast, and the model is only touched on this thread); written on a pool thread
  // because the write is fsync'ed and a slow disk must not stall typing.
  const QByteArray bytes = CoreFacade::serializeNotebook(model_->notebook());
  const quint64 revision = model_->revision();
  autosavedRevision_ = revision;
  autosave_.setFuture(QtConcurrent::run([store = recovery_.get(), bytes, origin = path_, revision] {
    return store->write(bytes, origin, revision);
  }));
}

void FileController::waitForAutosave() { autosave_.waitForFinished(); }

QString FileController::recover(const RecoveryStore::Entry& entry) {
  CoreFacade::Loaded loaded = CoreFacade::loadNotebook(entry.notebookPath());
  if (!loaded.notebook) {
    emit fileError(tr("The recovery copy cannot be read: %1").arg(loaded.error));
    return loaded.error;
  }
  model_->reset(std::move(*loaded.notebook), /*markDirty=*/true);
  setPath(entry.originalPath);
  RecoveryStore::discard(entry);
  // The old session's copy is gone: protect the recovered work with this session's copy at once.
  autosavedRevision_ = 0;
  autosaveNow();
  emit statusMessage(tr("Recovered unsaved work from %1; save it to keep it").arg(entry.savedAt.toLocalTime().toString()));
  return {};
}

void FileController::discardRecovery(const RecoveryStore::Entry& entry) { RecoveryStore::discard(entry); }

}  // namespace tilescope::ui
