// tilescope-cli viz: draws the inspector's views of a trace headless (PNG or SVG), for docs, tests
// and CI screenshots. The pictures are the same Scenes the GUI's inspector paints (core/viz).
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "core/sim/Grid.h"
#include "core/sim/TraceReader.h"
#include "core/viz/ComputeOps.h"
#include "core/viz/CoverageScene.h"
#include "core/viz/DotScene.h"
#include "core/viz/GridScene.h"
#include "core/sim/PidFilter.h"
#include "core/viz/PngWriter.h"
#include "core/viz/ProgramTiles.h"
#include "core/viz/ReduceScene.h"
#include "core/viz/SteppingExport.h"
#include "core/viz/SteppingFrames.h"
#include "core/viz/SvgWriter.h"
#include "core/viz/Swizzle.h"
#include "core/viz/SwizzleScene.h"
#include "core/viz/TileHeatMap.h"
#include "core/viz/TilesScene.h"
#include "core/viz/TimelineScene.h"
#include "core/viz/TimingColors.h"
#include "core/viz/TraceCoverage.h"
#include "core/viz/TraceTileOrder.h"

namespace tilescope::cli {

namespace {

const char* kUsage =
    "usage: tilescope-cli viz [TRACE.tstrace] --view grid|tiles|coverage|swizzle|dot|reduce [options] --out FILE.png|FILE.svg\n"
    "       tilescope-cli viz TIMING.jsonl --view timeline [--launch N] --out FILE.png|FILE.svg\n"
    "       tilescope-cli viz TRACE --view tiles|grid --animate programs|ops [--fps N] --out FILE.gif|DIR/\n\n"
    "Draws one inspector view of a trace written by 'run --trace DIR' and prints what it shows.\n"
    "  --view NAME        grid: the program grid; tiles: offsets/mask/values of one program's memory\n"
    "                     operation; coverage: which program wrote each output element; swizzle: output\n"
    "                     tiles in processing order; timeline: a GPU run's --program-timing file, one row\n"
    "                     per SM with a bar per program; dot: one tl.dot's A, B and accumulator tiles;\n"
    "                     reduce: one reduction's input, reduced axis and result\n"
    "  --launch N         the N-th launch of the timing file, from 1 (timeline). Default 1\n"
    "  --pid X[,Y,Z]      the program (tiles, dot, reduce; outlined in grid). Default: the first traced program\n"
    "  --op N             the program's N-th memory operation, from 1 (tiles). Default 1\n"
    "  --step K           the program's K-th dot (a matmul's K step) or reduction, from 1 (dot, reduce). Default 1\n"
    "  --color NAME       grid colouring: pid, order, tile, bytes, masked. Default pid. A GPU run's\n"
    "                     --program-timing file instead of a trace: duration or sm (with --launch N)\n"
    "  --slice Z          pid_2 slice of a 3-D grid (grid). Default 0\n"
    "  --window W         programs counted as running together (swizzle). Default 9\n"
    "  --tiles RxC        swizzle without a trace: row-major and grouped order of an RxC tile grid\n"
    "  --group G          group size for --tiles (default 3); --k-blocks K blocks along K (default: C)\n"
    "  --out FILE         .png or .svg; without it only the text is printed\n"
    "  --scale S          PNG pixels per unit (default 1; 2 for slides)\n"
    "  --animate WHAT     stepping for slides: programs (one frame per traced program, in execution order;\n"
    "                     tiles or grid view) or ops (one frame per memory operation of --pid; tiles view).\n"
    "                     --out F.gif writes an animated GIF (needs giflib), --out DIR/ a PNG sequence\n"
    "                     DIR/frame-0001.png ... in a new or empty folder\n"
    "  --fps N            frames per second of the GIF (default 2)\n"
    "  --where FILTER     with --animate programs: only programs matching a pid filter (\">1\", \"pid_0 > 1, pid_1 == 0\")\n"
    "Exit code: 0 on success, 1 when the trace cannot be read or the view not drawn, 2 on bad usage.\n";

std::optional<std::array<int64_t, 3>> parsePid(std::string text) {
  for (char& c : text)
    if (c == '(' || c == ')') c = ' ';
  std::array<int64_t, 3> pid{0, 0, 0};
  size_t pos = 0;
  for (int axis = 0; axis < 3 && pos <= text.size(); ++axis) {
    const size_t comma = text.find(',', pos);
    const std::string part = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    try {
      size_t used = 0;
      pid[axis] = std::stoll(part, &used);
      if (part.find_first_not_of(" ", used) != std::string::npos || pid[axis] < 0) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (comma == std::string::npos) return pid;
    pos = comma + 1;
  }
  return std::nullopt;
}

std::optional<int64_t> parseCount(const std::string& text) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used != text.size() || v < 0) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string orderText(const std::vector<std::vector<int64_t>>& order) {
  std::string s = "[";
  for (size_t m = 0; m < order.size(); ++m) {
    s += m ? ",[" : "[";
    for (size_t n = 0; n < order[m].size(); ++n) s += (n ? "," : "") + std::to_string(order[m][n]);
    s += "]";
  }
  return s + "]";
}

std::string tileText(const sim::TileRef& t, const ir::Shape& shape) {
  if (!t) return "not recorded (" + std::to_string(ir::numElements(shape)) + " elements)";
  if (t->numel() > 64) return viz::tileShapeText(t->dtype(), t->shape());
  std::vector<std::string> elements;
  for (int64_t i = 0; i < t->numel(); ++i) elements.push_back(viz::formatNumber(t->asDouble(i), t->hasFloatStorage()));
  return viz::formatTile(elements, t->shape());
}

// What the dot/reduce view shows, as text: the operation, its K range or winners, small tiles in full.
std::string computeText(const sim::ProgramTrace& program, const viz::ComputeOp& op) {
  std::string text = "pid " + sim::pidString(program.pid) + " " + op.title + "\n";
  const sim::ComputeEvent& e = program.compute[op.index];
  if (const auto* d = std::get_if<sim::DotEvent>(&e)) {
    text += viz::dotKRange(*d, op.steps) + "\nA " + tileText(d->a, d->aShape) + "\nB " + tileText(d->b, d->bShape) + "\n";
    if (const auto acc = viz::dotAccumulator(program, *d))
      text += (acc->name.empty() ? std::string("acc") : acc->name) + " after " + tileText(acc->after, d->resultShape) + "\n";
    else
      text += "result " + tileText(d->result, d->resultShape) + "\n";
  } else {
    const auto& r = std::get<sim::ReduceEvent>(e);
    text += "input " + tileText(r.input, r.inputShape) + "\nresult " + tileText(r.result, r.resultShape) + "\n";
  }
  return text;
}

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "tilescope-cli viz: %s\n", message.c_str());
  return code;
}

