#include "core/sim/TraceRecorder.h"

#include <array>

#include "core/sim/TileFormat.h"

namespace tilescope::sim {

namespace {

std::atomic<uint64_t> recorders{0};

// The locations this thread looked up last, so that the events of a loop body take no lock: keyed by
// the recorder's serial number (never reused, unlike its address) and the range.
struct CachedLocation {
  uint64_t recorder = 0;
  const lang::SourceFile* file = nullptr;
  uint32_t begin = 0, end = 0, index = 0;
};
constexpr size_t kCachedLocations = 16;
thread_local std::array<CachedLocation, kCachedLocations> cachedLocations;

}  // namespace

TraceRecorder::TraceRecorder(const ir::Kernel& kernel, const Grid& grid, const LaunchOptions& options)
    : options_(options), trace_(std::make_shared<LaunchTrace>()), grid_(grid), serial_(++recorders) {
  trace_->kernelName = kernel.name;
  trace_->grid = grid.dims();
  trace_->totalPrograms = grid.count();
  trace_->pidFilter = options.pidFilter.str();
  trace_->valuesRecorded = options.recordValues;
  for (const auto& pid : options.extraTracedPrograms)
    if (pid[0] < grid.x && pid[1] < grid.y && pid[2] < grid.z && pid[0] >= 0 && pid[1] >= 0 && pid[2] >= 0)
      extra_.insert(grid.linearOf(pid));
  // The first maxTracedPrograms programs matching the filter, plus the listed ones.
  std::set<int64_t> chosen(extra_.begin(), extra_.end());
  int64_t matching = 0;
  for (int64_t id = 0; id < grid.count() && matching < options.maxTracedPrograms; ++id) {
    if (extra_.count(id) || !options.pidFilter.matches(grid.pidOf(id))) continue;
    chosen.insert(id);
    ++matching;
  }
  slots_.resize(chosen.size());
  size_t slot = 0;
  for (int64_t id : chosen) slotOf_.emplace(id, slot++);
}

void TraceRecorder::setArguments(const Memory& memory, const std::vector<const ir::KernelParam*>& params,
                                 const std::vector<LaunchArg>& args) {
  std::set<int> seen;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    TraceArg a;
    a.name = params[i]->name;
    a.dtype = params[i]->type.dtype();
    if (args[i].kind == LaunchArg::Kind::Tensor) {
      a.tensorId = args[i].tensorId;
      if (const Tensor* t = memory.find(args[i].tensorId); t && seen.insert(t->id()).second)
        trace_->tensors.push_back({t->id(), t->name(), t->dtype(), t->shape()});
    } else if (args[i].kind == LaunchArg::Kind::Float) {
      a.valueText = formatFloatScalar(ir::DType::FP64, args[i].floatValue);
    } else {
      a.valueText = std::to_string(args[i].intValue);
    }
    trace_->args.push_back(std::move(a));
  }
}

ProgramTrace* TraceRecorder::beginProgram(const std::array<int64_t, 3>& pid, int64_t linearId) {
  const auto it = slotOf_.find(linearId);
  if (it == slotOf_.end()) return nullptr;
  auto p = std::make_unique<ProgramTrace>();
  p->pid = pid;
  p->linearId = linearId;
  // Started after another program filled the trace: recorded as cut short (with no events), so that
  // finish() cuts the trace here whichever thread got there first.
  // Programs asked for by name have a budget of their own and are never cut by the others' cap.
  p->truncated = !isExtra(linearId) && full_.load(std::memory_order_relaxed);
  slots_[it->second] = std::move(p);
  return slots_[it->second].get();
}


uint32_t TraceRecorder::location(const lang::SourceRange& range) {
  CachedLocation& cached = cachedLocations[(range.begin * 31u + range.end) % kCachedLocations];
  if (cached.recorder == serial_ && cached.file == range.file && cached.begin == range.begin && cached.end == range.end)
    return cached.index;
  const uint32_t index = lookUpLocation(range);
  cached = {serial_, range.file, range.begin, range.end, index};
  return index;
}

uint32_t TraceRecorder::lookUpLocation(const lang::SourceRange& range) {
  std::lock_guard<std::mutex> lock(locationMutex_);
  const auto key = std::make_tuple(range.file, range.begin, range.end);
  auto it = locations_.find(key);
  if (it != locations_.end()) return it->second;
  TraceLocation l;
  if (range.valid()) {
    l.file = range.file->name();
    const lang::LineColumn a = range.start();
    const lang::LineColumn b = range.file->lineColumn(range.end);
    l.line = a.line;
    l.column = a.column;
    l.endLine = b.line;
    l.endColumn = b.column;
  }
  const auto index = static_cast<uint32_t>(trace_->locations.size());
  trace_->locations.push_back(std::move(l));
  locations_.emplace(key, index);
  return index;
}

void TraceRecorder::add(ProgramTrace* program, TraceEvent event) {
  if (!program || program->truncated) return;
  const size_t size = approximateBytes(event);
  const bool extra = isExtra(program->linearId);
  std::atomic<size_t>& budget = extra ? extraBytes_ : bytes_;
  if (budget.fetch_add(size, std::memory_order_relaxed) + size > options_.maxTraceBytes) {
    budget.fetch_sub(size, std::memory_order_relaxed);
    program->truncated = true;
    if (!extra) full_ = true;
    return;
  }
  program->events.push_back(std::move(event));
}

