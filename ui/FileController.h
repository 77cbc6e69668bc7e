#pragma once
// Files of the open notebook: open (.ipynb, or .py as a one-cell notebook), save (atomic, in core),
// save as, new, recent files, the unsaved-changes question, autosave of a recovery copy and the
// offer to recover after a crash. Errors never throw or crash: they come out as fileError(message)
// and leave both the file and the open notebook untouched.
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>

#include "ui/RecoveryStore.h"

class QAction;
class QMenu;
class QWidget;

namespace tilescope::ui {

class NotebookModel;

class FileController : public QObject {
  Q_OBJECT
public:
  enum class UnsavedChoice { Save, Discard, Cancel };

  // recovery: where recovery copies go (tests pass their own folder).
  FileController(NotebookModel* model, QWidget* dialogParent, std::unique_ptr<RecoveryStore> recovery = nullptr,
                 QObject* parent = nullptr);
  ~FileController() override;

  QString open(const QString& path);  // error message, or "" when opened
  void newNotebook();
  bool save();  // asks for a path when the notebook has none
  bool saveAs(const QString& path);
  bool saveAsWithDialog();
  void openWithDialog();
  // Before closing or replacing a notebook with unsaved changes: false when the user cancelled.
  bool confirmDiscardOrSave();

  QString currentPath() const { return path_; }  // empty: never saved (new, or opened from .py)
  QString displayName() const;
  QString directory() const;  // where relative image links in markdown point

  QStringList recentFiles() const;
  void fillRecentMenu(QMenu* menu);

  void setAutosaveInterval(int seconds);
  void autosaveNow();        // writes the recovery copy now if anything changed (tests, quit)
  void waitForAutosave();    // blocks until a recovery write in flight has finished
  RecoveryStore& recoveryStore() { return *recovery_; }
  QList<RecoveryStore::Entry> pendingRecoveries() const { return recovery_->orphans(); }
  QString recover(const RecoveryStore::Entry& entry);  // opens the copy as unsaved work; error or ""
  void discardRecovery(const RecoveryStore::Entry& entry);

  // Replaceable so tests (and --screenshot runs) never block in a modal dialog.
  std::function<UnsavedChoice(const QString& notebookName)> askAboutUnsavedChanges;
  std::function<QString(const QString& suggestedPath)> askForSavePath;

  QAction* newAction() const { return new_; }
  QAction* openAction() const { return open_; }
  QAction* saveAction() const { return save_; }
  QAction* saveAsAction() const { return saveAs_; }

signals:
  void pathChanged(const QString& path);
  void fileError(const QString& message);
  void statusMessage(const QString& message);
  void recentFilesChanged();

private:
  void setPath(const QString& path, const QString& suggestedName = {});
  void addRecent(const QString& path);
  void removeRecent(const QString& path);

  NotebookModel* model_;
  QWidget* dialogParent_;
  std::unique_ptr<RecoveryStore> recovery_;
  QString path_;
  QString suggestedPath_;  // for Save of a notebook without a path (e.g. opened from script.py)
  QTimer autosaveTimer_;
  QFutureWatcher<QString> autosave_;
  quint64 autosavedRevision_ = 0;
  QAction *new_, *open_, *save_, *saveAs_;
};

}  // namespace tilescope::ui
