// `tilescope --screenshot` is what docs and CI use to look at the app: test the real executable.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <cstdlib>
#include <string>
#include <utility>

namespace {
int runShell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs a command and returns its exit code and output.
std::pair<int, std::string> runCapturing(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, output};
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Settings and recovery copies of these runs stay inside the test's folder.
std::string isolatedEnvironment(const QTemporaryDir& dir) {
  return "XDG_CONFIG_HOME=" + dir.filePath("config").toStdString() + " XDG_DATA_HOME=" + dir.filePath("data").toStdString() +
         " QT_QPA_PLATFORM=offscreen TILESCOPE_WORKER_TEST_EXECUTOR=1 ";
}

std::string notebookWithCells(const QTemporaryDir& dir, const std::string& cellsJson) {
  const QString path = dir.filePath("run.ipynb");
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(("{\"cells\": [" + cellsJson + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}").c_str());
  return path.toStdString();
}

void expectWindowPicture(const QString& path) {
  QImage image(path);
  ASSERT_FALSE(image.isNull()) << "not a readable PNG: " << path.toStdString();
  EXPECT_GE(image.width(), 800);
  EXPECT_GE(image.height(), 600);
}
}  // namespace

TEST(ScreenshotCommand, RendersTheExampleOffscreen) {
  QTemporaryDir dir;
  const QString png = dir.filePath("offscreen.png");
  const std::string command = "QT_QPA_PLATFORM=offscreen " + std::string(TILESCOPE_GUI_PATH) + " --open " +
                              TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb --screenshot " + png.toStdString() +
                              " >/dev/null 2>&1";
  ASSERT_EQ(runShell(command), 0);
  expectWindowPicture(png);
}

TEST(ScreenshotCommand, RendersUnderXvfb) {
  if (runShell("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  QTemporaryDir dir;
  const QString png = dir.filePath("xvfb.png");
  const std::string command = "env -u QT_QPA_PLATFORM xvfb-run -a -s '-screen 0 1280x900x24' " +
                              std::string(TILESCOPE_GUI_PATH) + " --screenshot " + png.toStdString() +
                              " >/dev/null 2>&1";
  ASSERT_EQ(runShell(command), 0);
  expectWindowPicture(png);
}

TEST(ScreenshotCommand, HelpNeedsNoDisplay) {
  const std::string command = "env -u DISPLAY -u QT_QPA_PLATFORM " + std::string(TILESCOPE_GUI_PATH) +
                              " --help 2>&1 | grep -q -- '--screenshot'";
  EXPECT_EQ(runShell(command), 0);
}

TEST(ScreenshotCommand, RunAllRunsEveryCellBeforeTheScreenshot) {
  QTemporaryDir dir;
  const std::string notebook = notebookWithCells(
      dir, R"({"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# Title"]},
             {"cell_type": "code", "id": "a", "metadata": {}, "source": ["print one"], "outputs": [], "execution_count": null},
             {"cell_type": "code", "id": "b", "metadata": {}, "source": ["print two"], "outputs": [], "execution_count": null})");
  const QString png = dir.filePath("ran.png");
  const auto [code, output] = runCapturing(isolatedEnvironment(dir) + TILESCOPE_GUI_PATH + " --open " + notebook +
                                           " --run-all --screenshot " + png.toStdString());
  ASSERT_EQ(code, 0) << output;
  EXPECT_NE(output.find("run-all finished: 0 cell(s) failed"), std::string::npos) << output;
  expectWindowPicture(png);
}

TEST(ScreenshotCommand, RunAllGivesUpAfterTheTimeout) {
  QTemporaryDir dir;
  const std::string notebook = notebookWithCells(
      dir, R"({"cell_type": "code", "id": "a", "metadata": {}, "source": ["loop forever"], "outputs": [], "execution_count": null})");
  const QString png = dir.filePath("timeout.png");
  const auto [code, output] = runCapturing(isolatedEnvironment(dir) + TILESCOPE_GUI_PATH + " --open " + notebook +
                                           " --run-all --timeout 1 --screenshot " + png.toStdString());
  EXPECT_EQ(code, 3) << output;
  EXPECT_NE(output.find("did not finish within 1 s"), std::string::npos) << output;
  expectWindowPicture(png);  // the picture still shows how far it got
}

TEST(ScreenshotCommand, SizeSetsTheWindowSize) {
  QTemporaryDir dir;
  const QString png = dir.filePath("sized.png");
  const std::string command = isolatedEnvironment(dir) + std::string(TILESCOPE_GUI_PATH) + " --open " +
                              TILESCOPE_SOURCE_DIR "/examples/vector_add.ipynb --size 1600x1000 --screenshot " +
                              png.toStdString() + " >/dev/null 2>&1";
  ASSERT_EQ(runShell(command), 0);
  const QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), QSize(1600, 1000));
}

TEST(ScreenshotCommand, ABadSizeIsRefusedWithTheFormatToUse) {
  QTemporaryDir dir;
  const auto [code, output] = runCapturing(isolatedEnvironment(dir) + std::string(TILESCOPE_GUI_PATH) +
                                           " --size 1600 --screenshot " + dir.filePath("x.png").toStdString());
  EXPECT_EQ(code, 2);
  EXPECT_NE(output.find("WIDTHxHEIGHT"), std::string::npos) << output;
}