void TraceRecorder::addCompute(ProgramTrace* program, ComputeEvent event) {
  if (!program || program->truncated) return;
  auto limit = [](TileRef& t) {
    if (t && t->numel() > kMaxComputeTileElements) t.reset();
  };
  // Steps are numbered in finish(), in one pass per program.
  if (auto* d = std::get_if<DotEvent>(&event)) {
    // A K loop's dot takes the previous dot's result as its accumulator (acc += tl.dot(a, b) runs
    // as tl.dot(a, b, acc)): that tile is already in the trace, so acc is left out (hasAcc stays).
    if (d->acc && !program->compute.empty())
      if (const auto* previous = std::get_if<DotEvent>(&program->compute.back()); previous && previous->result == d->acc)
        d->acc.reset();
    for (TileRef* t : {&d->a, &d->b, &d->acc, &d->result}) limit(*t);
    d->eventIndex = static_cast<uint32_t>(program->events.size());
  } else {
    auto& r = std::get<ReduceEvent>(event);
    limit(r.input);
    limit(r.result);
    r.eventIndex = static_cast<uint32_t>(program->events.size());
  }
  // Once one event was dropped, every later one is too: a program's recorded dots and reductions
  // are then a prefix of what it computed, so their step numbers stay right.
  if (computeFull_.load(std::memory_order_relaxed)) {
    computeDropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const size_t size = approximateBytes(event);
  const size_t share = options_.maxTraceBytes / kComputeShareOfCap;
  // Counted in the launch's total too, so the whole trace stays under maxTraceBytes.
  if (computeBytes_.fetch_add(size, std::memory_order_relaxed) + size > share) {
    computeBytes_.fetch_sub(size, std::memory_order_relaxed);
    computeDropped_.fetch_add(1, std::memory_order_relaxed);
    computeFull_ = true;
    return;
  }
  if (bytes_.fetch_add(size, std::memory_order_relaxed) + size > options_.maxTraceBytes) {
    bytes_.fetch_sub(size, std::memory_order_relaxed);
    computeBytes_.fetch_sub(size, std::memory_order_relaxed);
    computeDropped_.fetch_add(1, std::memory_order_relaxed);
    computeFull_ = true;
    return;
  }
  program->compute.push_back(std::move(event));
}

std::shared_ptr<LaunchTrace> TraceRecorder::finish(int64_t programsRun, int64_t lastProgram) {
  LaunchTrace& t = *trace_;
  // Assemble in linear order; nothing after the first truncated program is kept, as if the
  // programs had run one after another.
  int64_t skippedByBytes = 0;
  bool cut = false;
  for (size_t i = 0; i < slots_.size(); ++i) {
    const auto& slot = slots_[i];
    if (!slot || slot->linearId > lastProgram) continue;
    const bool extra = isExtra(slot->linearId);
    if (cut && !extra) {
      ++skippedByBytes;
      continue;
    }
    cut = cut || (slot->truncated && !extra);
    // Each dot/reduction's step: how often the same operation ran in this program before it.
    std::unordered_map<uint64_t, int64_t> runs;  // (kind, location) -> executions so far
    for (ComputeEvent& e : slot->compute)
      std::visit([&](auto& x) { x.step = runs[(uint64_t{e.index()} << 32) | x.location]++; }, e);
    t.programs.push_back(std::move(*slot));
  }
  slots_.clear();
  t.computeDropped = computeDropped_.load();
  // What the programs that ran and were not traced missed out on.
  int64_t skippedByFilter = 0, skippedByLimit = 0;
  for (int64_t id = 0; id < programsRun; ++id) {
    if (slotOf_.count(id)) continue;
    if (!options_.pidFilter.matches(grid_.pidOf(id)))
      ++skippedByFilter;
    else
      ++skippedByLimit;
  }
  const int64_t traced = static_cast<int64_t>(t.programs.size());
  t.droppedPrograms = std::max<int64_t>(0, programsRun - traced);
  std::string p;
  if (t.droppedPrograms == 0) {
    p = "all " + std::to_string(traced) + " programs that ran are traced";
  } else {
    p = "traced " + std::to_string(traced) + " of " + std::to_string(programsRun) + " programs that ran";
    if (skippedByFilter) p += "; " + std::to_string(skippedByFilter) + " did not match the pid filter '" + t.pidFilter + "'";
    if (skippedByLimit)
      p += "; " + std::to_string(skippedByLimit) + " came after the first " + std::to_string(options_.maxTracedPrograms) +
           " (maxTracedPrograms)";
    if (skippedByBytes)
      p += "; " + std::to_string(skippedByBytes) + " came after the trace reached " +
           std::to_string(options_.maxTraceBytes >> 20) + " MiB (maxTraceBytes)";
  }
  for (const ProgramTrace& prog : t.programs)
    if (prog.truncated) {
      p += "; program " + pidString(prog.pid) + " is cut short where the size cap was reached";
      break;
    }
  if (t.totalPrograms > programsRun)
    p += "; " + std::to_string(t.totalPrograms - programsRun) + " programs did not run (the launch stopped early)";
  if (t.computeDropped)
    p += "; " + std::to_string(t.computeDropped) + " dot/reduction events were not recorded (their quarter of maxTraceBytes was used up)";
  t.policy = std::move(p);
  return trace_;
}

}  // namespace tilescope::sim
