// Running cells in the real `tilescope-cli worker`, with its test executor (print / loop forever /
// crash), through WorkerProcessClient alone and through the whole window.
#include <gtest/gtest.h>
#include <signal.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "core/notebook/CellOutputs.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/CodeCellWidget.h"
#include "ui/CoreFacade.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBar.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RecoveryStore.h"
#include "ui/WorkerProcessClient.h"

using tilescope::testing::waitUntil;
using tilescope::ui::Backend;
using tilescope::ui::CellRunStatus;
using tilescope::ui::WorkerProcessClient;

namespace {
constexpr const char* kTestExecutorVariable = "TILESCOPE_WORKER_TEST_EXECUTOR";

// Selects the worker's test double for the processes started during one test.
class WorkerTest : public ::testing::Test {
protected:
  void SetUp() override { qputenv(kTestExecutorVariable, "1"); }
  void TearDown() override { qunsetenv(kTestExecutorVariable); }
};

struct Finished {
  QString cellId;
  CellRunStatus status;
};

// Collects what a client reports, per cell.
struct Recorder {
  explicit Recorder(tilescope::ui::ExecutionClient& client) {
    QObject::connect(&client, &tilescope::ui::ExecutionClient::streamOutput, &context,
                     [this](const QString& id, const QString& name, const QString& text) { streams << id + "|" + name + "|" + text; });
    QObject::connect(&client, &tilescope::ui::ExecutionClient::executionStarted, &context,
                     [this](const QString&, int count) { counts << count; });
    QObject::connect(&client, &tilescope::ui::ExecutionClient::errorOutput, &context,
                     [this](const QString&, const tilescope::ui::ExecutionError& e) { errors << e; });
    QObject::connect(&client, &tilescope::ui::ExecutionClient::richOutput, &context,
                     [this](const QString&, const tilescope::ui::RichOutput& o) { rich << o; });
    QObject::connect(&client, &tilescope::ui::ExecutionClient::cellFinished, &context,
                     [this](const QString& id, CellRunStatus s) { finished << Finished{id, s}; });
    QObject::connect(&client, &tilescope::ui::ExecutionClient::workerDied, &context,
                     [this](const QString& reason) { deaths << reason; });
  }
  QObject context;
  QStringList streams;
  QList<int> counts;
  QList<tilescope::ui::ExecutionError> errors;
  QList<tilescope::ui::RichOutput> rich;
  QList<Finished> finished;
  QStringList deaths;
};

bool waitForIdle(WorkerProcessClient& client, int timeoutMs = 10000) {
  return waitUntil([&] { return client.state() == WorkerProcessClient::State::Idle && !client.isBusy(); }, timeoutMs);
}
}  // namespace

TEST_F(WorkerTest, PrintStreamsTextBackAndCountsExecutions) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("c1", "print hello", Backend::Simulator);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }));
  EXPECT_EQ(seen.streams, QStringList{"c1|stdout|hello\n"});
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Ok);
  EXPECT_EQ(seen.counts, QList<int>{1});
  EXPECT_EQ(client.executorName(), "test-double");
  client.runCell("c2", "print a\nprint b", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }));
  EXPECT_EQ(seen.counts, (QList<int>{1, 2}));
  EXPECT_EQ(seen.streams.mid(1), (QStringList{"c2|stdout|a\n", "c2|stdout|b\n"}));
}

TEST_F(WorkerTest, ErrorsCarryFileLineAndColumn) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("c7", "print ok\n   bogus here", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }));
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Error);
  ASSERT_EQ(seen.errors.size(), 1);
  const auto& error = seen.errors[0];
  EXPECT_EQ(error.name, "TestExecutorError");
  ASSERT_EQ(error.traceback.size(), 1);
  EXPECT_EQ(error.traceback[0].file, "<cell:c7>");
  EXPECT_EQ(error.traceback[0].cellId(), "c7");
  EXPECT_EQ(error.traceback[0].line, 2);
  EXPECT_EQ(error.traceback[0].column, 4);
}

