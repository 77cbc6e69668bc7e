// Google Benchmark: Run all of a long notebook of trivial cells in the real app, from the click to
// the last cell's output on screen: MainWindow, the real `tilescope-cli worker` process and its
// Python-subset runtime. Target (issue 28): 1,000 trivial cells in under 3 s (it used to grow with
// the square of the cell count: 1,000 cells took 69 s).
// BM_RunAll/N/0 runs with the widgets the app builds by itself (those in view); BM_RunAll/N/1 first
// builds every cell's widget, as after scrolling through the whole notebook.
// Run: tilescope_bench_notebook_run_all [--benchmark_filter=...] (offscreen unless QT_QPA_PLATFORM
// says otherwise).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QDeadlineTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "core/notebook/Notebook.h"
#include "ui/MainWindow.h"
#include "ui/NotebookController.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/RecoveryStore.h"
#include "ui/WorkerProcessClient.h"

namespace {
using tilescope::ui::WorkerProcessClient;

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (!done()) {
    if (deadline.hasExpired()) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  return true;
}

void BM_RunAll(benchmark::State& state) {
  const int cells = static_cast<int>(state.range(0));
  const bool buildEveryWidget = state.range(1) != 0;
  QTemporaryDir scratch;
  auto* worker = new WorkerProcessClient(WorkerProcessClient::defaultWorkerProgram());
  tilescope::ui::MainWindow window(worker, std::make_unique<tilescope::ui::RecoveryStore>(scratch.filePath("recovery")));
  window.resize(1280, 900);
  window.show();
  tilescope::notebook::Notebook nb;
  for (int i = 0; i < cells; ++i) nb.appendCell(tilescope::notebook::CellType::Code, "print(" + std::to_string(i) + ")");
  window.model()->reset(nb);
  tilescope::ui::NotebookView* view = window.notebookView();
  if (buildEveryWidget)
    for (int i = 0; i < cells; ++i) view->cellWidget(i);
  worker->start();
  if (!waitUntil([&] { return worker->state() == WorkerProcessClient::State::Idle; }, 20000))
    return state.SkipWithError("the worker did not start");
  auto* controller = window.notebookController();
  for (auto _ : state) {
    controller->runAll();
    if (!waitUntil([&] { return controller->pendingRuns() == 0; }, 600000)) return state.SkipWithError("Run all did not finish");
    view->flushPendingOutputs();
    QApplication::processEvents();  // the layout and paint of what changed
    state.PauseTiming();
    if (controller->errorsSinceLastIdle() != 0) return state.SkipWithError("a cell failed");
    const std::string last = window.model()->cell(cells - 1).outputs.dump();
    if (last.find(std::to_string(cells - 1)) == std::string::npos) return state.SkipWithError("the last cell printed nothing");
    state.ResumeTiming();
  }
  state.counters["cells"] = cells;
  state.counters["built_widgets"] = view->builtCellCount();
}
BENCHMARK(BM_RunAll)
    ->Args({100, 0})
    ->Args({500, 0})
    ->Args({1000, 0})
    ->Args({500, 1})
    ->Args({1000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime();
}  // namespace

#include "ui/bench/UiBenchmarkMain.h"