// --animate: the stepping's frames as a GIF or a PNG sequence (core/viz/SteppingExport).
int animateStepping(const std::string& path, const std::string& view, const std::string& animate, const std::string& out,
                    const std::string& pidText, const std::string& where, const std::string& color, int64_t op, double fps, double scale) {
  if (view != "tiles" && view != "grid") return fail("--animate draws the tiles or the grid view (--view tiles|grid)", 2);
  if (animate == "ops" && view != "tiles")
    return fail("--animate ops steps through one program's memory operations in the tiles view; use --view tiles", 2);
  if (out.empty()) return fail("--animate needs --out FILE.gif (an animated GIF) or --out DIR/ (a PNG sequence)", 2);
  if (path.empty()) return fail("which trace? (written by 'run --trace DIR')", 2);
  if (op < 1) return fail("--op counts from 1", 2);
  viz::SteppingExportOptions exportOptions{fps, scale};
  if (const std::string problem = viz::checkSteppingTarget(out, exportOptions); !problem.empty()) return fail("--out " + problem, 1);
  const sim::TraceReader::Result read = sim::TraceReader::readFile(path);
  if (!read.trace) return fail(path + ": " + read.error, 1);
  const sim::LaunchTrace& trace = *read.trace;
  viz::SteppingOptions o;
  o.view = view == "grid" ? viz::SteppingView::Grid : viz::SteppingView::Tiles;
  o.unit = animate == "ops" ? viz::SteppingUnit::Ops : viz::SteppingUnit::Programs;
  o.op = static_cast<size_t>(op - 1);
  const auto coloring = viz::gridColoringFromName(color);
  if (!coloring) return fail("--color " + color + ": use pid, order, tile, bytes or masked", 2);
  o.coloring = *coloring;
  if (!pidText.empty()) {
    const auto pid = parsePid(pidText);
    if (!pid) return fail("--pid " + pidText + ": expected X, X,Y or X,Y,Z with non-negative integers", 2);
    if (o.unit == viz::SteppingUnit::Programs) return fail("--pid picks the program of --animate ops; use --where to choose programs", 2);
    o.program = *pid;
  } else if (o.unit == viz::SteppingUnit::Ops) {
    if (trace.programs.empty()) return fail(path + ": the trace holds no program", 1);
    o.program = trace.programs.front().pid;
  }
  if (!where.empty()) {
    if (o.unit == viz::SteppingUnit::Ops) return fail("--where chooses programs for --animate programs", 2);
    const sim::PidFilterParseResult parsed = sim::PidFilter::parse(where);
    if (!parsed.filter) return fail("--where " + where + ": column " + std::to_string(parsed.column) + ": " + parsed.error, 2);
    for (const sim::ProgramTrace& p : trace.programs)
      if (parsed.filter->matches(p.pid)) o.programs.push_back(p.pid);
    if (o.programs.empty()) return fail("--where " + where + ": no traced program matches", 1);
  }
  std::string error;
  const std::optional<viz::SteppingFrames> frames = viz::SteppingFrames::make(trace, o, &error);
  if (!frames) return fail(error, 1);
  const viz::SteppingExportResult r = viz::exportStepping(*frames, out, exportOptions);
  if (!r.ok) return fail(r.error, 1);
  for (size_t i = 0; i < frames->count(); ++i) std::printf("%s\n", frames->caption(i).c_str());
  std::printf("wrote %zu frames (%dx%d) to %s\n", frames->count(), r.width, r.height, out.c_str());
  return 0;
}

}  // namespace

