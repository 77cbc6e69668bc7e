#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QLabel>
#include <sys/stat.h>
#include <QTest>
#include <QApplication>

#include "tests/ui/UiTestSupport.h"
#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBar.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"

using tilescope::testing::readBytes;
using tilescope::testing::RecordingClient;
using tilescope::testing::writeBytes;
using tilescope::ui::FileController;
using tilescope::ui::MainWindow;

namespace {
class Files : public ::testing::Test {
protected:
  void SetUp() override {
    window = std::make_unique<MainWindow>(new RecordingClient,
                                          std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("recovery")));
    files = window->fileController();
    model = window->model();
    // Nobody is there to click in a test: answers are scripted per test.
    files->askAboutUnsavedChanges = [this](const QString& name) {
      ++questions;
      askedAbout = name;
      return answer;
    };
    files->askForSavePath = [this](const QString& suggested) {
      suggestedPath = suggested;
      return savePathAnswer;
    };
  }

  QTemporaryDir dir;
  std::unique_ptr<MainWindow> window;
  FileController* files = nullptr;
  tilescope::ui::NotebookModel* model = nullptr;
  FileController::UnsavedChoice answer = FileController::UnsavedChoice::Cancel;
  int questions = 0;
  QString askedAbout;
  QString suggestedPath;
  QString savePathAnswer;
};
}  // namespace

TEST_F(Files, SaveAndReopenRoundTripsByteForByte) {
  const QString original = TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb";
  const QString copy = dir.filePath("copy.ipynb");
  ASSERT_TRUE(files->open(original).isEmpty());
  ASSERT_TRUE(files->saveAs(copy));
  EXPECT_EQ(readBytes(copy), readBytes(original));
  // Reopen the copy and save it again unchanged.
  ASSERT_TRUE(files->open(copy).isEmpty());
  ASSERT_TRUE(files->save());
  EXPECT_EQ(readBytes(copy), readBytes(original));
  EXPECT_EQ(files->currentPath(), QFileInfo(copy).absoluteFilePath());
  EXPECT_FALSE(model->isDirty());
}

TEST_F(Files, EditsAreSavedAndTheDirtyMarkClears) {
  const QString path = dir.filePath("nb.ipynb");
  ASSERT_TRUE(files->saveAs(path));
  model->setSource(0, "x = 42");
  EXPECT_TRUE(model->isDirty());
  EXPECT_TRUE(window->isWindowModified());
  ASSERT_TRUE(files->save());
  EXPECT_FALSE(window->isWindowModified());
  EXPECT_TRUE(readBytes(path).contains("\"x = 42\""));
}

