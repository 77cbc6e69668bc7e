// Google Benchmark: the kernel inspector's speed targets (issue 19). Repainting the program grid of
// a 65,536-program launch (target: under 16 ms), one step of play through 4,096 traced programs
// (target: 30 steps per second or more, so under 33 ms), and opening the trace of a grouped matmul at
// 512x512 in the panel (target: under 1 s; our kernel, traced by the real engine at the start).
// Offscreen unless QT_QPA_PLATFORM says otherwise.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QListWidget>
#include <QTabWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/python/PythonExecutor.h"
#include "core/sim/Grid.h"
#include "core/sim/Trace.h"
#include "core/sim/TraceWriter.h"
#include "ui/viz/InspectorPanel.h"
#include "ui/viz/ProgramGridView.h"

namespace {

using tilescope::ui::InspectorPanel;
using tilescope::ui::KernelLaunch;

KernelLaunch launchOf(const std::string& bytes, const QString& kernel, qint64 x, qint64 y) {
  KernelLaunch l;
  l.kernel = kernel;
  l.grid[0] = x;
  l.grid[1] = y;
  l.backend = QStringLiteral("simulator");
  l.trace = QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
  return l;
}

// Waits until the panel has read the selected launch's trace (large ones are read on a pool thread).
void waitForTrace(InspectorPanel& panel) {
  while (panel.loading()) QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
}

// A synthetic trace: `programs` programs of a 1-D grid, all traced, each loading and storing a
// masked block of 64 lanes (what a vector copy records).
std::string syntheticTrace(int64_t gridX, int64_t gridY, int64_t traced) {
  using namespace tilescope::sim;
  LaunchTrace t;
  t.kernelName = "copy";
  t.grid = {gridX, gridY, 1};
  t.totalPrograms = gridX * gridY;
  t.droppedPrograms = t.totalPrograms - traced;
  t.policy = "synthetic";
  t.tensors = {{1, "x", tilescope::ir::DType::FP32, {gridX * gridY * 64}}, {2, "z", tilescope::ir::DType::FP32, {gridX * gridY * 64}}};
  t.args = {{"x_ptr", 1, tilescope::ir::DType::FP32, ""}, {"z_ptr", 2, tilescope::ir::DType::FP32, ""}};
  t.locations = {{"copy.py", 5, 9, 5, 30}, {"copy.py", 6, 5, 6, 30}};
  const Grid g{gridX, gridY, 1};
  for (int64_t id = 0; id < traced; ++id) {
    ProgramTrace p;
    p.pid = g.pidOf(id);
    p.linearId = id;
    for (MemOpKind kind : {MemOpKind::Load, MemOpKind::Store}) {
      MemAccessEvent e;
      e.kind = kind;
      e.location = kind == MemOpKind::Load ? 0 : 1;
      e.argIndex = kind == MemOpKind::Load ? 0 : 1;
      e.tensorId = e.argIndex + 1;
      e.shape = {64};
      for (int64_t l = 0; l < 64; ++l) e.offsets.push_back(id * 64 + l);
      e.mask.assign(64, 1);
      e.mask[63] = 0;
      p.events.push_back(std::move(e));
    }
    t.programs.push_back(std::move(p));
  }
  return TraceWriter::write(t);
}

void BM_GridRepaint65536(benchmark::State& state) {
  InspectorPanel panel;
  panel.resize(1100, 1300);
  panel.show();
  panel.showCell(QStringLiteral("c"));
  panel.addLaunch(QStringLiteral("c"), launchOf(syntheticTrace(256, 256, 256), QStringLiteral("copy"), 256, 256));
  waitForTrace(panel);
  QApplication::processEvents();
  auto* grid = panel.gridView();
  for (auto _ : state) grid->repaint();
  state.counters["cell_px"] = grid->cellSize();
}
BENCHMARK(BM_GridRepaint65536)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PlayStep4096(benchmark::State& state) {
  InspectorPanel panel;
  panel.resize(900, 900);
  panel.show();
  panel.showCell(QStringLiteral("c"));
  panel.addLaunch(QStringLiteral("c"), launchOf(syntheticTrace(4096, 1, 4096), QStringLiteral("copy"), 4096, 1));
  waitForTrace(panel);
  panel.tabs()->setCurrentIndex(1);  // the tiles tab: the heavier picture to redraw each step
  QApplication::processEvents();
  for (auto _ : state) {
    // What one tick of play does: the next program, its tiles and variables, and a repaint.
    panel.stepProgram(1);
    if (panel.currentProgram() == panel.document()->tracedPrograms().back()) panel.selectProgram({0, 0, 0});
    panel.repaint();
  }
}
BENCHMARK(BM_PlayStep4096)->Unit(benchmark::kMillisecond)->UseRealTime();


// Our grouped matmul (tests/cli/data/tiled_matmul_512.py: 512x512 fp16, 64x64x64 tiles, 64 programs,
// tl.swizzle2d with groups of 4) run by the real engine at the benchmark's start. `forInspector`:
// traced as the GUI's worker traces for the inspector (values too, 32 MiB cap); otherwise as
// `tilescope-cli run --trace` writes it (all programs, no values).
std::string groupedMatmulTrace(bool forInspector, std::string* error) {
  std::ifstream in(std::filesystem::path(TILESCOPE_SOURCE_DIR) / "tests/cli/data/tiled_matmul_512.py", std::ios::binary);
  const std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (code.empty()) {
    *error = "tests/cli/data/tiled_matmul_512.py not found under " TILESCOPE_SOURCE_DIR;
    return "";
  }
  QTemporaryDir dir;
  tilescope::python::PythonExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  std::string traced;
  if (forInspector) cb.launch = [&](const tilescope::host::LaunchRecord& l) { traced = l.trace; };
  else ex.launchSettings().traceDir = dir.path().toStdString();
  tilescope::host::CancelToken cancel;
  const auto o = ex.execute(code, "tiled_matmul_512", cb, cancel);
  if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) {
    *error = o.errorName + ": " + o.errorValue;
    return "";
  }
  if (forInspector) return traced;
  for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) {
    std::ifstream f(e.path(), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  *error = "no trace written";
  return "";
}

// Argument 0: the trace the worker sends the inspector; 1: the `run --trace` file.
void BM_OpenGroupedMatmul512(benchmark::State& state) {
  std::string error;
  const std::string bytes = groupedMatmulTrace(state.range(0) == 0, &error);
  if (bytes.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  InspectorPanel panel;
  panel.resize(900, 900);
  panel.show();
  panel.showCell(QStringLiteral("c"));
  const KernelLaunch launch = launchOf(bytes, QStringLiteral("tile_matmul"), 8, 8);
  for (auto _ : state) {
    // From the worker's message to every view drawn: read the trace (on a pool thread), build grid,
    // tiles, coverage and swizzle views, paint.
    panel.clearCell(QStringLiteral("c"));
    panel.addLaunch(QStringLiteral("c"), launch);
    waitForTrace(panel);
    panel.repaint();
  }
  state.counters["trace_MiB"] = static_cast<double>(bytes.size()) / (1 << 20);
  state.counters["programs"] = panel.document() ? static_cast<double>(panel.document()->tracedPrograms().size()) : 0;
}
BENCHMARK(BM_OpenGroupedMatmul512)->ArgName("run_trace")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

#include "ui/bench/UiBenchmarkMain.h"
