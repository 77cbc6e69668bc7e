// tilescope: the notebook GUI. Options are parsed before QApplication exists so that --help and
// --version work without a display.
#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>

#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookView.h"

namespace {
struct Options {
  std::string open;
  std::string screenshot;
  bool runAll = false;
  int timeoutSeconds = 120;
  bool presentation = false;
  int cell = 0;  // 1-based cell to select at start; 0 = the first
  int width = 0;  // window size from --size; 0 = the default
  int height = 0;
  std::string theme;  // "light" or "dark" for this run only (screenshots)
};

void printUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tilescope [NOTEBOOK.ipynb|SCRIPT.py] [--open FILE] [--run-all] [--screenshot PATH.png]\n"
               "                 [--size WxH] [--cell N]\n\n"
               "  --open FILE         open a notebook (.ipynb) or a Python file (.py) as a notebook\n"
               "  --run-all           run every cell after opening (with --screenshot: wait for the\n"
               "                      cells to finish first)\n"
               "  --timeout SECONDS   how long --run-all may take before giving up (default 120)\n"
               "  --screenshot PATH   render the main window to a PNG and exit (works without a display)\n"
               "  --presentation      start in presentation mode (large fonts, one cell at a time)\n"
               "  --cell N            select cell N (1-based) at start and scroll it into view, e.g. where\n"
               "                      a lesson continues\n"
               "  --size WxH          window size in pixels, e.g. 1600x1000 (default 1100x800, or the screen's\n"
               "                      size when that is smaller; always 1100x800 for --screenshot)\n"
               "  --theme light|dark  use this theme for this run\n"
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
    } else if (arg == "--run-all") {
      options.runAll = true;
    } else if (arg == "--presentation") {
      options.presentation = true;
    } else if (arg == "--theme") {
      options.theme = value("--theme");
      if (options.theme != "light" && options.theme != "dark") {
        std::fprintf(stderr, "tilescope: --theme takes 'light' or 'dark', not '%s'\n", options.theme.c_str());
        return 2;
      }
    } else if (arg == "--cell") {
      const std::string text = value("--cell");
      char* end = nullptr;
      const long cell = std::strtol(text.c_str(), &end, 10);
      if (!end || *end != '\0' || cell <= 0) {
        std::fprintf(stderr, "tilescope: --cell takes a cell number (1 or more), not '%s'\n", text.c_str());
        return 2;
      }
      options.cell = static_cast<int>(std::min(cell, 1000000L));
    } else if (arg == "--size") {
      const std::string text = value("--size");
      int width = 0, height = 0;
      char trailing = 0;
      if (std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &trailing) != 2 || width < 320 || height < 240 ||
          width > 16384 || height > 16384) {
        std::fprintf(stderr, "tilescope: --size takes WIDTHxHEIGHT in pixels (320x240 to 16384x16384), e.g. 1600x1000, "
                             "not '%s'\n", text.c_str());
        return 2;
      }
      options.width = width;
      options.height = height;
    } else if (arg == "--timeout") {
      const std::string text = value("--timeout");
      char* end = nullptr;
      const long seconds = std::strtol(text.c_str(), &end, 10);
      if (!end || *end != '\0' || seconds <= 0 || seconds > 86400) {
        std::fprintf(stderr, "tilescope: --timeout takes a number of seconds (1 to 86400), not '%s'\n", text.c_str());
        return 2;
      }
      options.timeoutSeconds = static_cast<int>(seconds);
    } else if (arg.rfind("-platform", 0) == 0) {
      ++i;  // Qt's own option, handled by QApplication
    } else if (arg.rfind("-", 0) == 0) {
      std::fprintf(stderr, "tilescope: unknown option '%s'\n", arg.c_str());
      printUsage(stderr);
      return 2;
    } else {
      options.open = arg;
    }
  }
  return -1;
}

// Runs the event loop until `done` fires or the time is up; false on timeout.
template <typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs) {
  QEventLoop loop;
  bool finished = false;
  QObject::connect(sender, signal, &loop, [&] {
    finished = true;
    loop.quit();
  });
  QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
  loop.exec();
  return finished;
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

  using tilescope::ui::MainWindow;
  MainWindow window;
  const bool scripted = !options.screenshot.empty();
  if (scripted) {
    // A scripted run must never stop at a question nobody is there to answer.
    window.fileController()->askAboutUnsavedChanges = [](const QString&) {
      return tilescope::ui::FileController::UnsavedChoice::Discard;
    };
  }
  if (!options.theme.empty()) {
    tilescope::ui::Preferences preferences = tilescope::ui::Preferences::load();
    preferences.theme = QString::fromStdString(options.theme);
    window.applyPreferences(preferences);
  }
  if (!options.open.empty()) {
    const QString error = window.openNotebook(QString::fromStdString(options.open));
    if (!error.isEmpty()) std::fprintf(stderr, "tilescope: %s\n", error.toLocal8Bit().constData());
  }
  // A picture has the documented default size whatever the screen (the offscreen one is 800x600).
  if (options.width > 0) window.resize(options.width, options.height);
  else if (scripted) window.resize(1100, 800);
  if (options.cell > 0) window.notebookView()->select(options.cell - 1);
  if (options.presentation) window.setPresentationMode(true);
  window.show();
  // Ask for keyboard focus: without a window manager (a bare X server, Xvfb, a kiosk) nobody else
  // activates the window, and until it is active no window shortcut (Ctrl+S, Ctrl+O, ...) fires.
  window.raise();
  window.activateWindow();
  if (!scripted) window.offerRecovery();

  int exitCode = 0;
  if (options.runAll) {
    auto* controller = window.notebookController();
    QTimer::singleShot(0, controller, &tilescope::ui::NotebookController::runAll);
    if (!waitFor(controller, &tilescope::ui::NotebookController::allRunsFinished, options.timeoutSeconds * 1000)) {
      std::fprintf(stderr, "tilescope: --run-all did not finish within %d s; %d cells still queued or running\n",
                   options.timeoutSeconds, controller->pendingRuns());
      exitCode = 3;
    } else {
      std::printf("run-all finished: %d cell(s) failed\n", controller->errorsSinceLastIdle());
    }
  }
  if (!scripted) return app.exec();

  // Wait for the device probe so the status bar in the picture is final.
  if (!window.deviceProbeFinished()) waitFor(&window, &MainWindow::deviceProbeDone, 20000);
  window.notebookView()->flushPendingOutputs();
  // Outputs of --run-all may have moved the selected cell: show it again. Then let paints, line
  // wrapping and the layout they change settle before taking the picture (the view keeps the cell
  // in place while cells above it grow).
  if (options.cell > 0) window.notebookView()->scrollToSelected();
  QEventLoop settle;
  QTimer::singleShot(300, &settle, &QEventLoop::quit);
  settle.exec();
  const QString path = QString::fromStdString(options.screenshot);
  if (!window.grab().save(path, "PNG")) {
    std::fprintf(stderr, "tilescope: cannot write the screenshot to %s\n", options.screenshot.c_str());
    return 1;
  }
  std::printf("screenshot saved to %s\n", options.screenshot.c_str());
  return exitCode;
}
