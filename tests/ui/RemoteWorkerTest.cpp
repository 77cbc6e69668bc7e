// Cells running on another machine's worker over SSH, through a real OpenSSH server on 127.0.0.1
// (core/testing/LocalSshServer): everything a local worker does (runs, Run all, interrupt, restart,
// crashes, traces for the inspector) and every connection failure as a sentence that says what to do.
// The Run On setting through the window: notebook metadata, the dialog, the status bar. Skipped, with
// the reason, where sshd cannot start.
#include <gtest/gtest.h>
#include <signal.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>
#include <fstream>
#include <sstream>

#include "core/base/FrameCodec.h"
#include "core/gpu/runtime/ProgramTiming.h"
#include "core/sim/TraceReader.h"
#include "core/testing/LocalSshServer.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/BackendSelector.h"
#include "ui/CodeCellWidget.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBar.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RecoveryStore.h"
#include "ui/Preferences.h"
#include "ui/RunOnApprovalDialog.h"
#include "ui/RunOnDialog.h"
#include "ui/WorkerProcessClient.h"

using tilescope::testing::LocalSshServer;
using tilescope::testing::waitUntil;
using tilescope::ui::Backend;
using tilescope::ui::CellRunStatus;
using tilescope::ui::RunOnTarget;
using tilescope::ui::WorkerProcessClient;

namespace {

struct Seen {
  explicit Seen(WorkerProcessClient& client) {
    QObject::connect(&client, &WorkerProcessClient::streamOutput, &context,
                     [this](const QString& id, const QString&, const QString& text) { streams << id + "|" + text; });
    QObject::connect(&client, &WorkerProcessClient::executionStarted, &context, [this](const QString&, int count) { counts << count; });
    QObject::connect(&client, &WorkerProcessClient::errorOutput, &context,
                     [this](const QString&, const tilescope::ui::ExecutionError& e) { errors << e.name; });
    QObject::connect(&client, &WorkerProcessClient::cellFinished, &context,
                     [this](const QString&, CellRunStatus s) { finished << s; });
    QObject::connect(&client, &WorkerProcessClient::workerDied, &context, [this](const QString& reason) { deaths << reason; });
    QObject::connect(&client, &WorkerProcessClient::workerStarted, &context, [this](const QString& d) { started << d; });
    QObject::connect(&client, &WorkerProcessClient::kernelLaunched, &context,
                     [this](const QString&, const tilescope::ui::KernelLaunch& l) { launches << l; });
    QObject::connect(&client, &WorkerProcessClient::remoteDeviceReported, &context,
                     [this](bool, const QString& line, const QString&) { devices << line; });
  }
  // The remote worker's pid, from its hello ("... (pid 123) ...").
  pid_t remotePid() const {
    const auto match = QRegularExpression(QStringLiteral("pid (\\d+)")).match(started.value(started.size() - 1));
    return match.hasMatch() ? static_cast<pid_t>(match.captured(1).toInt()) : 0;
  }
  QObject context;
  QStringList streams, errors, deaths, started, devices;
  QList<int> counts;
  QList<CellRunStatus> finished;
  QList<tilescope::ui::KernelLaunch> launches;
};

bool processGone(pid_t pid, int timeoutMs) {
  return waitUntil([&] { return ::kill(pid, 0) != 0; }, timeoutMs);
}

class RemoteWorker : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    server = new LocalSshServer;
    if (!server->skipReason().empty()) return;
    testDouble = server->writeScript("test-double-cli", std::string("TILESCOPE_WORKER_TEST_EXECUTOR=1 exec ") + TILESCOPE_CLI_PATH + " \"$@\"");
  }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    if (!server->skipReason().empty()) GTEST_SKIP() << "no local SSH server: " << server->skipReason();
    qputenv("TILESCOPE_SSH", QByteArray::fromStdString(server->sshWrapper()));
  }
  void TearDown() override { qunsetenv("TILESCOPE_SSH"); }

  static RunOnTarget target(const std::string& command, const QString& host = QString::fromLatin1(LocalSshServer::kHost)) {
    RunOnTarget t;
    t.host = host;
    t.remoteCommand = QString::fromStdString(command);
    return t;
  }
  static LocalSshServer* server;
  static std::string testDouble;  // the worker with its test executor (print / loop forever / hang / crash)
};
LocalSshServer* RemoteWorker::server = nullptr;
std::string RemoteWorker::testDouble;

