#include "ui/RecoveryStore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>
#include <algorithm>

namespace tilescope::ui {
namespace {
const QString kLockFile = QStringLiteral("owner.lock");
const QString kNotebookFile = QStringLiteral("notebook.ipynb");
const QString kInfoFile = QStringLiteral("info.json");

// Recovery copies hold the user's unsaved work: readable by the user alone, whatever the umask.
constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions kOwnerOnlyFolder = kOwnerOnly | QFileDevice::ExeOwner;

bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  QSaveFile file(path);
  // Set on the temporary file before anything is written into it; the rename keeps it.
  if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(kOwnerOnly) || file.write(bytes) != bytes.size() ||
      !file.commit()) {
    *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}
}  // namespace

QString RecoveryStore::Entry::notebookPath() const { return directory + '/' + kNotebookFile; }

RecoveryStore::RecoveryStore(QString root) : root_(std::move(root)) {}

RecoveryStore::~RecoveryStore() {
  std::lock_guard guard(mutex_);
  if (sessionDir_.isEmpty()) return;
  lock_.reset();  // unlocks and removes the lock file
  QDir(sessionDir_).removeRecursively();
}

QString RecoveryStore::defaultRoot() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

bool RecoveryStore::ensureSessionLocked(QString* error) {
  if (!sessionDir_.isEmpty()) return true;
  const QString dir = root_ + '/' + QUuid::createUuid().toString(QUuid::WithoutBraces);
  // The root is ours alone too (older versions made it 0755): nobody else may even list the copies.
  if (!QDir().mkpath(root_) || !QFile::setPermissions(root_, kOwnerOnlyFolder) ||
      !QDir().mkdir(dir, kOwnerOnlyFolder)) {
    *error = QStringLiteral("cannot create %1").arg(dir);
    return false;
  }
  auto lock = std::make_unique<QLockFile>(dir + '/' + kLockFile);
  lock->setStaleLockTime(0);  // ours for as long as we run, however long that is
  if (!lock->tryLock(0)) {
    *error = QStringLiteral("cannot lock %1").arg(dir);
    return false;
  }
  sessionDir_ = dir;
  lock_ = std::move(lock);
  return true;
}

QString RecoveryStore::write(const QByteArray& notebookJson, const QString& originalPath, quint64 revision) {
  std::lock_guard guard(mutex_);
  if (revision <= discardedUpTo_) return {};
  QString error;
  if (!ensureSessionLocked(&error)) return error;
  const QJsonObject info{{"originalPath", originalPath},
                         {"savedAt", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
  // The notebook first: an info file never points at a copy that is not there yet.
  if (!writeAtomically(sessionDir_ + '/' + kNotebookFile, notebookJson, &error)) return error;
  if (!writeAtomically(sessionDir_ + '/' + kInfoFile, QJsonDocument(info).toJson(), &error)) return error;
  return {};
}

void RecoveryStore::discardOwn(quint64 revision) {
  std::lock_guard guard(mutex_);
  discardedUpTo_ = std::max(discardedUpTo_, revision);
  if (sessionDir_.isEmpty()) return;
  QFile::remove(sessionDir_ + '/' + kNotebookFile);
  QFile::remove(sessionDir_ + '/' + kInfoFile);
}

bool RecoveryStore::hasOwnCopy() const {
  std::lock_guard guard(mutex_);
  return !sessionDir_.isEmpty() && QFile::exists(sessionDir_ + '/' + kNotebookFile);
}

QList<RecoveryStore::Entry> RecoveryStore::orphans() const {
  QString own;
  {
    std::lock_guard guard(mutex_);
    own = sessionDir_;
  }
  QList<Entry> found;
  const QDir root(root_);
  for (const QFileInfo& sub : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    const QString dir = sub.absoluteFilePath();
    if (dir == QFileInfo(own).absoluteFilePath()) continue;
    // A lock we can take is one no running tilescope holds: its owner is gone (QLockFile checks the
    // pid and the program name). Stale time 0: a long-running session's lock is never stolen.
    QLockFile probe(dir + '/' + kLockFile);
    probe.setStaleLockTime(0);
    if (!probe.tryLock(0)) continue;
    probe.unlock();
    if (!QFile::exists(dir + '/' + kNotebookFile)) {
      QDir(dir).removeRecursively();  // a session that never had unsaved work
      continue;
    }
    QFile infoFile(dir + '/' + kInfoFile);
    QJsonObject info;
    if (infoFile.open(QIODevice::ReadOnly)) info = QJsonDocument::fromJson(infoFile.readAll()).object();
    Entry entry{dir, info.value("originalPath").toString(),
                QDateTime::fromString(info.value("savedAt").toString(), Qt::ISODateWithMs)};
    if (!entry.savedAt.isValid()) entry.savedAt = QFileInfo(entry.notebookPath()).lastModified();
    found << entry;
  }
  std::sort(found.begin(), found.end(), [](const Entry& a, const Entry& b) { return a.savedAt > b.savedAt; });
  return found;
}

void RecoveryStore::discard(const Entry& entry) { QDir(entry.directory).removeRecursively(); }

void RecoveryStore::simulateCrashForTesting() {
  std::lock_guard guard(mutex_);
  lock_.reset();
  sessionDir_.clear();
}

}  // namespace tilescope::ui
