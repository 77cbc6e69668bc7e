#include "core/sim/Simulator.h"

#include <chrono>
#include <optional>

#include "core/ir/TypeRules.h"
#include "core/sim/ArgumentBinder.h"
#include "core/sim/LaunchContext.h"
#include "core/sim/OrderedOutput.h"
#include "core/sim/SimulationError.h"
#include "core/sim/StmtExecutor.h"
#include "core/sim/TraceRecorder.h"
#include "core/sim/WorkerPool.h"

namespace tilescope::sim {

namespace {

// What the workers of one launch share besides the LaunchContext.
struct RunState {
  // Apart, so that the counter every program takes from does not share a cache line with the totals.
  alignas(64) std::atomic<int64_t> next{0};
  // Programs a worker takes at once: runs of consecutive programs, so that threads work on parts of
  // memory far apart (their stores take different lock stripes) and take from `next` less often.
  int64_t chunk = 1;
  alignas(64) std::atomic<int64_t> started{0};  // added once per worker, when it leaves
  std::atomic<int64_t> completed{0};
  std::atomic<bool> interrupted{false};
  std::mutex errorMutex;
  std::optional<std::pair<int64_t, lang::Diagnostic>> firstError;

  void fail(LaunchContext& L, OrderedOutput& out, int64_t program, lang::Diagnostic d, std::vector<std::string> lines) {
    {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!firstError || program < firstError->first) firstError.emplace(program, std::move(d));
    }
    int64_t cur = L.abortAfter.load();
    while (program < cur && !L.abortAfter.compare_exchange_weak(cur, program)) {
    }
    out.limit(program);
    out.complete(program, std::move(lines));  // what the failing program printed before the error
  }
};

void runWorker(LaunchContext& L, RunState& S, OrderedOutput& out, TraceRecorder* recorder) {
  const int64_t total = L.grid.count();
  std::vector<TileRef> cache(static_cast<size_t>(L.facts.invariant.size()));
  ProgramState P;
  P.invariantCache = &cache;
  // Counted here and added to the shared totals once, when this worker leaves.
  struct Counts {
    RunState& S;
    int64_t started = 0, completed = 0;
    ~Counts() {
      S.started += started;
      S.completed += completed;
    }
  } counts{S};
  int64_t next = 0, runEnd = 0;  // the rest of this worker's current run of programs: [next, runEnd)
  while (true) {
    if (L.options.cancel.cancelled()) {
      S.interrupted = true;
      return;
    }
    if (next >= runEnd) {
      next = S.next.fetch_add(S.chunk);
      runEnd = std::min(total, next + S.chunk);
    }
    // Runs are handed out in increasing order: past a failed program, every later run is too.
    const int64_t p = next++;
    if (p >= total || p > L.abortAfter.load()) return;
    P.linearId = p;
    P.pid = L.grid.pidOf(p);
    P.env.assign(static_cast<size_t>(L.kernel.varCount), nullptr);
    P.output.clear();
    P.printEnabled = L.options.pidFilter.matches(P.pid);
    P.trace = recorder ? recorder->beginProgram(P.pid, p) : nullptr;
    ++counts.started;
    try {
      StmtExecutor(L, P).run();
      ++counts.completed;
      // A kernel without prints has nothing to order: no shared lock per program.
      if (L.facts.hasPrints) out.complete(p, std::move(P.output));
    } catch (const SimulationError& e) {
      if (e.kind() == SimulationError::Kind::UserError) {
        S.fail(L, out, p, e.diagnostic(), std::move(P.output));
      } else if (e.kind() == SimulationError::Kind::Interrupted) {
        S.interrupted = true;
        return;
      }
      // Aborted: a lower program failed; this one's effects and output are dropped.
    } catch (const std::exception& e) {
      S.fail(L, out, p,
             lang::Diagnostic::error(L.kernel.body.range(), "internal error in the simulator while running program pid " +
                                                                P.pidText() + " of kernel '" + L.kernel.name + "': " + e.what() +
                                                                " (this is a tilescope bug; please report it)"),
             std::move(P.output));
    }
  }
}

int workerCount(const LaunchOptions& options, bool sequential, int64_t programs) {
  if (sequential) return 1;
  const int n = std::max(1, options.numThreads > 0 ? options.numThreads : WorkerPool::defaultThreadCount());
  return static_cast<int>(std::min<int64_t>(n, std::max<int64_t>(1, programs)));
}

void reportConflicts(const CoverageReport& coverage, const ir::Kernel& kernel, lang::DiagnosticList& diags) {
  for (const TensorCoverage& t : coverage.tensors) {
    if (t.conflicting == 0) continue;
    std::string msg = std::to_string(t.conflicting) + " element(s) of " + (t.argName.empty() ? "" : t.argName + " ") +
                      "(tensor '" + t.tensorName + "') were written by more than one program of kernel '" + kernel.name +
                      "' with different values";
    if (!t.conflicts.empty())
      msg += ", e.g. element " + std::to_string(t.conflicts.front().element) + " by pid " +
             pidString(t.conflicts.front().firstProgram) + " and pid " + pidString(t.conflicts.front().secondProgram);
    msg += "; which value survives on the GPU is unspecified";
    diags.add(lang::Diagnostic::warning({}, msg));
  }
}

}  // namespace