int runViz(const Args& args) {
  std::string path, view, out, pidText, color = "pid", tiles, animate, where;
  int64_t op = 1, step = 1, slice = 0, window = 9, group = 3, kBlocks = -1, launch = 1;
  double scale = 1, fps = 2;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    auto count = [&](int64_t& into) {
      std::string v;
      if (!value(v)) return false;
      const auto n = parseCount(v);
      if (!n) return false;
      into = *n;
      return true;
    };
    bool ok = true;
    if (a == "--view") ok = value(view);
    else if (a == "--out") ok = value(out);
    else if (a == "--pid") ok = value(pidText);
    else if (a == "--color" || a == "--colour") ok = value(color);
    else if (a == "--tiles") ok = value(tiles);
    else if (a == "--animate") ok = value(animate) && (animate == "programs" || animate == "ops");
    else if (a == "--where") ok = value(where);
    else if (a == "--fps") {
      std::string v;
      ok = value(v);
      try {
        fps = std::stod(v);
      } catch (const std::exception&) {
        ok = false;
      }
      ok = ok && fps >= 0.5 && fps <= 50;
    }
    else if (a == "--op") ok = count(op);
    else if (a == "--step") ok = count(step);
    else if (a == "--slice") ok = count(slice);
    else if (a == "--window") ok = count(window);
    else if (a == "--group") ok = count(group);
    else if (a == "--k-blocks") ok = count(kBlocks);
    else if (a == "--launch") ok = count(launch);
    else if (a == "--scale") {
      std::string v;
      ok = value(v);
      try {
        scale = std::stod(v);
      } catch (const std::exception&) {
        ok = false;
      }
      ok = ok && scale > 0 && scale <= 8;
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + a + "'\n\n" + kUsage, 2);
    } else if (path.empty()) {
      path = a;
    } else {
      return fail("one trace at a time (got '" + path + "' and '" + a + "')", 2);
    }
    if (!ok) return fail("option " + a + " needs a valid value (see --help)", 2);
  }
  if (view != "grid" && view != "tiles" && view != "coverage" && view != "swizzle" && view != "timeline" && view != "dot" &&
      view != "reduce")
    return fail(view.empty() ? std::string("--view is required: grid, tiles, coverage, swizzle, dot or reduce")
                             : "unknown view '" + view + "': use grid, tiles, coverage, swizzle, dot or reduce",
                2);
  if (!animate.empty()) return animateStepping(path, view, animate, out, pidText, where, color, op, fps, scale);
  if (!out.empty() && !out.ends_with(".png") && !out.ends_with(".svg"))
    return fail("--out " + out + ": the file name must end in .png or .svg", 2);

  // The timing file's launches, with --launch checked against them: an exit code on failure.
  auto readTimedLaunches = [&](std::vector<gpu::LaunchTiming>& launches) -> std::optional<int> {
    try {
      launches = gpu::readProgramTimingFile(path);
    } catch (const std::exception& e) {
      return fail(e.what(), 1);
    }
    if (launch < 1 || launch > static_cast<int64_t>(launches.size()))
      return fail("--launch " + std::to_string(launch) + ": " + path + " holds " + std::to_string(launches.size()) + " launch(es)", 1);
    return std::nullopt;
  };
  viz::Scene scene;
  std::string text;
  if (view == "timeline") {
    if (path.empty()) return fail("which timing file? (written by 'run --backend gpu --program-timing FILE.jsonl')", 2);
    std::vector<gpu::LaunchTiming> launches;
    if (const std::optional<int> rc = readTimedLaunches(launches)) return *rc;
    const gpu::LaunchTiming& l = launches[static_cast<size_t>(launch - 1)];
    scene = viz::timelineScene(l);
    text = l.kernel + " launch " + std::to_string(l.launch) + ": " + std::to_string(l.programs.size()) + " programs on " +
           std::to_string(l.smCount()) + " SMs in " + std::to_string(l.spanNs()) + " ns\n";
  } else if (view == "grid" && (color == "duration" || color == "sm")) {
    // Program timing comes from GPU runs, which record no trace: the grid is drawn from the timing file.
    if (path.empty()) return fail("which timing file? (written by 'run --backend gpu --program-timing FILE.jsonl')", 2);
    if (path.ends_with(".tstrace"))
      return fail("--color " + color + " needs program timing, which traces do not hold: give the TIMING.jsonl file of 'run --backend gpu --program-timing'", 1);
    std::vector<gpu::LaunchTiming> launches;
    if (const std::optional<int> rc = readTimedLaunches(launches)) return *rc;
    const gpu::LaunchTiming& l = launches[static_cast<size_t>(launch - 1)];
    const auto coloring = color == "sm" ? viz::TimingColoring::Sm : viz::TimingColoring::Duration;
    viz::GridViewOptions o;
    if (!pidText.empty()) {
      const auto pid = parsePid(pidText);
      if (!pid) return fail("--pid " + pidText + ": expected X, X,Y or X,Y,Z with non-negative integers", 2);
      o.selected = *pid;
    }
    o.slice = slice;
    scene = viz::timingGridScene(l, coloring, o);
    text = l.kernel + " launch " + std::to_string(l.launch) + " grid " + sim::pidString({l.grid[0], l.grid[1], l.grid[2]}) + ": " +
           viz::timingColors(l, coloring).legend + "\n";
    for (const viz::LegendSwatch& s : viz::timingLegend(l, coloring)) text += "  " + s.color.hex() + "  " + s.label + "\n";
  } else if (view == "swizzle" && !tiles.empty()) {
    const size_t x = tiles.find('x');
    const auto rows = x == std::string::npos ? std::nullopt : parseCount(tiles.substr(0, x));
    const auto cols = x == std::string::npos ? std::nullopt : parseCount(tiles.substr(x + 1));
    if (!rows || !cols || *rows == 0 || *cols == 0 || *rows * *cols > 65536)
      return fail("--tiles " + tiles + ": expected ROWSxCOLS, e.g. 9x9 (at most 65536 tiles)", 2);
    viz::SwizzleViewOptions o{*rows, *cols, group, window, kBlocks < 0 ? *cols : kBlocks};
    scene = viz::swizzleScene(o);
    for (int64_t g : {int64_t{0}, group}) {
      const auto order = viz::processingOrder(*rows, *cols, g);
      const viz::BlockLoads loads = viz::distinctBlocksLoaded(order, window, o.kBlocks);
      text += (g ? "grouped (group " + std::to_string(g) + "): " : std::string("row-major: ")) + orderText(order) + "\n  first " +
              std::to_string(window) + " programs load " + std::to_string(loads.total()) + " blocks (" +
              std::to_string(loads.aBlocks) + " of A, " + std::to_string(loads.bBlocks) + " of B)\n";
    }
  } else {
    if (path.empty()) return fail("which trace? (or --view swizzle --tiles RxC for no trace)\n\n" + std::string(kUsage), 2);
    const sim::TraceReader::Result read = sim::TraceReader::readFile(path);
    if (!read.trace) return fail(path + ": " + read.error, 1);
    const sim::LaunchTrace& trace = *read.trace;
    std::optional<std::array<int64_t, 3>> pid;
    if (!pidText.empty()) {
      pid = parsePid(pidText);
      if (!pid) return fail("--pid " + pidText + ": expected X, X,Y or X,Y,Z with non-negative integers", 2);
      if ((*pid)[0] >= trace.grid[0] || (*pid)[1] >= trace.grid[1] || (*pid)[2] >= trace.grid[2])
        return fail("--pid " + sim::pidString(*pid) + " is outside the grid " + sim::pidString(trace.grid), 1);
    }
    if (view == "grid") {
      const auto coloring = viz::gridColoringFromName(color);
      if (!coloring) return fail("--color " + color + ": use pid, order, tile, bytes or masked (duration and sm colour a --program-timing file)", 2);
      if (slice >= trace.grid[2]) return fail("--slice " + std::to_string(slice) + " is outside the grid's pid_2 range", 1);
      viz::GridViewOptions o;
      o.coloring = *coloring;
      o.selected = pid;
      o.slice = slice;
      scene = viz::gridScene(trace, o);
      text = trace.kernelName + " grid " + sim::pidString(trace.grid) + ": " + std::to_string(trace.programs.size()) + " of " +
             std::to_string(trace.totalPrograms) + " programs traced; " + viz::programColors(trace, *coloring).legend + "\n";
    } else if (view == "tiles") {
      if (!pid) {
        if (trace.programs.empty()) return fail(path + ": the trace holds no program", 1);
        pid = trace.programs.front().pid;
      }
      if (op < 1) return fail("--op counts from 1", 2);
      std::string error;
      scene = viz::tilesScene(trace, *pid, static_cast<size_t>(op - 1), &error);
      if (!error.empty()) return fail(error, 1);
      const viz::MemoryOp m = viz::memoryOps(trace, *trace.findProgram(*pid))[static_cast<size_t>(op - 1)];
      text = "pid " + sim::pidString(*pid) + " " + m.title() + "\noffsets " + viz::formatOffsets(m) + "\nmask " + viz::formatMask(m) + "\n";
      if (m.hasValues) text += "values " + viz::formatValues(m) + "\n";
    } else if (view == "dot" || view == "reduce") {
      if (!pid) {
        if (trace.programs.empty()) return fail(path + ": the trace holds no program", 1);
        pid = trace.programs.front().pid;
      }
      if (step < 1) return fail("--step counts from 1", 2);
      const bool dot = view == "dot";
      const sim::ProgramTrace* program = trace.findProgram(*pid);
      const std::vector<viz::ComputeOp> ops = program ? viz::computeOps(trace, *program, dot) : std::vector<viz::ComputeOp>{};
      if (program && step > static_cast<int64_t>(ops.size()) && !ops.empty())
        return fail("--step " + std::to_string(step) + ": program " + sim::pidString(*pid) + " ran " + std::to_string(ops.size()) +
                        (dot ? " tl.dot(s)" : " reduction(s)"),
                    1);
      std::string error;
      scene = dot ? viz::dotScene(trace, *pid, static_cast<size_t>(step - 1), &error)
                  : viz::reduceScene(trace, *pid, static_cast<size_t>(step - 1), &error);
      if (!error.empty()) return fail(error, 1);
      text = computeText(*program, ops[static_cast<size_t>(step - 1)]);
    } else if (view == "coverage") {
      scene = viz::coverageScene(trace);
      text = viz::traceCoverage(trace).render();
    } else {
      scene = viz::swizzleSceneFromTrace(trace, window);
      const viz::TraceTileOrder order = viz::traceTileOrder(trace);
      if (!order.error.empty()) return fail(order.error, 1);
      text = order.name + " tiles in processing order: " + orderText(order.order) + "\n";
      for (const viz::InputBlocks& b : viz::traceBlockLoads(trace, window))
        text += "  first " + std::to_string(window) + " programs load " + std::to_string(b.blocks) + " blocks of " + b.name + "\n";
    }
  }
  std::fputs(text.c_str(), stdout);
  if (out.empty()) return 0;
  if (out.ends_with(".svg")) {
    std::ofstream f(out, std::ios::binary);
    f << viz::SvgWriter::write(scene);
    if (!f.good()) return fail("cannot write " + out, 1);
  } else {
    std::string error;
    if (!viz::PngWriter::write(scene, out, &error, scale)) return fail(error, 1);
  }
  std::printf("wrote %s\n", out.c_str());
  return 0;
}

}  // namespace tilescope::cli