TEST_F(WorkerTest, AnErrorDropsTheRestOfTheQueue) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("a", "print 1", Backend::Auto);
  client.runCell("b", "nonsense", Backend::Auto);
  client.runCell("c", "print 3", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 3; }));
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Ok);
  EXPECT_EQ(seen.finished[1].status, CellRunStatus::Error);
  EXPECT_EQ(seen.finished[2].cellId, "c");
  EXPECT_EQ(seen.finished[2].status, CellRunStatus::Aborted);
  EXPECT_FALSE(seen.streams.join("").contains("3"));
}

TEST_F(WorkerTest, InterruptStopsAnEndlessLoop) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("loop", "print start\nloop forever", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return !seen.streams.isEmpty(); })) << "the loop never started";
  const qint64 pid = client.workerPid();
  QElapsedTimer timer;
  timer.start();
  client.interrupt();
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 20000));
  // A liveness bound only (the hang guard; an interrupt takes milliseconds): the latency is measured
  // by BM_InterruptBusyLoop in core/bench/bench_host.cpp.
  RecordProperty("interrupt_ms", static_cast<int>(timer.elapsed()));
  EXPECT_LT(timer.elapsed(), 10000);
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Aborted);
  ASSERT_EQ(seen.errors.size(), 1);
  EXPECT_EQ(seen.errors[0].name, "KeyboardInterrupt");
  EXPECT_EQ(seen.errors[0].traceback.value(0).line, 2);
  EXPECT_TRUE(seen.deaths.isEmpty()) << "the worker stopped the cell itself";
  EXPECT_EQ(client.workerPid(), pid);
  // The same worker keeps going.
  client.runCell("next", "print after", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }));
  EXPECT_TRUE(seen.streams.last().endsWith("after\n"));
}

TEST_F(WorkerTest, AWorkerThatIgnoresInterruptIsKilledAndReplaced) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("loop", "loop forever", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return client.state() == WorkerProcessClient::State::Busy; }));
  QTest::qWait(50);
  const qint64 pid = client.workerPid();
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGSTOP), 0);  // frozen: it cannot answer any more
  QElapsedTimer timer;
  timer.start();
  client.interrupt();
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }, 20000));
  EXPECT_GE(timer.elapsed(), 900) << "the worker gets its 1 s to stop the cell itself";
  EXPECT_LT(timer.elapsed(), 15000) << "liveness bound: the kill follows the 1 s grace";
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Aborted);
  ASSERT_EQ(seen.deaths.size(), 1);
  EXPECT_TRUE(seen.deaths[0].contains("did not stop within 1 s")) << seen.deaths[0].toStdString();
  ASSERT_TRUE(waitForIdle(client));
  EXPECT_NE(client.workerPid(), pid);
  EXPECT_NE(::kill(static_cast<pid_t>(pid), 0), 0) << "the frozen worker is gone";
}

TEST_F(WorkerTest, RestartGivesAFreshWorker) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("a", "print 1", Backend::Auto);
  client.runCell("b", "print 2", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }));
  EXPECT_EQ(seen.counts, (QList<int>{1, 2}));
  const qint64 pid = client.workerPid();
  client.restart();
  ASSERT_TRUE(waitForIdle(client));
  EXPECT_NE(client.workerPid(), pid);
  EXPECT_TRUE(seen.deaths.isEmpty()) << "a restart asked for is not a death";
  client.runCell("c", "print 3", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 3; }));
  EXPECT_EQ(seen.counts.last(), 1) << "the execution count starts again";
}

TEST_F(WorkerTest, RestartWhileRunningAbortsTheCell) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("loop", "loop forever", Backend::Auto);
  client.runCell("queued", "print never", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return client.state() == WorkerProcessClient::State::Busy; }));
  client.restart();
  ASSERT_EQ(seen.finished.size(), 2);
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Aborted);
  EXPECT_EQ(seen.finished[1].status, CellRunStatus::Aborted);
  ASSERT_TRUE(waitForIdle(client));
}