bool waitForIdle(WorkerProcessClient& client, int timeoutMs = 15000) {
  return waitUntil([&] { return client.state() == WorkerProcessClient::State::Idle && !client.isBusy(); }, timeoutMs);
}

}  // namespace

TEST_F(RemoteWorker, CellsAndRunAllRunOnTheHostWhichReportsItsDevice) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(testDouble));
  Seen seen(client);
  client.runCell("a", "print one", Backend::Auto);
  client.runCell("b", "print two", Backend::Auto);
  client.runCell("c", "unknown command", Backend::Auto);
  client.runCell("d", "print never", Backend::Auto);  // Run all stops at the first error
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 4; }, 20000));
  EXPECT_EQ(seen.streams, (QStringList{"a|one\n", "b|two\n"}));
  EXPECT_EQ(seen.counts, (QList<int>{1, 2, 3}));
  EXPECT_EQ(seen.finished, (QList<CellRunStatus>{CellRunStatus::Ok, CellRunStatus::Ok, CellRunStatus::Error, CellRunStatus::Aborted}));
  ASSERT_EQ(seen.started.size(), 1);
  EXPECT_TRUE(seen.started[0].contains("on tilescope-test")) << seen.started[0].toStdString();
  ASSERT_TRUE(waitUntil([&] { return !seen.devices.isEmpty(); }, 30000)) << "device_request is answered";
  EXPECT_FALSE(seen.devices[0].isEmpty());
  EXPECT_NE(client.workerPid(), seen.remotePid()) << "the local process is ssh, the worker runs behind it";
}

// The 2 s target itself is a benchmark's (tilescope_bench_remote_worker, docs/PERFORMANCE.md); here a
// hang guard, and the time seen as the XML property interrupt_ms, as the local interrupt tests do.
TEST_F(RemoteWorker, InterruptStopsAWhileTrueCellThroughTheProtocol) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(TILESCOPE_CLI_PATH));  // the real executor
  client.setInterruptGracePeriod(30000);          // so only the worker's own interrupt can stop it in time
  Seen seen(client);
  client.runCell("loop", "while True:\n    pass\n", Backend::Simulator);
  ASSERT_TRUE(waitUntil([&] { return seen.counts.size() == 1; }, 20000));
  QTest::qWait(200);
  QElapsedTimer timer;
  timer.start();
  client.interrupt();
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 10000)) << "not stopped";
  RecordProperty("interrupt_ms", static_cast<int>(timer.elapsed()));
  EXPECT_EQ(seen.finished[0], CellRunStatus::Aborted);
  EXPECT_EQ(seen.errors, QStringList{"KeyboardInterrupt"});
  EXPECT_TRUE(seen.deaths.isEmpty()) << "the worker stopped the cell itself: " << seen.deaths.value(0).toStdString();
  ASSERT_TRUE(waitForIdle(client));
}

TEST_F(RemoteWorker, ACellThatIgnoresInterruptEndsWithTheConnection) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(testDouble));
  Seen seen(client);
  client.runCell("stuck", "hang", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.counts.size() == 1; }, 20000));
  const pid_t remote = seen.remotePid();
  ASSERT_GT(remote, 0);
  client.interrupt();
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 10000));
  ASSERT_EQ(seen.deaths.size(), 1);
  EXPECT_TRUE(seen.deaths[0].contains("did not stop")) << seen.deaths[0].toStdString();
  // The connection closed; the worker there sees the end of its input and exits, cell or no cell.
  EXPECT_TRUE(processGone(remote, 10000)) << "the remote worker " << remote << " still runs";
  ASSERT_TRUE(waitForIdle(client)) << "a fresh remote worker";
}