TEST_F(Files, CorruptFileGivesAnErrorAndStaysUntouched) {
  ASSERT_TRUE(files->open(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  const QString bad = dir.filePath("broken.ipynb");
  const QByteArray garbage("{\"cells\": [ {\"cell_type\": \"code\", \"source\": [\"x\"");
  writeBytes(bad, garbage);
  const QDateTime modified = QFileInfo(bad).lastModified();
  QSignalSpy errors(files, &FileController::fileError);
  const QString error = files->open(bad);
  EXPECT_TRUE(error.contains("not a valid notebook")) << error.toStdString();
  EXPECT_EQ(errors.count(), 1);
  EXPECT_TRUE(window->noticeBar()->isShowing()) << "shown in the window, not just returned";
  EXPECT_TRUE(window->noticeBar()->text().contains("broken.ipynb"));
  EXPECT_EQ(readBytes(bad), garbage);
  EXPECT_EQ(QFileInfo(bad).lastModified(), modified);
  EXPECT_EQ(model->cellCount(), 6) << "the open notebook is kept";
  EXPECT_TRUE(files->currentPath().endsWith("vector_add.ipynb"));
}

TEST_F(Files, UnsupportedFilesAreExplained) {
  const QString picture = dir.filePath("picture.png");
  writeBytes(picture, QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  const QString error = files->open(picture);
  EXPECT_TRUE(error.contains("tilescope opens Jupyter notebooks (.ipynb) and Python files (.py)")) << error.toStdString();
  EXPECT_EQ(readBytes(picture).size(), 16);
  const QString old = dir.filePath("old.ipynb");
  writeBytes(old, R"({"cells": [], "nbformat": 3, "nbformat_minor": 0})");
  EXPECT_TRUE(files->open(old).contains("nbformat 3 is not supported"));
}

TEST_F(Files, PythonFileOpensAsOneCellAndSavesAsANewNotebook) {
  const QString script = dir.filePath("kernel.py");
  const QByteArray text("import triton\nprint(1)\n");
  writeBytes(script, text);
  ASSERT_TRUE(files->open(script).isEmpty());
  EXPECT_EQ(model->cellCount(), 1);
  EXPECT_EQ(model->source(0), "import triton\nprint(1)\n");
  EXPECT_TRUE(files->currentPath().isEmpty()) << "Save must not write JSON over the script";
  savePathAnswer = dir.filePath("kernel");
  ASSERT_TRUE(files->save());
  EXPECT_EQ(suggestedPath, QFileInfo(dir.filePath("kernel.ipynb")).absoluteFilePath());
  EXPECT_TRUE(QFileInfo::exists(dir.filePath("kernel.ipynb"))) << "the .ipynb suffix is added";
  EXPECT_EQ(readBytes(script), text);
}

TEST_F(Files, ClosingWithUnsavedChangesAsksFirst) {
  const QString path = dir.filePath("nb.ipynb");
  ASSERT_TRUE(files->saveAs(path));
  window->show();
  EXPECT_TRUE(window->close()) << "nothing unsaved: no question";
  EXPECT_EQ(questions, 0);

  window->show();
  model->setSource(0, "changed");
  answer = FileController::UnsavedChoice::Cancel;
  EXPECT_FALSE(window->close());
  EXPECT_EQ(questions, 1);
  EXPECT_EQ(askedAbout, "nb.ipynb");
  EXPECT_TRUE(window->isVisible());

  answer = FileController::UnsavedChoice::Save;
  EXPECT_TRUE(window->close());
  EXPECT_TRUE(readBytes(path).contains("changed"));
}

TEST_F(Files, DiscardClosesWithoutWriting) {
  const QString path = dir.filePath("nb.ipynb");
  ASSERT_TRUE(files->saveAs(path));
  const QByteArray saved = readBytes(path);
  window->show();
  model->setSource(0, "throw me away");
  answer = FileController::UnsavedChoice::Discard;
  EXPECT_TRUE(window->close());
  EXPECT_EQ(readBytes(path), saved);
}

TEST_F(Files, SaveFailureIsReportedAndTheNotebookStaysDirty) {
  model->setSource(0, "keep me");
  QSignalSpy errors(files, &FileController::fileError);
  EXPECT_FALSE(files->saveAs("/nonexistent-folder-for-tilescope/nb.ipynb"));
  EXPECT_EQ(errors.count(), 1);
  EXPECT_TRUE(model->isDirty());
}

TEST_F(Files, RecentFilesListTheLatestFirstWithoutDuplicates) {
  const QString a = dir.filePath("a.ipynb");
  const QString b = dir.filePath("b.ipynb");
  ASSERT_TRUE(files->saveAs(a));
  ASSERT_TRUE(files->saveAs(b));
  ASSERT_TRUE(files->open(a).isEmpty());
  const QStringList recent = files->recentFiles();
  ASSERT_GE(recent.size(), 2);
  EXPECT_EQ(recent[0], QFileInfo(a).absoluteFilePath());
  EXPECT_EQ(recent[1], QFileInfo(b).absoluteFilePath());
  EXPECT_EQ(recent.count(QFileInfo(a).absoluteFilePath()), 1);
  QFile::remove(b);
  files->open(b);
  EXPECT_FALSE(files->recentFiles().contains(QFileInfo(b).absoluteFilePath())) << "a vanished file leaves the list";
}

TEST_F(Files, NewNotebookHasOneEmptyCodeCell) {
  model->setSource(0, "x");
  answer = FileController::UnsavedChoice::Discard;
  files->newNotebook();
  EXPECT_EQ(model->cellCount(), 1);
  EXPECT_EQ(model->source(0), "");
  EXPECT_FALSE(model->isDirty());
  EXPECT_EQ(files->displayName(), "Untitled.ipynb");
  EXPECT_EQ(window->notebookView()->cellCount(), 1);
}

TEST_F(Files, EveryExampleNotebookRoundTripsByteForByte) {
  const QDir examples(TILESCOPE_SOURCE_DIR "/examples");
  const QStringList notebooks = examples.entryList({"*.ipynb"}, QDir::Files, QDir::Name);
  ASSERT_GE(notebooks.size(), 2) << "examples/*.ipynb went missing";
  for (const QString& name : notebooks) {
    SCOPED_TRACE(name.toStdString());
    const QString original = examples.filePath(name);
    const QString first = dir.filePath("first-" + name);
    const QString second = dir.filePath("second-" + name);
    ASSERT_TRUE(files->open(original).isEmpty());
    const int cells = model->cellCount();
    ASSERT_TRUE(files->saveAs(first));
    // Load what was saved, save it again: the same bytes, and the same as the file in the repository.
    ASSERT_TRUE(files->open(first).isEmpty());
    EXPECT_EQ(model->cellCount(), cells);
    ASSERT_TRUE(files->saveAs(second));
    EXPECT_EQ(readBytes(second), readBytes(first));
    // The examples are kept in the layout Jupyter writes (sorted keys, one-space indent), which is
    // tilescope's: opening and saving one changes no byte.
    EXPECT_EQ(readBytes(first), readBytes(original));
  }
}

TEST_F(Files, NotebooksThatAreNotQuiteNotebooksAreRefusedAndLeftAlone) {
  ASSERT_TRUE(files->open(TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb").isEmpty());
  const QList<std::pair<const char*, QByteArray>> cases = {
      {"empty.ipynb", QByteArray()},
      {"binary.ipynb", QByteArray("\x00\xff\xfe\x01garbage\x00", 12)},
      {"array.ipynb", QByteArray("[1, 2, 3]")},
      {"cells-not-a-list.ipynb", QByteArray(R"({"cells": 7, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})")},
      {"future.ipynb", QByteArray(R"({"cells": [], "metadata": {}, "nbformat": 5, "nbformat_minor": 0})")},
      {"bad-cell.ipynb", QByteArray(R"({"cells": [{"cell_type": "widget", "source": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})")},
      {"wrong-types.ipynb", QByteArray(R"({"cells": [], "metadata": {}, "nbformat": "4", "nbformat_minor": 5})")},
      {"bad-output.ipynb", QByteArray(R"({"cells": [{"cell_type": "code", "source": [], "metadata": {}, "execution_count": 1,
                                          "outputs": [{"output_type": "error", "ename": 3, "evalue": [], "traceback": 1}]}],
                                          "metadata": {}, "nbformat": 4, "nbformat_minor": 5})")},
      // A number as the source used to open as an empty cell, saved as "source": [].
      {"source-number.ipynb", QByteArray(R"({"cells": [{"cell_type": "code", "source": 42, "metadata": {}, "execution_count": null,
                                             "outputs": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})")},
      {"policy-number.ipynb", QByteArray(R"({"cells": [], "metadata": {"tilescope": {"out_of_bounds": 1}}, "nbformat": 4, "nbformat_minor": 5})")},
      // 300,000 levels crashed the window on open; 100,000 opened, then Ctrl+S aborted.
      {"deep.ipynb", QByteArray(R"({"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {"deep": )") +
                         QByteArray(300'000, '[') + QByteArray(300'000, ']') + "}}"},
  };
  for (const auto& [name, bytes] : cases) {
    SCOPED_TRACE(name);
    const QString path = dir.filePath(name);
    writeBytes(path, bytes);
    const QDateTime modified = QFileInfo(path).lastModified();
    const QString error = files->open(path);
    EXPECT_FALSE(error.isEmpty()) << "opened as if it were a notebook";
    EXPECT_TRUE(error.contains(name)) << "the message names the file: " << error.toStdString();
    EXPECT_EQ(readBytes(path), bytes) << "the file was changed";
    EXPECT_EQ(QFileInfo(path).lastModified(), modified);
    EXPECT_EQ(model->cellCount(), 6) << "the open notebook is kept";
    EXPECT_TRUE(files->currentPath().endsWith("vector_add.ipynb"));
    EXPECT_FALSE(model->isDirty());
  }
}

// Ctrl+S on a notebook made read-only (0444) since it was opened used to replace it silently.
TEST_F(Files, CtrlSOnAReadOnlyFileIsRefusedAndTheWorkKept) {
  const QString path = dir.filePath("ro.ipynb");
  ASSERT_TRUE(files->saveAs(path));
  const QByteArray saved = readBytes(path);
  ASSERT_TRUE(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
  model->setSource(0, "unsaved work");
  window->show();
  QApplication::setActiveWindow(window.get());
  QSignalSpy errors(files, &FileController::fileError);
  QTest::keyClick(window.get(), Qt::Key_S, Qt::ControlModifier);
  ASSERT_EQ(errors.count(), 1) << "Ctrl+S did not try to save, or reported nothing";
  const QString error = errors.at(0).at(0).toString();
  EXPECT_TRUE(error.contains("ro.ipynb: the file is read-only (mode 0444)")) << error.toStdString();
  EXPECT_TRUE(window->noticeBar()->isShowing());
  EXPECT_EQ(readBytes(path), saved) << "the read-only file was replaced";
  EXPECT_EQ(QFileInfo(path).permissions() & (QFileDevice::WriteOwner | QFileDevice::WriteOther), QFileDevice::Permissions());
  EXPECT_TRUE(model->isDirty()) << "the unsaved work must stay marked unsaved";
  EXPECT_EQ(model->source(0), "unsaved work");
}

// Notices quote file names: one named like HTML used to be rendered as HTML, and its <img> made the
// notice read that path on the UI thread (a pipe froze the window).
TEST_F(Files, AFileNameThatLooksLikeHtmlIsShownAsText) {
  const QString previous = QDir::currentPath();
  ASSERT_TRUE(QDir::setCurrent(dir.path()));
  const QByteArray fifo = QFile::encodeName(dir.filePath("pipe"));
  ASSERT_EQ(::mkfifo(fifo.constData(), 0600), 0);
  const QString path = dir.filePath("<img src=pipe>.ipynb");
  writeBytes(path, "{ broken");
  window->resize(900, 600);
  window->show();
  tilescope::testing::PipeRescue rescue(fifo);
  const QString error = files->open(path);
  QApplication::processEvents();
  (void)window->grab();
  const bool stuck = rescue.rescued();
  rescue.finish();
  QDir::setCurrent(previous);
  EXPECT_FALSE(stuck) << "the notice opened the pipe its text names";
  EXPECT_TRUE(window->noticeBar()->isShowing());
  auto* label = window->noticeBar()->findChild<QLabel*>("noticeText");
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->textFormat(), Qt::PlainText);
  EXPECT_TRUE(label->text().contains("<img src=pipe>.ipynb")) << label->text().toStdString();
}
