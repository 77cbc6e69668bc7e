// Google Benchmark: the kernel inspector's speed targets (issue 19). Repainting the program grid of
// a 65,536-program launch (target: under 16 ms), one step of play through 4,096 traced programs
// (target: 30 steps per second or more, so under 33 ms), and opening the practitioners' guide's
// grouped-matmul trace at 512x512 in the panel (target: under 1 s). Offscreen unless QT_QPA_PLATFORM
// says otherwise. The seed is read from TILESCOPE_SEEDS_DIR.
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

#include "core/host/HostExecutor.h"
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
  QApplication::processEvents();
  auto* grid = panel.gridView();
  for (auto _ : state) grid->repaint();
  state.counters["cell_px"] = grid->cellSize();
}
BENCHMARK(BM_GridRepaint65536)->Unit(benchmark::kMillisecond);

void BM_PlayStep4096(benchmark::State& state) {
  InspectorPanel panel;
  panel.resize(900, 900);
  panel.show();
  panel.showCell(QStringLiteral("c"));
  panel.addLaunch(QStringLiteral("c"), launchOf(syntheticTrace(4096, 1, 4096), QStringLiteral("copy"), 4096, 1));
  panel.tabs()->setCurrentIndex(1);  // the tiles tab: the heavier picture to redraw each step
  QApplication::processEvents();
  for (auto _ : state) {
    // What one tick of play does: the next program, its tiles and variables, and a repaint.
    panel.stepProgram(1);
    if (panel.currentProgram() == panel.document()->tracedPrograms().back()) panel.selectProgram({0, 0, 0});
    panel.repaint();
  }
}
BENCHMARK(BM_PlayStep4096)->Unit(benchmark::kMillisecond);

std::string seedSpan(const std::string& text, const std::string& firstLine, const std::string& lastLine) {
  const size_t def = text.find(firstLine);
  if (def == std::string::npos) return "";
  const size_t begin = text.rfind("@triton.jit", def);
  const size_t end = text.find(lastLine, def);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return text.substr(begin, end + lastLine.size() - begin) + "\n";
}

// The grouped-matmul trace of the guide's 512x512 test (bs=64 as its benchmark uses: 64 programs),
// recorded as `tilescope-cli run --trace` does.
std::string groupedMatmulTrace(std::string* error) {
  std::ifstream in(std::filesystem::path(TILESCOPE_SEEDS_DIR) / "triton-practitioners-guide.md", std::ios::binary);
  const std::string guide((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string helpers = seedSpan(guide, "def get_1d_offset(", "< max_1)");
  const std::string kernel = seedSpan(guide, "def grouped_matmul_k(", "tl.store(c, acc, mask=mask)");
  if (helpers.empty() || kernel.empty()) {
    *error = "seed tutorial not found in " TILESCOPE_SEEDS_DIR;
    return "";
  }
  QTemporaryDir dir;
  tilescope::host::HostExecutor ex;
  ex.launchSettings().traceDir = dir.path().toStdString();
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  const std::string code = "import torch\nimport triton\nimport triton.language as tl\n" + helpers + kernel +
                           "torch.manual_seed(0)\na = torch.randn((512, 512), dtype=torch.float16)\n"
                           "b = torch.randn((512, 512), dtype=torch.float16)\nc = torch.empty((512, 512), dtype=torch.float16)\n"
                           "grouped_matmul_k[(8, 8)](a, b, c, 512, 512, 512, a.stride(0), a.stride(1), b.stride(0), b.stride(1),\n"
                           "    c.stride(0), c.stride(1), bm=64, bn=64, bk=64, group_sz=4)\n";
  const auto o = ex.execute(code, "setup", cb, cancel);
  if (o.status != tilescope::host::ExecutionOutcome::Status::Ok) {
    *error = o.errorName + ": " + o.errorValue;
    return "";
  }
  for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) {
    std::ifstream f(e.path(), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }
  *error = "no trace written";
  return "";
}

void BM_OpenGroupedMatmul512(benchmark::State& state) {
  std::string error;
  const std::string bytes = groupedMatmulTrace(&error);
  if (bytes.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  InspectorPanel panel;
  panel.resize(900, 900);
  panel.show();
  panel.showCell(QStringLiteral("c"));
  const KernelLaunch launch = launchOf(bytes, QStringLiteral("grouped_matmul_k"), 8, 8);
  for (auto _ : state) {
    // From the worker's message to every view drawn: read the trace, build grid, tiles, coverage
    // and swizzle views, paint.
    panel.clearCell(QStringLiteral("c"));
    panel.addLaunch(QStringLiteral("c"), launch);
    panel.repaint();
  }
  state.counters["trace_MiB"] = static_cast<double>(bytes.size()) / (1 << 20);
}
BENCHMARK(BM_OpenGroupedMatmul512)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

#include "ui/bench/UiBenchmarkMain.h"
