#include "ui/viz/TraceDocument.h"

#include <algorithm>
#include <variant>

#include <sstream>

#include "core/gpu/runtime/ProgramTiming.h"
#include "core/sim/PidFilter.h"
#include "core/sim/TraceReader.h"
#include "core/viz/ComputeOps.h"
#include "core/viz/CoverageScene.h"
#include "core/viz/DotScene.h"
#include "core/viz/GridLayout.h"
#include "core/viz/GridScene.h"
#include "core/viz/ProgramStats.h"
#include "core/viz/ProgramTiles.h"
#include "core/viz/ReduceScene.h"
#include "core/viz/GifWriter.h"
#include "core/viz/SteppingExport.h"
#include "core/viz/SteppingFrames.h"
#include "core/viz/SvgWriter.h"
#include "core/viz/SwizzleScene.h"
#include "core/viz/TilesScene.h"
#include "core/viz/TimingColors.h"
#include "core/viz/TraceCoverage.h"
#include "core/viz/VariablesScene.h"

namespace tilescope::ui {

namespace {

viz::GridColoring toCore(TraceDocument::Coloring c) {
  switch (c) {
    case TraceDocument::Coloring::Pid: return viz::GridColoring::Pid;
    case TraceDocument::Coloring::Order: return viz::GridColoring::Order;
    case TraceDocument::Coloring::OutputTile: return viz::GridColoring::OutputTile;
    case TraceDocument::Coloring::Bytes: return viz::GridColoring::Bytes;
    case TraceDocument::Coloring::Masked: return viz::GridColoring::Masked;
    case TraceDocument::Coloring::Duration:
    case TraceDocument::Coloring::Sm: return viz::GridColoring::Pid;  // timing colours come from TimingColors
  }
  return viz::GridColoring::Pid;
}

sim::Grid gridOf(const sim::LaunchTrace& t) { return {t.grid[0], t.grid[1], t.grid[2]}; }

}  // namespace

TraceDocument::~TraceDocument() = default;

std::shared_ptr<TraceDocument> TraceDocument::fromBytes(const QByteArray& bytes, QString* error) {
  sim::TraceReader::Result r = sim::TraceReader::read(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
  if (!r.trace) {
    if (error) *error = QString::fromStdString(r.error);
    return nullptr;
  }
  std::shared_ptr<TraceDocument> doc(new TraceDocument());
  doc->trace_ = std::make_shared<const sim::LaunchTrace>(std::move(*r.trace));
  for (const sim::ProgramTrace& p : doc->trace_->programs) doc->traced_.push_back(p.pid);
  for (const viz::ProgramStats& st : viz::programStats(*doc->trace_))
    doc->stats_[st.linearId] = {st.loads, st.stores, st.maskedLanes, st.bytesMoved};
  return doc;
}

std::shared_ptr<TraceDocument> TraceDocument::fromProgramTiming(const QByteArray& line, QString* error) {
  std::vector<gpu::LaunchTiming> launches;
  try {
    std::istringstream in(line.toStdString());
    launches = gpu::readProgramTiming(in, "program timing");
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return nullptr;
  }
  if (launches.size() != 1) {
    if (error) *error = QStringLiteral("program timing: expected one launch, found %1").arg(launches.size());
    return nullptr;
  }
  std::shared_ptr<TraceDocument> doc(new TraceDocument());
  auto timing = std::make_shared<gpu::LaunchTiming>(std::move(launches.front()));
  auto trace = std::make_shared<sim::LaunchTrace>();
  trace->kernelName = timing->kernel;
  trace->grid = {timing->grid[0], timing->grid[1], timing->grid[2]};
  trace->totalPrograms = trace->grid[0] * trace->grid[1] * trace->grid[2];
  trace->policy = "GPU launch with program timing: no trace (run the cell on the simulator to see tiles and coverage)";
  doc->trace_ = std::move(trace);
  doc->timing_ = std::move(timing);
  return doc;
}

QString TraceDocument::kernelName() const { return QString::fromStdString(trace_->kernelName); }
ProgramId TraceDocument::grid() const { return trace_->grid; }
qint64 TraceDocument::totalPrograms() const { return trace_->totalPrograms; }
QString TraceDocument::policy() const { return QString::fromStdString(trace_->policy); }
int TraceDocument::gridDimensions() const { return viz::GridLayout(gridOf(*trace_)).dimensions(); }
bool TraceDocument::isTraced(const ProgramId& pid) const { return trace_->findProgram(pid) != nullptr; }
std::optional<std::vector<ProgramId>> TraceDocument::tracedMatching(const QString& filter, QString* error) const {
  const sim::PidFilterParseResult parsed = sim::PidFilter::parse(filter.toStdString());
  if (!parsed.filter) {
    if (error) *error = QStringLiteral("column %1: %2").arg(parsed.column).arg(QString::fromStdString(parsed.error));
    return std::nullopt;
  }
  std::vector<ProgramId> out;
  for (const ProgramId& pid : traced_)
    if (parsed.filter->matches(pid)) out.push_back(pid);
  return out;
}

QByteArray TraceDocument::svgOf(const viz::Scene& scene) { return QByteArray::fromStdString(viz::SvgWriter::write(scene)); }

qint64 TraceDocument::linearId(const ProgramId& pid) const { return gridOf(*trace_).linearOf(pid); }

TraceDocument::GridPicture TraceDocument::gridPicture(Coloring coloring, qint64 wrap) const {
  const viz::GridLayout layout(gridOf(*trace_), wrap);
  const bool byTiming = timing_ && (coloring == Coloring::Duration || coloring == Coloring::Sm);
  viz::ProgramColors pc = byTiming ? viz::timingColors(*timing_, coloring == Coloring::Sm ? viz::TimingColoring::Sm : viz::TimingColoring::Duration)
                                   : viz::programColors(*trace_, toCore(coloring));
  return {layout.columns(), layout.rows(), std::move(pc.byLinearId), std::move(pc.hatched), QString::fromStdString(pc.legend)};
}

std::array<qint64, 3> TraceDocument::cellOf(const ProgramId& pid, qint64 wrap) const {
  const viz::GridCell c = viz::GridLayout(gridOf(*trace_), wrap).cellOf(pid);
  return {c.column, c.row, c.slice};
}

std::optional<ProgramId> TraceDocument::programAt(qint64 column, qint64 row, qint64 slice, qint64 wrap) const {
  return viz::GridLayout(gridOf(*trace_), wrap).pidAt({column, row, slice});
}

QString TraceDocument::programSummary(const ProgramId& pid) const {
  const QString name = QStringLiteral("pid (%1, %2, %3)").arg(pid[0]).arg(pid[1]).arg(pid[2]);
  if (timing_) {
    const std::string timing = viz::programTimingText(*timing_, pid);
    return name + QStringLiteral(": ") + (timing.empty() ? QStringLiteral("no timing") : QString::fromStdString(timing));
  }
  const auto it = stats_.find(linearId(pid));
  if (it == stats_.end()) return name + QStringLiteral(": not traced");
  const auto& [loads, stores, masked, bytes] = it->second;
  return name + QStringLiteral(": %1 loads, %2 stores, %3 masked-off lanes, %4 bytes moved").arg(loads).arg(stores).arg(masked).arg(bytes);
}

QStringList TraceDocument::memoryOpTitles(const ProgramId& pid) const {
  QStringList out;
  if (const sim::ProgramTrace* p = trace_->findProgram(pid))
    for (const viz::MemoryOp& op : viz::memoryOps(*trace_, *p)) out << QString::fromStdString(op.title());
  return out;
}

std::vector<std::pair<QString, int>> TraceDocument::memoryOpSources(const ProgramId& pid) const {
  std::vector<std::pair<QString, int>> out;
  if (const sim::ProgramTrace* p = trace_->findProgram(pid))
    for (const viz::MemoryOp& op : viz::memoryOps(*trace_, *p)) out.emplace_back(QString::fromStdString(op.file), op.line);
  return out;
}

QStringList TraceDocument::namedTiles(const ProgramId& pid) const {
  QStringList out;
  const sim::ProgramTrace* p = trace_->findProgram(pid);
  if (!p) return out;
  for (const viz::NamedTile& t : viz::namedTiles(*trace_, *p)) {
    std::vector<std::string> elements;
    const int64_t n = std::min<int64_t>(t.value->numel(), 256);
    for (int64_t i = 0; i < n; ++i)
      elements.push_back(t.value->isPointer()                ? std::to_string(t.value->asInt(i))
                         : ir::isBool(t.value->dtype())       ? std::string(t.value->asBool(i) ? "True" : "False")
                                                              : viz::formatNumber(t.value->asDouble(i), t.value->hasFloatStorage()));
    const std::string text = n < t.value->numel() ? "(" + std::to_string(t.value->numel()) + " elements, first 256) " +
                                                        viz::formatTile(elements, {n})
                                                  : viz::formatTile(elements, t.value->shape());
    out << QString::fromStdString(t.name + " = " + text);
  }
  return out;
}

viz::Scene TraceDocument::gridScene(Coloring coloring, const std::optional<ProgramId>& selected, qint64 slice) const {
  viz::GridViewOptions o;
  o.coloring = toCore(coloring);
  o.selected = selected;
  o.slice = slice;
  if (timing_ && (coloring == Coloring::Duration || coloring == Coloring::Sm))
    return viz::timingGridScene(*timing_, coloring == Coloring::Sm ? viz::TimingColoring::Sm : viz::TimingColoring::Duration, o);
  return viz::gridScene(*trace_, o);
}

viz::Scene TraceDocument::tilesScene(const ProgramId& pid, int op, QString* error) const {
  std::string e;
  viz::Scene s = viz::tilesScene(*trace_, pid, static_cast<size_t>(std::max(op, 0)), &e);
  if (error) *error = QString::fromStdString(e);
  return s;
}

viz::Scene TraceDocument::coverageScene() const { return viz::coverageScene(*trace_); }
viz::Scene TraceDocument::variablesScene(const ProgramId& pid, qint64 step) const { return viz::variablesScene(*trace_, pid, step); }
qint64 TraceDocument::loopSteps(const ProgramId& pid) const { return viz::bindingSteps(*trace_, pid); }
viz::Scene TraceDocument::swizzleScene(qint64 window) const { return viz::swizzleSceneFromTrace(*trace_, window); }
viz::Scene TraceDocument::swizzleScene(qint64 rows, qint64 cols, qint64 group, qint64 window) {
  return viz::swizzleScene({rows, cols, group, window, cols});
}
QString TraceDocument::coverageText() const { return QString::fromStdString(viz::traceCoverage(*trace_).render()); }

QStringList TraceDocument::computeTitles(const ProgramId& pid, bool dots) const {
  QStringList out;
  if (const sim::ProgramTrace* p = trace_->findProgram(pid))
    for (const viz::ComputeOp& op : viz::computeOps(*trace_, *p, dots)) out << QString::fromStdString(op.title);
  return out;
}

std::vector<std::pair<QString, int>> TraceDocument::computeSources(const ProgramId& pid, bool dots) const {
  std::vector<std::pair<QString, int>> out;
  if (const sim::ProgramTrace* p = trace_->findProgram(pid))
    for (const viz::ComputeOp& op : viz::computeOps(*trace_, *p, dots)) out.emplace_back(QString::fromStdString(op.file), op.line);
  return out;
}

viz::Scene TraceDocument::computeScene(const ProgramId& pid, bool dots, int index, QString* error) const {
  std::string e;
  const size_t i = static_cast<size_t>(std::max(index, 0));
  viz::Scene s = dots ? viz::dotScene(*trace_, pid, i, &e) : viz::reduceScene(*trace_, pid, i, &e);
  if (error) *error = QString::fromStdString(e);
  return s;
}

bool TraceDocument::gifExportAvailable() { return viz::GifWriter::available(); }

QString TraceDocument::exportStepping(const SteppingExport& request, const QString& target,
                                     const std::function<bool(qint64, qint64)>& progress, qint64* frames) const {
  viz::SteppingOptions o;
  o.unit = request.byMemoryOps ? viz::SteppingUnit::Ops : viz::SteppingUnit::Programs;
  o.view = request.gridView ? viz::SteppingView::Grid : viz::SteppingView::Tiles;
  o.programs = request.programs;
  o.program = request.program;
  o.op = static_cast<size_t>(std::max(0, request.op));
  o.coloring = toCore(request.coloring);
  std::string error;
  const std::optional<viz::SteppingFrames> steps = viz::SteppingFrames::make(*trace_, std::move(o), &error);
  if (!steps) return QString::fromStdString(error);
  const viz::SteppingExportResult r = viz::exportStepping(*steps, target.toStdString(), {request.fps, request.scale},
                                                          [&progress](size_t done, size_t total) {
                                                            return !progress || progress(static_cast<qint64>(done), static_cast<qint64>(total));
                                                          });
  if (frames) *frames = r.ok ? static_cast<qint64>(steps->count()) : 0;
  return r.ok ? QString() : QString::fromStdString(r.error);
}

}  // namespace tilescope::ui