TEST_F(RemoteWorker, RestartStartsAFreshWorkerThereAndEndsTheOld) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(testDouble));
  Seen seen(client);
  client.runCell("a", "print 1", Backend::Auto);
  client.runCell("b", "print 2", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }, 20000));
  const pid_t old = seen.remotePid();
  client.restart();
  ASSERT_TRUE(waitForIdle(client));
  EXPECT_TRUE(seen.deaths.isEmpty());
  client.runCell("c", "print 3", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 3; }, 20000));
  EXPECT_EQ(seen.counts.last(), 1) << "counts start again";
  EXPECT_NE(seen.remotePid(), old);
  EXPECT_TRUE(processGone(old, 10000)) << "the old remote worker exited";
}

TEST_F(RemoteWorker, ACrashThereIsReportedAndAFreshWorkerStarts) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(testDouble));
  Seen seen(client);
  client.runCell("boom", "print before\ncrash", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.deaths.size() == 1; }, 20000));
  EXPECT_TRUE(seen.deaths[0].contains("tilescope-test")) << seen.deaths[0].toStdString();
  EXPECT_TRUE(seen.deaths[0].contains("run those cells again")) << seen.deaths[0].toStdString();
  EXPECT_EQ(seen.streams.value(0), "boom|before\n");
  ASSERT_TRUE(waitForIdle(client));
  client.runCell("after", "print alive", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }, 20000));
  EXPECT_EQ(seen.finished[1], CellRunStatus::Ok);
}

TEST_F(RemoteWorker, TracesForTheInspectorTravelOverTheConnection) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(target(TILESCOPE_CLI_PATH));
  client.setInspectLaunches(true);
  Seen seen(client);
  client.runCell("k",
                 "import torch\nimport triton\nimport triton.language as tl\n"
                 "@triton.jit\ndef fill(p):\n    tl.store(p + tl.program_id(0) * 4 + tl.arange(0, 4), 1.0)\n"
                 "x = torch.zeros(8)\nfill[(2,)](x)\nprint(x.sum().item())\n",
                 Backend::Simulator);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 30000));
  ASSERT_EQ(seen.finished[0], CellRunStatus::Ok) << seen.errors.join(", ").toStdString() << seen.streams.join("").toStdString();
  ASSERT_EQ(seen.launches.size(), 1);
  const tilescope::ui::KernelLaunch& launch = seen.launches[0];
  EXPECT_EQ(launch.kernel, "fill");
  EXPECT_EQ(launch.backend, "simulator") << "the backend chosen here is the one used there";
  EXPECT_EQ(launch.tracedPrograms, 2);
  ASSERT_FALSE(launch.trace.isEmpty());
  const auto read = tilescope::sim::TraceReader::read(std::string_view(launch.trace.constData(), static_cast<size_t>(launch.trace.size())));
  EXPECT_TRUE(read.trace.has_value()) << read.error;
}

// A GPU launch's program timing reaches the inspector the same way from a local and a remote worker.
// No GPU here: the test executor's 'fake program timing' hands its worker a made-up timing line and
// a GPU launch record, in the order a timed GPU launch does; a real GPU launch is not run.
TEST_F(RemoteWorker, ProgramTimingForTheInspectorTravelsAsFromALocalWorker) {
  qputenv("TILESCOPE_WORKER_TEST_EXECUTOR", "1");  // for the local worker; the remote one runs testDouble
  for (const bool remote : {false, true}) {
    SCOPED_TRACE(remote ? "remote" : "local");
    WorkerProcessClient client(TILESCOPE_CLI_PATH);
    if (remote) client.setRunOn(target(testDouble));
    client.setInspectLaunches(true);
    Seen seen(client);
    client.runCell("k", "fake program timing", Backend::Gpu);
    ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 30000));
    ASSERT_EQ(seen.finished[0], CellRunStatus::Ok) << seen.errors.join(", ").toStdString();
    ASSERT_EQ(seen.launches.size(), 1);
    EXPECT_EQ(seen.launches[0].backend, "gpu");
    std::istringstream line(seen.launches[0].programTiming.toStdString());
    const auto timing = tilescope::gpu::readProgramTiming(line, "program timing");
    ASSERT_EQ(timing.size(), 1u);
    EXPECT_EQ(timing[0].kernel, "fake_kernel");
    ASSERT_EQ(timing[0].programs.size(), 2u);
    EXPECT_EQ(timing[0].programs[1].sm, 1);
  }
  qunsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");
}

