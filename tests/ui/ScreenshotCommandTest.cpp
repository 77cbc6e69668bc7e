// `tilescope --screenshot` is what docs and CI use to look at the app: test the real executable.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <cstdlib>
#include <string>

namespace {
int runShell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
