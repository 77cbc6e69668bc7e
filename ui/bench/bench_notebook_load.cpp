// Printed measurement: how long a 200-cell notebook takes from "open" to a laid-out, painted window
// (parse, model, 200 cell widgets with their editors, layout, one frame). Target: under 1 s.
// Run: tilescope_bench_notebook_load [cells] (offscreen unless QT_QPA_PLATFORM says otherwise).
#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/NotebookFile.h"
#include "ui/ExecutionClient.h"
#include "ui/FileController.h"
#include "ui/MainWindow.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"

namespace {
// Runs nothing: the measurement is about showing a notebook, not running it.
class IdleClient : public tilescope::ui::ExecutionClient {
public:
  void runCell(const QString&, const QString&, tilescope::ui::Backend) override {}
  void interrupt() override {}
  void restart() override {}
  bool isBusy() const override { return false; }
};

std::string writeNotebook(const QString& dir, int cells) {
  using namespace tilescope::notebook;
  Notebook nb;
  for (int i = 0; i < cells; ++i) {
    if (i % 2 == 0) {
      nb.appendCell(CellType::Markdown, "## Step " + std::to_string(i) + "\n\nEach **program** handles one block; "
                                        "the mask keeps the last one inside.\n\n- loads\n- stores\n");
    } else {
      Cell& code = nb.appendCell(CellType::Code,
                                 "@triton.jit\ndef kernel_" + std::to_string(i) +
                                     "(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    pid = tl.program_id(0)\n"
                                     "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n"
                                     "    x = tl.load(x_ptr + offs, mask=mask)\n    tl.store(y_ptr + offs, x * 2, mask=mask)\n");
      appendStreamOutput(code.outputs, "stdout", "max error: 0.0\n");
      code.executionCount = i;
    }
  }
  const std::string path = (dir + "/big.ipynb").toStdString();
  saveNotebook(nb, path);
  return path;
}
}  // namespace

int main(int argc, char** argv) {
  const int cells = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);  // leave the user's settings alone
  QApplication app(argc, argv);
  QTemporaryDir dir;
  const QString path = QString::fromStdString(writeNotebook(dir.path(), cells));

  std::vector<double> times;
  for (int run = 0; run < 5; ++run) {
    tilescope::ui::MainWindow window(new IdleClient, std::make_unique<tilescope::ui::RecoveryStore>(dir.filePath("r")));
    window.show();
    QApplication::processEvents();
    QElapsedTimer timer;
    timer.start();
    if (!window.openNotebook(path).isEmpty()) return 1;
    window.notebookView()->flushPendingOutputs();
    QApplication::processEvents();  // layout and the first paint
    window.grab();
    times.push_back(timer.nsecsElapsed() / 1e6);
    if (window.notebookView()->cellCount() != cells) return 1;
  }
  std::sort(times.begin(), times.end());
  std::printf("open + show a %d-cell notebook: median %.0f ms, min %.0f ms, max %.0f ms (5 runs, %s)\n", cells,
              times[times.size() / 2], times.front(), times.back(), qPrintable(QApplication::platformName()));
  return times[times.size() / 2] < 1000.0 ? 0 : 2;
}