TEST_F(WorkerTest, CrashIsReportedAndTheWorkerRestarted) {
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("boom", "print before\ncrash", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.deaths.size() == 1; }));
  EXPECT_TRUE(seen.deaths[0].contains("crashed")) << seen.deaths[0].toStdString();
  EXPECT_TRUE(seen.deaths[0].contains("SIGABRT") || seen.deaths[0].contains("signal 6") || seen.deaths[0].contains("Abort"))
      << seen.deaths[0].toStdString();
  ASSERT_EQ(seen.finished.size(), 1);
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Aborted);
  EXPECT_EQ(seen.streams.value(0), "boom|stdout|before\n") << "output from before the crash is kept";
  ASSERT_TRUE(waitForIdle(client));
  client.runCell("after", "print alive", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }));
  EXPECT_EQ(seen.finished[1].status, CellRunStatus::Ok);
}

TEST(WorkerWithoutTestExecutor, RunsPythonThroughTheHostRuntime) {
  qunsetenv(kTestExecutorVariable);
  WorkerProcessClient client(TILESCOPE_CLI_PATH);
  Recorder seen(client);
  client.runCell("c", "print('hello', 6 * 7)", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }));
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Ok);
  EXPECT_EQ(seen.streams, QStringList{"c|stdout|hello 42\n"});
  client.runCell("d", "1 / 0", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 2; }));
  EXPECT_EQ(seen.finished[1].status, CellRunStatus::Error);
  ASSERT_EQ(seen.errors.size(), 1);
  EXPECT_EQ(seen.errors[0].name, "ZeroDivisionError");
}

TEST(WorkerWithoutTestExecutor, AMissingWorkerProgramIsReportedNotRetriedForever) {
  WorkerProcessClient client("/nonexistent/tilescope-cli");
  Recorder seen(client);
  client.runCell("c", "print hello", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }));
  EXPECT_EQ(seen.finished[0].status, CellRunStatus::Aborted);
  ASSERT_EQ(seen.deaths.size(), 1);
  EXPECT_TRUE(seen.deaths[0].contains("Cannot start the worker")) << seen.deaths[0].toStdString();
  EXPECT_EQ(client.state(), WorkerProcessClient::State::Dead);
}

// A scripted stand-in worker: checks that blob frames arrive attached to their message and that a
// worker speaking garbage is given up on instead of restarted forever.
class ScriptedWorker : public ::testing::Test {
protected:
  void SetUp() override {
    if (std::system("python3 -c 'import struct, json' >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 is not installed";
  }
  QString writeScript(const QString& body) {
    const QString path = dir.filePath("fake-worker");
    tilescope::testing::writeBytes(path, ("#!/usr/bin/env python3\nimport sys, json, struct\n"
                                          "def frame(kind, payload):\n"
                                          "    sys.stdout.buffer.write(kind + struct.pack('>I', len(payload)) + payload)\n"
                                          "    sys.stdout.buffer.flush()\n"
                                          "def send(message):\n"
                                          "    frame(b'J', json.dumps(message).encode())\n" + body).toUtf8());
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
  }
  QTemporaryDir dir;
};

TEST_F(ScriptedWorker, BlobFramesArriveWithTheirDisplayData) {
  const QString script = writeScript(
      "send({'type': 'hello', 'protocol': 1, 'version': 'fake', 'executor': 'fake', 'pid': 0})\n"
      "header = sys.stdin.buffer.read(5)\n"
      "request = json.loads(sys.stdin.buffer.read(struct.unpack('>I', header[1:])[0]))\n"
      "rid = request['id']\n"
      "send({'type': 'execute_input', 'id': rid, 'execution_count': 1})\n"
      "send({'type': 'display_data', 'id': rid, 'data': {'text/plain': 'a trace'}, 'metadata': {},\n"
      "      'blobs': [{'mime': 'application/x-tilescope-trace', 'size': 3}, {'mime': 'application/octet-stream', 'size': 0}]})\n"
      "frame(b'B', b'\\x00\\x01\\x02')\n"
      "frame(b'B', b'')\n"
      "send({'type': 'execute_reply', 'id': rid, 'status': 'ok', 'execution_count': 1})\n"
      "sys.stdin.buffer.read()\n");
  WorkerProcessClient client(script);
  Recorder seen(client);
  client.runCell("c", "anything", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return seen.finished.size() == 1; }));
  ASSERT_EQ(seen.rich.size(), 1);
  const auto& output = seen.rich[0];
  EXPECT_FALSE(output.isExecuteResult);
  EXPECT_EQ(output.data["text/plain"], "a trace");
  ASSERT_EQ(output.blobs.size(), 2);
  EXPECT_EQ(output.blobs[0].mimeType, "application/x-tilescope-trace");
  EXPECT_EQ(output.blobs[0].bytes, QByteArray("\x00\x01\x02", 3));
  EXPECT_TRUE(output.blobs[1].bytes.isEmpty());
}

