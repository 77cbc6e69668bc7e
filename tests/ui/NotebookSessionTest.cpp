// Opening notebooks (issue 28): each notebook gets its own worker, so nothing one notebook defined
// leaks into the next and counts start at 1 again; cells with the same id (hand-edited files) get
// fresh ids on load, say so in the status bar, and all run.
#include <gtest/gtest.h>

#include <QStatusBar>
#include <QTemporaryDir>
#include <set>
#include <string>

#include "core/notebook/NotebookFile.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"
#include "ui/WorkerProcessClient.h"

using tilescope::notebook::CellType;
using tilescope::testing::RecordingClient;
using tilescope::testing::waitUntil;
using tilescope::ui::MainWindow;
using tilescope::ui::WorkerProcessClient;

namespace {
// Saves a notebook of code cells with these sources and returns its path.
QString writeNotebook(const QTemporaryDir& dir, const QString& name, const std::vector<std::string>& sources) {
  tilescope::notebook::Notebook nb;
  for (const std::string& source : sources) nb.appendCell(CellType::Code, source);
  const QString path = dir.filePath(name);
  EXPECT_EQ(tilescope::notebook::saveNotebook(nb, path.toStdString()), "");
  return path;
}

// A notebook whose cells share ids, as a hand edit or a bad merge leaves it.
QString writeNotebookWithRepeatedIds(const QTemporaryDir& dir) {
  const QString path = dir.filePath("repeated.ipynb");
  std::string cells;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) cells += ",";
    cells += R"({"cell_type":"code","id":")" + std::string(i < 3 ? "twin" : "solo") + R"(","metadata":{},)" +
             R"("outputs":[],"execution_count":null,"source":"print cell )" + std::to_string(i + 1) + "\"}";
  }
  tilescope::testing::writeBytes(
      path, QByteArray::fromStdString(R"({"cells":[)" + cells + R"(],"metadata":{},"nbformat":4,"nbformat_minor":5})"));
  return path;
}
}  // namespace

TEST(NotebookSession, OpeningAnotherNotebookStartsAFreshWorkerOnceCellsHaveRun) {
  QTemporaryDir dir;
  auto* client = new RecordingClient;
  MainWindow window(client, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
  ASSERT_EQ(window.openNotebook(writeNotebook(dir, "a.ipynb", {"x = 1"})), "");
  EXPECT_EQ(client->restarts, 0) << "nothing has run yet: the worker is fresh";
  window.notebookController()->runAll();
  client->finishAll();
  ASSERT_EQ(window.openNotebook(writeNotebook(dir, "b.ipynb", {"print(x)"})), "");
  EXPECT_EQ(client->restarts, 1) << "b must not see what a defined";
  ASSERT_EQ(window.openNotebook(writeNotebook(dir, "c.ipynb", {"y = 2"})), "");
  EXPECT_EQ(client->restarts, 1) << "nothing ran in b: its worker is still fresh";
  window.notebookController()->runAll();
  client->finishAll();
  window.fileController()->askAboutUnsavedChanges = [](const QString&) {
    return tilescope::ui::FileController::UnsavedChoice::Discard;
  };
  window.fileController()->newNotebook();
  EXPECT_EQ(client->restarts, 2) << "a new notebook gets a fresh worker too";
}

// The real worker and runtime: names and counts of one notebook are gone in the next.
TEST(NotebookSession, NamesAndCountsOfTheLastNotebookDoNotLeakIntoTheNext) {
  qunsetenv("TILESCOPE_WORKER_TEST_EXECUTOR");
  QTemporaryDir dir;
  auto* worker = new WorkerProcessClient(TILESCOPE_CLI_PATH);
  MainWindow window(worker, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
  window.show();
  auto* controller = window.notebookController();
  ASSERT_EQ(window.openNotebook(writeNotebook(dir, "first.ipynb", {"leaked = 41", "print(leaked + 1)"})), "");
  controller->runAll();
  ASSERT_TRUE(waitUntil([&] { return controller->pendingRuns() == 0; }, 30000));
  ASSERT_EQ(window.model()->cell(1).executionCount, 2);
  ASSERT_NE(window.model()->cell(1).outputs.dump().find("42"), std::string::npos) << window.model()->cell(1).outputs.dump();

  ASSERT_EQ(window.openNotebook(writeNotebook(dir, "second.ipynb", {"print(leaked)"})), "");
  controller->runAll();
  ASSERT_TRUE(waitUntil([&] { return controller->pendingRuns() == 0; }, 30000));
  const std::string outputs = window.model()->cell(0).outputs.dump();
  EXPECT_NE(outputs.find("NameError"), std::string::npos) << "the first notebook's name leaked: " << outputs;
  EXPECT_EQ(window.model()->cell(0).executionCount, 1) << "counting starts at 1 in each notebook";
}

TEST(NotebookSession, RepeatedCellIdsGetFreshIdsAndTheStatusBarSaysSo) {
  QTemporaryDir dir;
  auto* client = new RecordingClient;
  MainWindow window(client, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
  ASSERT_EQ(window.openNotebook(writeNotebookWithRepeatedIds(dir)), "");
  const QString status = window.statusBar()->currentMessage();
  EXPECT_TRUE(status.contains("2 cell(s)")) << status.toStdString();
  EXPECT_TRUE(status.contains("fresh")) << status.toStdString();
  std::set<QString> ids;
  for (int i = 0; i < window.model()->cellCount(); ++i) ids.insert(window.model()->cellId(i));
  EXPECT_EQ(ids.size(), 4u);

  // Run all runs every cell, each once, and each cell gets its own output.
  window.notebookController()->runAll();
  ASSERT_EQ(client->runs.size(), 4u) << "no cell may be skipped";
  for (int i = 0; i < 4; ++i) EXPECT_EQ(client->runs[static_cast<size_t>(i)].code, QString("print cell %1").arg(i + 1));
  for (const RecordingClient::Run& run : client->runs)
    emit client->streamOutput(run.cellId, "stdout", run.code.mid(6) + "\n");
  client->finishAll();
  EXPECT_EQ(window.notebookController()->pendingRuns(), 0);
  for (int i = 0; i < 4; ++i)
    EXPECT_NE(window.model()->cell(i).outputs.dump().find("cell " + std::to_string(i + 1)), std::string::npos)
        << "cell " << i + 1 << ": " << window.model()->cell(i).outputs.dump();
}

TEST(NotebookSession, UniqueIdsOpenWithThePlainStatusMessage) {
  QTemporaryDir dir;
  MainWindow window(new RecordingClient, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
  const QString path = writeNotebook(dir, "plain.ipynb", {"a = 1", "b = 2"});
  ASSERT_EQ(window.openNotebook(path), "");
  EXPECT_FALSE(window.statusBar()->currentMessage().contains("fresh")) << window.statusBar()->currentMessage().toStdString();
}
