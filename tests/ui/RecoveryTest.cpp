// Autosave of a recovery copy and recovery after a crash.
#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QSysInfo>
#include <QPushButton>
#include <QProcess>
#include <QTemporaryDir>
#include <sys/stat.h>

#include "tests/ui/UiTestSupport.h"
#include "ui/CoreFacade.h"
#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBar.h"
#include "ui/NotebookModel.h"
#include "ui/RecoveryStore.h"

using tilescope::testing::readBytes;
using tilescope::testing::RecordingClient;
using tilescope::ui::MainWindow;
using tilescope::ui::RecoveryStore;

namespace {
std::unique_ptr<MainWindow> windowWithRecoveryIn(const QString& root) {
  return std::make_unique<MainWindow>(new RecordingClient, std::make_unique<RecoveryStore>(root));
}
}  // namespace

TEST(RecoveryStore, WritesOnlyWhatIsNewerThanTheLastDiscard) {
  QTemporaryDir dir;
  RecoveryStore store(dir.path());
  EXPECT_FALSE(store.hasOwnCopy());
  EXPECT_EQ(store.write("{}", "/x/nb.ipynb", 5), "");
  EXPECT_TRUE(store.hasOwnCopy());
  store.discardOwn(7);
  EXPECT_FALSE(store.hasOwnCopy());
  EXPECT_EQ(store.write("{}", "/x/nb.ipynb", 6), "");
  EXPECT_FALSE(store.hasOwnCopy()) << "an autosave that started before the save must not come back";
}

TEST(RecoveryStore, ALiveSessionIsNotAnOrphanACrashedOneIs) {
  QTemporaryDir dir;
  auto running = std::make_unique<RecoveryStore>(dir.path());
  ASSERT_EQ(running->write("{\"cells\": []}", "/x/a.ipynb", 1), "");
  RecoveryStore nextStart(dir.path());
  EXPECT_TRUE(nextStart.orphans().isEmpty()) << "another tilescope still runs and owns it";
  running->simulateCrashForTesting();
  const auto orphans = nextStart.orphans();
  ASSERT_EQ(orphans.size(), 1);
  EXPECT_EQ(orphans[0].originalPath, "/x/a.ipynb");
  EXPECT_TRUE(orphans[0].savedAt.isValid());
  EXPECT_EQ(readBytes(orphans[0].notebookPath()), "{\"cells\": []}");
}

TEST(RecoveryStore, ALockLeftByADeadProcessCountsAsACrash) {
  QTemporaryDir dir;
  // A real dead pid: a process that has already exited.
  QProcess finished;
  finished.start("true");
  ASSERT_TRUE(finished.waitForFinished());
  const qint64 deadPid = finished.processId() > 0 ? finished.processId() : 999999;
  QDir(dir.path()).mkpath("session");
  tilescope::testing::writeBytes(dir.filePath("session/owner.lock"),
                                 QByteArray::number(deadPid) + "\ntilescope\n" + QSysInfo::machineHostName().toUtf8() + "\n");
  tilescope::testing::writeBytes(dir.filePath("session/notebook.ipynb"), "{}");
  RecoveryStore store(dir.path());
  EXPECT_EQ(store.orphans().size(), 1);
}

// Unsaved work is private: a 0600 notebook in a 0700 folder used to get world-readable copies.
TEST(RecoveryStore, CopiesAreReadableByTheUserAlone) {
  QTemporaryDir dir;
  const QString root = dir.filePath("recovery");  // made by the store, as on a first start
  const mode_t oldMask = ::umask(022);
  RecoveryStore store(root);
  const QString error = store.write("{\"cells\": []}", "/home/u/private.ipynb", 1);
  ::umask(oldMask);
  ASSERT_EQ(error, "");
  const auto modeOf = [](const QString& path) {
    struct stat info {};
    EXPECT_EQ(::stat(QFile::encodeName(path).constData(), &info), 0) << path.toStdString();
    return info.st_mode & 0777;
  };
  EXPECT_EQ(modeOf(root), 0700u);
  const QStringList sessions = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  ASSERT_EQ(sessions.size(), 1);
  const QString session = root + '/' + sessions[0];
  EXPECT_EQ(modeOf(session), 0700u);
  EXPECT_EQ(modeOf(session + "/notebook.ipynb"), 0600u);
  EXPECT_EQ(modeOf(session + "/info.json"), 0600u);
  // A root left 0755 by an older version is closed on the next write.
  QTemporaryDir olderDir;
  const QString olderRoot = olderDir.filePath("recovery");
  ASSERT_TRUE(QDir().mkpath(olderRoot));
  ASSERT_TRUE(QFile::setPermissions(olderRoot, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                   QFileDevice::ReadOther | QFileDevice::ExeOther));
  RecoveryStore older(olderRoot);
  ASSERT_EQ(older.write("{}", "", 1), "");
  EXPECT_EQ(modeOf(olderRoot), 0700u);
}