TEST_F(ScriptedWorker, AWorkerSpeakingGarbageIsGivenUpOn) {
  const QString script = writeScript("sys.stdout.write('Traceback: this is not a frame\\n')\nsys.stdout.flush()\nsys.stdin.read()\n");
  WorkerProcessClient client(script);
  Recorder seen(client);
  client.runCell("c", "x", Backend::Auto);
  ASSERT_TRUE(waitUntil([&] { return client.state() == WorkerProcessClient::State::Dead && seen.deaths.size() == 2; }));
  EXPECT_TRUE(seen.deaths[0].contains("cannot read")) << seen.deaths[0].toStdString();
  EXPECT_TRUE(seen.deaths[1].contains("not restarted")) << seen.deaths[1].toStdString();
  QTest::qWait(300);
  EXPECT_EQ(seen.deaths.size(), 2) << "no restart loop";
  EXPECT_EQ(seen.finished.size(), 1);
}

// ---- through the window ----

namespace {
class WindowRun : public WorkerTest {
protected:
  void SetUp() override {
    WorkerTest::SetUp();
    window = std::make_unique<tilescope::ui::MainWindow>(
        new WorkerProcessClient(TILESCOPE_CLI_PATH), std::make_unique<tilescope::ui::RecoveryStore>(recoveryDir.path()));
    tilescope::notebook::Notebook nb;
    nb.appendCell(tilescope::notebook::CellType::Markdown, "# Demo");
    nb.appendCell(tilescope::notebook::CellType::Code, "print hello");
    nb.appendCell(tilescope::notebook::CellType::Code, "crash");
    window->model()->reset(nb);
    window->show();
  }
  tilescope::ui::CodeCellWidget* codeCell(int index) {
    return qobject_cast<tilescope::ui::CodeCellWidget*>(window->notebookView()->cellWidget(index));
  }
  QTemporaryDir recoveryDir;
  std::unique_ptr<tilescope::ui::MainWindow> window;
};
}  // namespace

TEST_F(WindowRun, PrintHelloShowsHelloUnderTheCell) {
  window->notebookView()->select(1);
  window->notebookController()->runSelected();
  auto* cell = codeCell(1);
  ASSERT_TRUE(waitUntil([&] { return cell->outputArea()->plainText().contains("hello"); }))
      << cell->outputArea()->plainText().toStdString();
  EXPECT_TRUE(cell->outputArea()->isVisible());
  EXPECT_TRUE(waitUntil([&] { return cell->promptText() == "[1]:"; })) << cell->promptText().toStdString();
  EXPECT_EQ(tilescope::notebook::outputPlainText(window->model()->cell(1).outputs.at(0)), "hello\n");
  EXPECT_EQ(window->model()->cell(1).executionCount, 1);
}