LaunchResult Simulator::launch(const ir::Kernel& kernel, const Grid& grid, const std::vector<LaunchArg>& args,
                               const LaunchOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  LaunchResult result;
  result.sources = kernel.sources;
  auto finishTiming = [&] {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto failEarly = [&](lang::Diagnostic d) {
    result.status = LaunchStatus::Error;
    result.diagnostics.add(std::move(d));
    finishTiming();
    return result;
  };

  if (grid.x < 0 || grid.y < 0 || grid.z < 0)
    return failEarly(lang::Diagnostic::error({}, "grid of kernel '" + kernel.name + "' has a negative dimension (" +
                                                     std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
                                                     std::to_string(grid.z) + ")"));
  if (grid.count() > std::numeric_limits<int32_t>::max())
    return failEarly(lang::Diagnostic::error({}, "grid of kernel '" + kernel.name + "' has " + std::to_string(grid.count()) +
                                                     " programs; the simulator runs at most 2^31 - 1"));

  LaunchContext L(kernel, memory_, grid, options);
  L.launchId = ++launchCounter_;
  if (auto error = bindArguments(L, args, result.diagnostics)) return failEarly(std::move(*error));
  L.facts = analyzeKernel(kernel);

  std::unique_ptr<TraceRecorder> recorder;
  if (options.trace) {
    recorder = std::make_unique<TraceRecorder>(kernel, grid, options);
    recorder->setArguments(memory_, kernel.runtimeParams(), args);
    L.recorder = recorder.get();
  }

  // Host calls (print_if and friends) call back into Python, which runs one thread at a time.
  const bool sequential = L.facts.hasHostCalls;
  const int workers = workerCount(options, sequential, grid.count());
  RunState S;
  // Runs of programs per take: 1/16 of a worker's share, so the last runs still balance. Traced
  // launches take one at a time: an interrupted trace keeps a prefix of the programs.
  if (!recorder && workers > 1) S.chunk = std::max<int64_t>(1, grid.count() / (int64_t{workers} * 16));
  OrderedOutput out(options.output, result.output);
  WorkerPool::shared().run(workers, [&] { runWorker(L, S, out, recorder.get()); });
  out.finish();

  result.programsRun = S.completed.load();
  if (S.firstError) {
    result.status = LaunchStatus::Error;
    result.diagnostics.add(std::move(S.firstError->second));
  } else if (S.interrupted) {
    result.status = LaunchStatus::Interrupted;
    result.diagnostics.add(lang::Diagnostic::warning(
        {}, "launch of kernel '" + kernel.name + "' interrupted after " + std::to_string(result.programsRun) + " of " +
                std::to_string(grid.count()) + " programs"));
  }
  const lang::DiagnosticList warnings = L.takeWarnings();
  for (const lang::Diagnostic& w : warnings.items()) result.diagnostics.add(w);

  if (options.checkCoverage) {
    memory_.finishLaunch(L.launchId);  // stripes no store reached: never written
    std::vector<std::pair<int, std::string>> argNames;
    for (const auto& [tensor, param] : L.paramOfTensor) argNames.emplace_back(tensor, kernel.params[param].name);
    result.coverage = computeCoverage(memory_, L.launchId, grid, argNames,
                                      std::max(1, options.numThreads > 0 ? options.numThreads : WorkerPool::defaultThreadCount()));
    reportConflicts(result.coverage, kernel, result.diagnostics);
  }
  if (recorder) {
    const int64_t started = S.started.load();
    if (S.firstError)
      result.trace = recorder->finish(std::min(started, S.firstError->first + 1), S.firstError->first);
    else
      result.trace = recorder->finish(started);
  }
  finishTiming();
  return result;
}

}  // namespace tilescope::sim
