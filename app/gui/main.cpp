// tilescope: the notebook GUI. Options are parsed before QApplication exists so that --help and
// --version work without a display.
#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ui/MainWindow.h"

namespace {
struct Options {
  std::string open;
  std::string screenshot;
};

void printUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tilescope [NOTEBOOK.ipynb|SCRIPT.py] [--open FILE] [--screenshot PATH.png]\n\n"
               "  --open FILE         open a notebook (.ipynb) or a Python file (.py) as a notebook\n"
               "  --screenshot PATH   render the main window to a PNG and exit (works without a display)\n"
               "  --version           print the version\n");
}

// Returns -1 to continue, or an exit code.
int parseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tilescope: %s needs a value\n", name);
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      printUsage(stdout);
      return 0;
    } else if (arg == "--version") {
      std::printf("tilescope %s\n", TILESCOPE_VERSION);
      return 0;
    } else if (arg == "--open") {
      options.open = value("--open");
    } else if (arg == "--screenshot") {
      options.screenshot = value("--screenshot");
    } else if (arg.rfind("-", 0) == 0 && arg.rfind("-platform", 0) != 0) {
      std::fprintf(stderr, "tilescope: unknown option '%s'\n", arg.c_str());
      printUsage(stderr);
      return 2;
    } else if (arg.rfind("-platform", 0) == 0) {
      ++i;  // Qt's own option, handled by QApplication
    } else {
      options.open = arg;
    }
  }
  return -1;
}
}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parseOptions(argc, argv, options); code >= 0) return code;
  // A screenshot needs no screen: fall back to the offscreen platform when there is no display.
  if (!options.screenshot.empty() && !std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY") &&
      !std::getenv("WAYLAND_DISPLAY"))
    setenv("QT_QPA_PLATFORM", "offscreen", 1);

  QApplication app(argc, argv);
  QApplication::setApplicationName("tilescope");
  QApplication::setOrganizationName("tilescope");
  QApplication::setApplicationVersion(TILESCOPE_VERSION);

  tilescope::ui::MainWindow window;
  if (!options.open.empty()) {
    const QString error = window.openNotebook(QString::fromStdString(options.open));
    if (!error.isEmpty()) std::fprintf(stderr, "tilescope: %s\n", error.toLocal8Bit().constData());
  }
  window.show();
  if (options.screenshot.empty()) return app.exec();

  // Wait for the device probe so the status bar in the picture is final.
  if (!window.deviceProbeFinished()) {
    QEventLoop loop;
    QObject::connect(&window, &tilescope::ui::MainWindow::deviceProbeDone, &loop, &QEventLoop::quit);
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    loop.exec();
  }
  QApplication::processEvents();
  const QString path = QString::fromStdString(options.screenshot);
  if (!window.grab().save(path, "PNG")) {
    std::fprintf(stderr, "tilescope: cannot write the screenshot to %s\n", options.screenshot.c_str());
    return 1;
  }
  std::printf("screenshot saved to %s\n", options.screenshot.c_str());
  return 0;
}