// ---- connection failures: one sentence, what to do, no retry loop ----

namespace {
QString failureOf(const RunOnTarget& t) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  client.setRunOn(t);
  Seen seen(client);
  client.runCell("c", "print 1", Backend::Auto);
  if (!waitUntil([&] { return seen.finished.size() == 1 && !seen.deaths.isEmpty(); }, 30000)) return QStringLiteral("(no failure reported)");
  QTest::qWait(300);
  EXPECT_EQ(seen.deaths.size(), 1) << "not retried: " << seen.deaths.join(" | ").toStdString();
  EXPECT_EQ(seen.finished[0], CellRunStatus::Aborted);
  EXPECT_EQ(client.state(), WorkerProcessClient::State::Dead);
  return seen.deaths[0];
}
}  // namespace

TEST_F(RemoteWorker, AuthenticationRefusedSaysToUseAKeyOrTheAgent) {
  const QString m = failureOf(target(TILESCOPE_CLI_PATH, QStringLiteral("tilescope-test-wrong-key")));
  EXPECT_TRUE(m.contains("refused the login") && m.contains("ssh-add") && m.contains("never passwords")) << m.toStdString();
}

TEST_F(RemoteWorker, AnUnknownHostSaysToCheckTheName) {
  const QString m = failureOf(target(TILESCOPE_CLI_PATH, QStringLiteral("no-such-host.invalid")));
  EXPECT_TRUE(m.contains("'no-such-host.invalid' is unknown") && m.contains("~/.ssh/config")) << m.toStdString();
}

TEST_F(RemoteWorker, AnUnknownHostKeySaysToAcceptItInATerminal) {
  const QString m = failureOf(target(TILESCOPE_CLI_PATH, QStringLiteral("tilescope-test-new-host")));
  EXPECT_TRUE(m.contains("host key") && m.contains("ssh tilescope-test-new-host")) << m.toStdString();
}

TEST_F(RemoteWorker, TilescopeCliMissingThereSaysToInstallItOrGiveItsPath) {
  const QString m = failureOf(target("/opt/nowhere/tilescope-cli"));
  EXPECT_TRUE(m.contains("'/opt/nowhere/tilescope-cli' was not found on 'tilescope-test'") && m.contains("Run On")) << m.toStdString();
}

TEST_F(RemoteWorker, AnotherProtocolVersionThereNamesBothVersions) {
  std::ofstream(server->dir() + "/hello99.bin", std::ios::binary)
      << tilescope::util::encodeFrame(tilescope::util::FrameKind::Json,
                                      R"({"type":"hello","protocol":99,"version":"9.9.9","executor":"future","pid":1})");
  const std::string fake = server->writeScript("future-worker", "cat " + server->dir() + "/hello99.bin; cat >/dev/null");
  const QString m = failureOf(target(fake));
  EXPECT_TRUE(m.contains("on tilescope-test is tilescope-cli 9.9.9 (protocol 99)")) << m.toStdString();
  EXPECT_TRUE(m.contains(QStringLiteral("this app is tilescope %1 (protocol 1)").arg(TILESCOPE_VERSION))) << m.toStdString();
}

TEST_F(RemoteWorker, AHostWithShellOrOptionCharactersIsRefusedBeforeSshStarts) {
  const QString m = failureOf(target(TILESCOPE_CLI_PATH, QStringLiteral("-oProxyCommand=touch /tmp/owned")));
  EXPECT_TRUE(m.contains("is not a host name")) << m.toStdString();
}

// ---- through the window ----