TEST_F(WindowRun, AnErrorIsShownUnderTheCellAndMarkedInTheCode) {
  window->model()->setSource(1, "print fine\nprint ok\n  oops");
  window->notebookView()->select(1);
  window->notebookController()->runSelected();
  auto* cell = codeCell(1);
  ASSERT_TRUE(waitUntil([&] { return cell->outputArea()->plainText().contains("TestExecutorError"); }));
  EXPECT_TRUE(cell->outputArea()->plainText().contains("Cell [1], line 3, column 3: unknown command"))
      << "the traceback says where, in the reader's terms: " << cell->outputArea()->plainText().toStdString();
  EXPECT_EQ(cell->editor()->diagnosticCount(), 1);
  EXPECT_TRUE(cell->editor()->annotation(2).contains("unknown command")) << cell->editor()->annotation(2).toStdString();
}

TEST_F(WindowRun, KillingTheWorkerMidRunLeavesTheWindowAndNotebookIntact) {
  const QByteArray before = tilescope::ui::CoreFacade::serializeNotebook(window->model()->notebook());
  QSignalSpy died(window->executionClient(), &tilescope::ui::ExecutionClient::workerDied);
  window->notebookView()->select(2);
  window->notebookController()->runSelected();
  ASSERT_TRUE(died.wait(10000));
  EXPECT_TRUE(window->isVisible());
  EXPECT_TRUE(window->noticeBar()->isShowing());
  EXPECT_TRUE(window->noticeBar()->text().contains("crashed")) << window->noticeBar()->text().toStdString();
  EXPECT_EQ(codeCell(2)->promptText(), "[ ]:") << "no longer shown as running";
  EXPECT_EQ(tilescope::ui::CoreFacade::serializeNotebook(window->model()->notebook()), before);
  auto* worker = qobject_cast<WorkerProcessClient*>(window->executionClient());
  ASSERT_TRUE(waitForIdle(*worker)) << "a fresh worker was started";
  // And it runs cells again.
  window->notebookView()->select(1);
  window->notebookController()->runSelected();
  ASSERT_TRUE(waitUntil([&] { return codeCell(1)->outputArea()->plainText().contains("hello"); }));
  EXPECT_EQ(window->model()->cell(1).executionCount, 1) << "counting starts again in the new worker";
}

TEST_F(WindowRun, RunAllStopsAtTheCrashAndReportsCompletion) {
  QSignalSpy done(window->notebookController(), &tilescope::ui::NotebookController::allRunsFinished);
  window->notebookController()->runAll();
  ASSERT_TRUE(done.wait(10000));
  EXPECT_EQ(window->notebookController()->pendingRuns(), 0);
  window->notebookView()->flushPendingOutputs();
  EXPECT_TRUE(codeCell(1)->outputArea()->plainText().contains("hello"));
}

TEST_F(WindowRun, AGpuFaultRestartsTheWorkerAndSaysWhy) {
  // After a GPU fault CUDA keeps the worker's GPU state broken; the worker replies, exits with its
  // GPU-fault code, and the window says why a fresh worker was started.
  QSignalSpy died(window->executionClient(), &tilescope::ui::ExecutionClient::workerDied);
  window->model()->setSource(2, "gpu fault");
  window->notebookView()->select(2);
  window->notebookController()->runSelected();
  ASSERT_TRUE(died.wait(10000));
  EXPECT_TRUE(window->noticeBar()->text().contains("The GPU faulted")) << window->noticeBar()->text().toStdString();
  EXPECT_TRUE(waitUntil([&] { return codeCell(2)->outputArea()->plainText().contains("illegal memory access"); }))
      << "the cell's own error is kept: " << codeCell(2)->outputArea()->plainText().toStdString();
  auto* worker = qobject_cast<WorkerProcessClient*>(window->executionClient());
  ASSERT_TRUE(waitForIdle(*worker)) << "a fresh worker was started";
  window->notebookView()->select(1);
  window->notebookController()->runSelected();
  ASSERT_TRUE(waitUntil([&] { return codeCell(1)->outputArea()->plainText().contains("hello"); }));
}
