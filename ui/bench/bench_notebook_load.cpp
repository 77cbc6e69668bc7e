// Google Benchmark: how long a large notebook takes from "open" to a laid-out, painted window (parse,
// model, a widget with its QScintilla editor for each cell in view and a placeholder for the others,
// layout, one frame), and how long one scrolling step takes to repaint in it (building the cells that
// come into view). Targets (issue 7): a 200-cell notebook opens in under 1 s;
// scrolling stays smooth (a frame well under 16 ms); a 5,000-cell notebook opens in under 3 s (issue 28:
// cell widgets are built as they come into view).
// Run: tilescope_bench_notebook_load [--benchmark_filter=...] (offscreen unless QT_QPA_PLATFORM says
// otherwise). Each iteration opens the notebook in a fresh, shown MainWindow.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/NotebookFile.h"
#include "ui/ExecutionClient.h"
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

QTemporaryDir& scratch() {
  static QTemporaryDir dir;
  return dir;
}

// Half markdown, half kernels with a stream output each, like a long tutorial.
QString writeNotebook(int cells) {
  using namespace tilescope::notebook;
  Notebook nb;
  for (int i = 0; i < cells; ++i) {
    if (i % 2 == 0) {
      nb.appendCell(CellType::Markdown, "## Step " + std::to_string(i) +
                                            "\n\nEach **program** handles one block; the mask keeps the last one "
                                            "inside.\n\n- loads\n- stores\n");
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
  const QString path = scratch().filePath(QStringLiteral("notebook-%1.ipynb").arg(cells));
  if (!saveNotebook(nb, path.toStdString()).empty()) return {};
  return path;
}

std::unique_ptr<tilescope::ui::MainWindow> shownWindow() {
  auto window = std::make_unique<tilescope::ui::MainWindow>(
      new IdleClient, std::make_unique<tilescope::ui::RecoveryStore>(scratch().filePath(QStringLiteral("recovery"))));
  window->resize(1280, 900);
  window->show();
  QApplication::processEvents();
  return window;
}

// Open + show: from openNotebook() to the first painted frame with every cell laid out.
void BM_OpenNotebook(benchmark::State& state) {
  const int cells = static_cast<int>(state.range(0));
  const QString path = writeNotebook(cells);
  if (path.isEmpty()) return state.SkipWithError("cannot write the notebook");
  double worstMs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto window = shownWindow();
    state.ResumeTiming();
    QElapsedTimer timer;
    timer.start();
    if (!window->openNotebook(path).isEmpty()) return state.SkipWithError("the notebook did not open");
    window->notebookView()->flushPendingOutputs();
    QApplication::processEvents();  // layout and the first paint
    benchmark::DoNotOptimize(window->grab());
    worstMs = std::max(worstMs, timer.nsecsElapsed() / 1e6);
    state.PauseTiming();
    if (window->notebookView()->cellCount() != cells) return state.SkipWithError("wrong cell count");
    window.reset();
    QApplication::processEvents();
    state.ResumeTiming();
  }
  state.counters["cells"] = cells;
  state.counters["worst_ms"] = worstMs;
}
BENCHMARK(BM_OpenNotebook)->Arg(5000)->Arg(200)->Arg(50)->Unit(benchmark::kMillisecond)->Iterations(5);

// One scroll step (a wheel notch's worth) and the repaint of the visible cells, down and back up
// through the whole notebook.
void BM_ScrollFrame(benchmark::State& state) {
  const int cells = static_cast<int>(state.range(0));
  const QString path = writeNotebook(cells);
  auto window = shownWindow();
  if (path.isEmpty() || !window->openNotebook(path).isEmpty()) return state.SkipWithError("the notebook did not open");
  QApplication::processEvents();
  QScrollBar* bar = window->notebookView()->verticalScrollBar();
  const int step = 120;
  int direction = 1;
  for (auto _ : state) {
    if (bar->value() + step * direction > bar->maximum() || bar->value() + step * direction < 0) direction = -direction;
    bar->setValue(bar->value() + step * direction);
    QApplication::processEvents();  // builds the cells that came into view
    window->notebookView()->viewport()->repaint();
  }
  state.counters["cells"] = cells;
  state.counters["scroll_range_px"] = bar->maximum();
}
BENCHMARK(BM_ScrollFrame)->Arg(200)->Unit(benchmark::kMillisecond);
}  // namespace

#include "ui/bench/UiBenchmarkMain.h"