namespace {
class RemoteWindow : public RemoteWorker {
protected:
  void SetUp() override {
    RemoteWorker::SetUp();
    if (IsSkipped()) return;
    window = std::make_unique<tilescope::ui::MainWindow>(new WorkerProcessClient(TILESCOPE_CLI_PATH),
                                                         std::make_unique<tilescope::ui::RecoveryStore>(recoveryDir.path()));
    window->show();
  }
  void openNotebookRunningOn(const nlohmann::json& runOn) {
    tilescope::notebook::Notebook nb;
    nb.appendCell(tilescope::notebook::CellType::Code, "print from afar");
    if (!runOn.is_null()) nb.metadata["tilescope"]["run_on"] = runOn;
    window->model()->reset(nb);
  }
  // As the user's Connect in RunOnApprovalDialog would: the notebook's host may be used from now on.
  void approve(const nlohmann::json& runOn) {
    tilescope::ui::Preferences p = tilescope::ui::Preferences::load();
    p.approvedRunOnHosts.append(RunOnTarget::fromJson(runOn)->approvalKey());
    p.save();
    window->applyPreferences(p);
  }
  QLabel* statusLabel(const char* name) { return window->findChild<QLabel*>(QString::fromLatin1(name)); }
  tilescope::ui::CodeCellWidget* codeCell(int index) {
    return qobject_cast<tilescope::ui::CodeCellWidget*>(window->notebookView()->cellWidget(index));
  }
  QTemporaryDir recoveryDir;
  std::unique_ptr<tilescope::ui::MainWindow> window;
};
}  // namespace

TEST_F(RemoteWindow, ANotebooksRunOnPutsItsCellsThereAndTheStatusBarSaysWhere) {
  const nlohmann::json runOn = {{"ssh", LocalSshServer::kHost}, {"remote_command", testDouble}};
  approve(runOn);
  openNotebookRunningOn(runOn);
  QTest::qWait(300);
  auto* worker = qobject_cast<WorkerProcessClient*>(window->executionClient());
  EXPECT_EQ(worker->state(), WorkerProcessClient::State::NotStarted) << "opening a notebook does not connect to its host";
  EXPECT_EQ(statusLabel("deviceStatus")->text(), "tilescope-test: not connected yet");
  window->notebookView()->select(0);
  window->notebookController()->runSelected();
  auto* cell = codeCell(0);
  ASSERT_TRUE(waitUntil([&] { return cell->outputArea()->plainText().contains("from afar"); }, 20000));
  ASSERT_TRUE(waitUntil([&] { return statusLabel("deviceStatus")->text().startsWith("tilescope-test: ") &&
                                     !statusLabel("deviceStatus")->text().contains("connecting"); }, 30000))
      << statusLabel("deviceStatus")->text().toStdString();
  EXPECT_TRUE(waitUntil([&] { return window->workerStatusText() == "Worker on tilescope-test: idle"; }))
      << window->workerStatusText().toStdString();

  // Back to this machine: the status bar says so again.
  openNotebookRunningOn("local");
  EXPECT_TRUE(waitUntil([&] { return !statusLabel("deviceStatus")->text().startsWith("tilescope-test"); }, 30000));
  EXPECT_TRUE(window->workerStatusText().startsWith("Worker: ")) << window->workerStatusText().toStdString();
}

TEST_F(RemoteWindow, AFailedConnectionSaysWhatToDoAndKeepsTheNotebook) {
  const nlohmann::json runOn = {{"ssh", "tilescope-test-wrong-key"}, {"remote_command", TILESCOPE_CLI_PATH}};
  approve(runOn);
  openNotebookRunningOn(runOn);
  window->model()->setSource(0, "print edited");
  window->notebookView()->select(0);
  window->notebookController()->runSelected();
  ASSERT_TRUE(waitUntil([&] { return window->noticeBar()->isVisible() && window->noticeBar()->text().contains("refused the login"); }, 30000));
  EXPECT_EQ(window->model()->source(0), "print edited");
  EXPECT_TRUE(window->model()->isDirty()) << "unsaved work is still there, unsaved";
  EXPECT_EQ(statusLabel("deviceStatus")->text(), "tilescope-test-wrong-key: not connected");
  EXPECT_EQ(window->workerStatusText(), "Worker on tilescope-test-wrong-key: stopped");
}