TEST(RecoveryStore, ACleanExitLeavesNothingBehind) {
  QTemporaryDir dir;
  {
    RecoveryStore store(dir.path());
    ASSERT_EQ(store.write("{}", "", 1), "");
  }
  EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
}

TEST(Recovery, AutosaveThenCrashThenRecoverOnTheNextStart) {
  QTemporaryDir dir;
  const QString saved = dir.filePath("work.ipynb");
  const QString root = dir.filePath("recovery");
  QByteArray expected;
  {
    auto first = windowWithRecoveryIn(root);
    ASSERT_TRUE(first->fileController()->saveAs(saved));
    first->model()->setSource(0, "unsaved = 'precious'");
    first->fileController()->autosaveNow();
    first->fileController()->waitForAutosave();
    EXPECT_TRUE(first->fileController()->recoveryStore().hasOwnCopy());
    expected = tilescope::ui::CoreFacade::serializeNotebook(first->model()->notebook());
    first->fileController()->recoveryStore().simulateCrashForTesting();
    first->fileController()->askAboutUnsavedChanges = [](const QString&) {
      return tilescope::ui::FileController::UnsavedChoice::Discard;
    };
  }
  EXPECT_FALSE(readBytes(saved).contains("precious")) << "the real file was never touched by autosave";

  auto second = windowWithRecoveryIn(root);
  ASSERT_TRUE(second->offerRecovery());
  auto* notice = second->noticeBar();
  EXPECT_TRUE(notice->isShowing());
  EXPECT_TRUE(notice->text().contains("work.ipynb")) << notice->text().toStdString();
  ASSERT_EQ(notice->buttons().size(), 2);
  notice->buttons()[0]->click();  // Recover
  EXPECT_EQ(second->model()->source(0), "unsaved = 'precious'");
  EXPECT_TRUE(second->model()->isDirty()) << "recovered work still has to be saved";
  EXPECT_EQ(second->fileController()->currentPath(), QFileInfo(saved).absoluteFilePath());
  EXPECT_EQ(tilescope::ui::CoreFacade::serializeNotebook(second->model()->notebook()), expected);
  second->fileController()->waitForAutosave();
  EXPECT_TRUE(second->fileController()->recoveryStore().hasOwnCopy()) << "the recovered work is protected at once";
  EXPECT_TRUE(second->fileController()->pendingRecoveries().isEmpty()) << "the old copy was taken over";
  ASSERT_TRUE(second->fileController()->save());
  EXPECT_TRUE(readBytes(saved).contains("precious"));
  EXPECT_FALSE(second->fileController()->recoveryStore().hasOwnCopy());
}

TEST(Recovery, DiscardRemovesTheCopy) {
  QTemporaryDir dir;
  const QString root = dir.filePath("recovery");
  {
    RecoveryStore crashed(root);
    ASSERT_EQ(crashed.write("{\"cells\": [], \"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": {}}", "", 1), "");
    crashed.simulateCrashForTesting();
  }
  auto window = windowWithRecoveryIn(root);
  ASSERT_TRUE(window->offerRecovery());
  window->noticeBar()->buttons()[1]->click();  // Discard
  EXPECT_TRUE(window->fileController()->pendingRecoveries().isEmpty());
  EXPECT_FALSE(window->offerRecovery());
}

TEST(Recovery, AutosaveSkipsUnchangedNotebooks) {
  QTemporaryDir dir;
  auto window = windowWithRecoveryIn(dir.filePath("recovery"));
  window->fileController()->autosaveNow();
  window->fileController()->waitForAutosave();
  EXPECT_FALSE(window->fileController()->recoveryStore().hasOwnCopy()) << "nothing unsaved, nothing written";
}
