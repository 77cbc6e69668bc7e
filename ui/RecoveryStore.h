#pragma once
// Recovery copies of unsaved notebooks, so a crash never loses more than one autosave interval.
// Each running tilescope keeps its copy in its own folder under the app's data folder, guarded by a
// lock file; a folder whose lock no living tilescope holds was left by a crash and is offered for
// recovery on the next start. A clean exit removes the session's folder.
#include <QDateTime>
#include <QList>
#include <QString>
#include <memory>
#include <mutex>

class QLockFile;

namespace tilescope::ui {

class RecoveryStore {
public:
  struct Entry {
    QString directory;
    QString originalPath;  // empty for a notebook never saved
    QDateTime savedAt;
    QString notebookPath() const;
  };

  explicit RecoveryStore(QString root = defaultRoot());
  ~RecoveryStore();
  RecoveryStore(const RecoveryStore&) = delete;
  RecoveryStore& operator=(const RecoveryStore&) = delete;

  static QString defaultRoot();  // <AppDataLocation>/recovery

  // Replaces this session's copy atomically; safe to call from a worker thread. revision orders
  // writes against discardOwn(): a copy older than the last discard is not written. Error or "".
  QString write(const QByteArray& notebookJson, const QString& originalPath, quint64 revision);
  // Everything is saved: this session has nothing to recover any more.
  void discardOwn(quint64 revision);
  bool hasOwnCopy() const;

  // Copies left by sessions that are no longer running, newest first.
  QList<Entry> orphans() const;
  static void discard(const Entry& entry);

  // What a crash leaves behind: the files stay, the lock is let go and this object forgets them.
  void simulateCrashForTesting();

private:
  bool ensureSessionLocked(QString* error);

  QString root_;
  QString sessionDir_;
  std::unique_ptr<QLockFile> lock_;
  quint64 discardedUpTo_ = 0;
  mutable std::mutex mutex_;
};

}  // namespace tilescope::ui