TEST_F(RemoteWindow, TheRunOnDialogStoresAnSshHostInTheNotebook) {
  openNotebookRunningOn(nullptr);
  bool sawProblem = false;
  // The dialog is modal: it is driven from the event loop once it shows.
  QTimer::singleShot(0, window.get(), [&] {
    ASSERT_TRUE(waitUntil([] { return qobject_cast<tilescope::ui::RunOnDialog*>(QApplication::activeModalWidget()) != nullptr; }));
    auto* dialog = qobject_cast<tilescope::ui::RunOnDialog*>(QApplication::activeModalWidget());
    QTest::mouseClick(dialog->findChild<QRadioButton*>("runOnRemote"), Qt::LeftButton, {}, QPoint(5, 5));
    auto* host = dialog->findChild<QLineEdit*>("runOnHost");
    host->clear();
    QTest::keyClicks(host, "-oProxyCommand=x");
    QTest::keyClick(host, Qt::Key_Return);  // OK: refused, the dialog stays and says why
    auto* problem = dialog->findChild<QLabel*>("runOnProblem");
    sawProblem = problem->isVisible() && problem->text().contains("is not a host name");
    host->selectAll();
    QTest::keyClicks(host, LocalSshServer::kHost);
    auto* command = dialog->findChild<QLineEdit*>("runOnRemoteCommand");
    command->selectAll();
    QTest::keyClicks(command, QString::fromStdString(testDouble));
    auto* scope = dialog->findChild<QComboBox*>("runOnScope");
    scope->setCurrentIndex(0);  // this notebook
    QTest::keyClick(command, Qt::Key_Return);
  });
  window->runOnAction()->trigger();
  EXPECT_TRUE(sawProblem);
  const auto saved = RunOnTarget::fromNotebookMetadata(window->model()->notebook().metadata);
  ASSERT_TRUE(saved.has_value()) << window->model()->notebook().metadata.dump();
  EXPECT_EQ(saved->host, "tilescope-test");
  EXPECT_EQ(saved->remoteCommand, QString::fromStdString(testDouble));
  EXPECT_TRUE(window->model()->isDirty()) << "the notebook changed: it is saved with the setting";
  window->notebookView()->select(0);
  window->notebookController()->runSelected();
  ASSERT_TRUE(waitUntil([&] { return codeCell(0)->outputArea()->plainText().contains("from afar"); }, 20000));
}

// ---- a notebook's own host is approved by the user before the first connection ----

namespace {
class RunOnApproval : public RemoteWindow {
protected:
  void SetUp() override {
    qputenv("TILESCOPE_WORKER_TEST_EXECUTOR", "1");  // "Run here instead" runs the cell with the local test double
    tilescope::ui::Preferences cleared = tilescope::ui::Preferences::load();
    cleared.approvedRunOnHosts.clear();
    cleared.save();
    RemoteWindow::SetUp();
    if (IsSkipped()) return;
    runOn = {{"ssh", LocalSshServer::kHost}, {"port", server->port()}, {"remote_command", testDouble}};
    openNotebookRunningOn(runOn);
    window->notebookView()->select(0);
  }
  void TearDown() override {
    qunsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");
    RemoteWindow::TearDown();
  }
  // Runs the selected cell; `answer` is called with the approval dialog once it shows (never, if none shows
  // within 3 s). Returns whether the dialog showed.
  bool runAndAnswer(const std::function<void(tilescope::ui::RunOnApprovalDialog*)>& answer) {
    bool shown = false;
    QTimer::singleShot(0, window.get(), [&] {
      if (!waitUntil([] { return qobject_cast<tilescope::ui::RunOnApprovalDialog*>(QApplication::activeModalWidget()); }, 3000))
        return;
      shown = true;
      auto* dialog = qobject_cast<tilescope::ui::RunOnApprovalDialog*>(QApplication::activeModalWidget());
      details = dialog->findChild<QLabel*>("runOnApprovalDetails")->text();
      answer(dialog);
    });
    window->notebookController()->runSelected();
    QTest::qWait(50);  // the timer's wait has ended when no dialog came
    return shown;
  }
  static void click(QWidget* dialog, const char* button) {
    QTest::mouseClick(dialog->findChild<QPushButton*>(button), Qt::LeftButton, {}, QPoint(5, 5));
  }
  QStringList approved() const { return tilescope::ui::Preferences::load().approvedRunOnHosts; }
  nlohmann::json runOn;
  QString details;
};
}  // namespace

