#pragma once
// The inspector's door into core (like ui/CoreFacade for the rest of ui/): one launch's trace, read
// from the worker's binary blob, and the views of core/viz built from it as Scenes. Widgets of
// ui/viz see only this class and core/viz/Scene.h, never the trace types themselves.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/viz/Scene.h"

namespace tilescope::sim {
struct LaunchTrace;
}
namespace tilescope::gpu {
struct LaunchTiming;
}

namespace tilescope::ui {

using ProgramId = std::array<int64_t, 3>;  // the trace's own type, so no conversions

class TraceDocument {
public:
  // Null with `error` set when the bytes are not a readable trace.
  static std::shared_ptr<TraceDocument> fromBytes(const QByteArray& bytes, QString* error);
  // A GPU launch with program timing and no trace: its grid, coloured by duration or SM
  // (core/viz/TimingColors). `line` is the launch's --program-timing JSON line; null, with `error`
  // set, when it is not one.
  static std::shared_ptr<TraceDocument> fromProgramTiming(const QByteArray& line, QString* error);
  bool hasTiming() const { return timing_ != nullptr; }
  ~TraceDocument();

  QString kernelName() const;
  ProgramId grid() const;
  qint64 totalPrograms() const;
  int gridDimensions() const;  // 1, 2 or 3
  // Traced programs in execution order.
  const std::vector<ProgramId>& tracedPrograms() const { return traced_; }
  bool isTraced(const ProgramId& pid) const;
  // The traced programs a pid filter in the seeds' condition syntax keeps (">1", "=0,=1",
  // "pid_0 > 1, pid_1 == 0"; see core/sim/PidFilter.h); nothing, with `error` set, when the
  // filter does not parse.
  std::optional<std::vector<ProgramId>> tracedMatching(const QString& filter, QString* error) const;
  QString policy() const;

  // The program grid: cell geometry and the colour of every program (by linear id).
  // Duration and Sm need program timing (hasTiming()); without it they colour as Pid.
  enum class Coloring { Pid, Order, OutputTile, Bytes, Masked, Duration, Sm };
  struct GridPicture {
    qint64 columns = 1, rows = 1;
    std::vector<viz::Color> colors;       // by linear id
    std::vector<uint8_t> hatched;         // by linear id
    QString legend;
  };
  GridPicture gridPicture(Coloring coloring, qint64 wrap) const;
  // Where program `pid` sits in the picture, and which program a cell shows (nothing outside).
  std::array<qint64, 3> cellOf(const ProgramId& pid, qint64 wrap) const;  // column, row, slice
  std::optional<ProgramId> programAt(qint64 column, qint64 row, qint64 slice, qint64 wrap) const;
  qint64 linearId(const ProgramId& pid) const;
  // One line about a program for tooltips: "pid (2, 0, 0): 2 loads, 1 store, 0 masked lanes, 32 bytes".
  QString programSummary(const ProgramId& pid) const;

  // The memory operations of a traced program, as titles ("load x_ptr (cell:3:9)") and as source
  // file ("<cell:ID>" for a notebook cell) and 1-based line.
  QStringList memoryOpTitles(const ProgramId& pid) const;
  std::vector<std::pair<QString, int>> memoryOpSources(const ProgramId& pid) const;
  // Named tiles of a program (the variable inspector): "name = value" text, in binding order.
  QStringList namedTiles(const ProgramId& pid) const;

  viz::Scene gridScene(Coloring coloring, const std::optional<ProgramId>& selected, qint64 slice) const;
  viz::Scene tilesScene(const ProgramId& pid, int op, QString* error) const;
  viz::Scene coverageScene() const;
  // Named tiles as heat maps at one loop step (core/viz/VariablesScene), and how many steps there are.
  viz::Scene variablesScene(const ProgramId& pid, qint64 step) const;
  qint64 loopSteps(const ProgramId& pid) const;
  viz::Scene swizzleScene(qint64 window) const;          // derived from the trace
  static viz::Scene swizzleScene(qint64 rows, qint64 cols, qint64 group, qint64 window);  // chosen grid
  QString coverageText() const;
  // The Dot (dots = true) and Reduce views: a program's dots or reductions in execution order, as
  // titles ("tl.dot line 12, K step 2 of 4") and source lines, and one of them drawn.
  QStringList computeTitles(const ProgramId& pid, bool dots) const;
  std::vector<std::pair<QString, int>> computeSources(const ProgramId& pid, bool dots) const;
  viz::Scene computeScene(const ProgramId& pid, bool dots, int index, QString* error) const;
  static QByteArray svgOf(const viz::Scene& scene);  // core/viz/SvgWriter's document

  // The stepping written for slides (core/viz/SteppingExport): an animated GIF when `target` ends in
  // .gif, else numbered PNGs in that folder. Safe off the UI thread (the document never changes).
  // `progress` (frames done, in all) returns false to cancel. "" when written, else what went wrong
  // ("cancelled" when cancelled); `frames` gets the number written.
  struct SteppingExport {
    bool byMemoryOps = false;         // one frame per memory operation of `program`, else per program
    bool gridView = false;            // the grid with the program outlined, else the tiles view
    std::vector<ProgramId> programs;  // stepping order (per program); empty: every traced program
    ProgramId program{0, 0, 0};
    int op = 0;                       // per program, tiles view: the memory operation shown
    Coloring coloring = Coloring::Pid;
    double fps = 2, scale = 1;
  };
  static bool gifExportAvailable();  // built with giflib
  QString exportStepping(const SteppingExport& request, const QString& target, const std::function<bool(qint64, qint64)>& progress,
                         qint64* frames = nullptr) const;

private:
  TraceDocument() = default;
  std::shared_ptr<const sim::LaunchTrace> trace_;
  std::shared_ptr<const gpu::LaunchTiming> timing_;  // GPU program timing, when the launch has it
  std::vector<ProgramId> traced_;
  std::unordered_map<qint64, std::array<qint64, 4>> stats_;  // linear id -> loads, stores, masked lanes, bytes
};

}  // namespace tilescope::ui