TEST_F(RunOnApproval, TheFirstRunAsksNamingHostPortIdentityAndCommandAndConnectIsRemembered) {
  auto* worker = qobject_cast<WorkerProcessClient*>(window->executionClient());
  EXPECT_FALSE(worker->runOn().isRemote()) << "an unapproved host is not even handed to the worker";
  EXPECT_EQ(statusLabel("deviceStatus")->text(), "tilescope-test: asks before connecting");
  ASSERT_TRUE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveConnect"); }));
  EXPECT_TRUE(details.contains("Host: tilescope-test")) << details.toStdString();
  EXPECT_TRUE(details.contains("Port: " + QString::number(server->port()))) << details.toStdString();
  EXPECT_TRUE(details.contains("Identity file: ")) << details.toStdString();
  EXPECT_TRUE(details.contains(QString::fromStdString(testDouble) + " worker")) << details.toStdString();
  auto* cell = codeCell(0);
  ASSERT_TRUE(waitUntil([&] { return cell->outputArea()->plainText().contains("from afar"); }, 20000));
  EXPECT_TRUE(worker->runOn().isRemote());
  EXPECT_TRUE(approved().contains(RunOnTarget::fromJson(runOn)->approvalKey())) << "remembered in the settings";
  ASSERT_TRUE(waitUntil([&] { return !worker->isBusy(); }, 10000));
  EXPECT_FALSE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveCancel"); })) << "an approved host is not asked about again";
}

TEST_F(RunOnApproval, CancelRunsNothingAndRunHereInsteadRunsOnThisMachine) {
  auto* worker = qobject_cast<WorkerProcessClient*>(window->executionClient());
  // Escape is Cancel: nothing runs, nothing is remembered, and the next run asks again.
  ASSERT_TRUE(runAndAnswer([](QWidget* dialog) { QTest::keyClick(dialog, Qt::Key_Escape); }));
  QTest::qWait(500);
  EXPECT_TRUE(codeCell(0)->outputArea()->plainText().isEmpty());
  EXPECT_FALSE(worker->isBusy());
  EXPECT_FALSE(worker->runOn().isRemote());
  // Enter does not connect either: Cancel is the default button.
  ASSERT_TRUE(runAndAnswer([](QWidget* dialog) { QTest::keyClick(dialog, Qt::Key_Return); }));
  QTest::qWait(300);
  EXPECT_TRUE(codeCell(0)->outputArea()->plainText().isEmpty());
  EXPECT_TRUE(approved().isEmpty());

  ASSERT_TRUE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveRunHere"); }));
  ASSERT_TRUE(waitUntil([&] { return codeCell(0)->outputArea()->plainText().contains("from afar"); }, 20000));
  EXPECT_FALSE(worker->runOn().isRemote()) << "ran on this machine";
  EXPECT_TRUE(window->workerStatusText().startsWith("Worker: ")) << window->workerStatusText().toStdString();
  EXPECT_TRUE(approved().isEmpty()) << "declining is not remembered as an approval";
  ASSERT_TRUE(waitUntil([&] { return !worker->isBusy(); }, 10000));
  EXPECT_FALSE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveCancel"); })) << "declined for this notebook: not asked again";

  // Opening the notebook again asks again.
  openNotebookRunningOn(runOn);
  window->notebookView()->select(0);
  EXPECT_TRUE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveCancel"); }));
}

TEST_F(RunOnApproval, TheAppWideHostNeedsNoApproval) {
  tilescope::ui::Preferences p = tilescope::ui::Preferences::load();
  p.runOn = *RunOnTarget::fromJson(runOn);
  window->applyPreferences(p);
  EXPECT_FALSE(runAndAnswer([](QWidget* dialog) { click(dialog, "approveCancel"); }));
  ASSERT_TRUE(waitUntil([&] { return codeCell(0)->outputArea()->plainText().contains("from afar"); }, 20000));
  EXPECT_TRUE(qobject_cast<WorkerProcessClient*>(window->executionClient())->runOn().isRemote());
}
