#include "core/sim/TraceRecorder.h"

#include "core/sim/TileFormat.h"

namespace tilescope::sim {

TraceRecorder::TraceRecorder(const ir::Kernel& kernel, const Grid& grid, const LaunchOptions& options)
    : options_(options), trace_(std::make_shared<LaunchTrace>()), grid_(grid) {
  trace_->kernelName = kernel.name;
  trace_->grid = grid.dims();
  trace_->totalPrograms = grid.count();
  trace_->pidFilter = options.pidFilter.str();
  trace_->valuesRecorded = options.recordValues;
  for (const auto& pid : options.extraTracedPrograms)
    if (pid[0] < grid.x && pid[1] < grid.y && pid[2] < grid.z && pid[0] >= 0 && pid[1] >= 0 && pid[2] >= 0)
      extra_.insert(grid.linearOf(pid));
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
  current_ = nullptr;
  const bool listed = extra_.count(linearId) > 0;
  bool want = listed;
  if (!listed) {
    if (!options_.pidFilter.matches(pid)) {
      ++skippedByFilter_;
    } else if (tracedByLimit_ >= options_.maxTracedPrograms) {
      ++skippedByLimit_;
    } else {
      want = true;
    }
  }
  if (want && full_) {
    ++skippedByBytes_;
    want = false;
  }
  if (!want) return nullptr;
  if (!listed) ++tracedByLimit_;
  ProgramTrace p;
  p.pid = pid;
  p.linearId = linearId;
  trace_->programs.push_back(std::move(p));
  current_ = &trace_->programs.back();
  return current_;
}

void TraceRecorder::endProgram() { current_ = nullptr; }

uint32_t TraceRecorder::location(const lang::SourceRange& range) {
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
  if (bytes_ + size > options_.maxTraceBytes) {
    program->truncated = true;
    full_ = true;
    return;
  }
  bytes_ += size;
  program->events.push_back(std::move(event));
}

std::shared_ptr<LaunchTrace> TraceRecorder::finish(int64_t programsRun) {
  LaunchTrace& t = *trace_;
  const int64_t traced = static_cast<int64_t>(t.programs.size());
  t.droppedPrograms = std::max<int64_t>(0, programsRun - traced);
  std::string p;
  if (t.droppedPrograms == 0) {
    p = "all " + std::to_string(traced) + " programs that ran are traced";
  } else {
    p = "traced " + std::to_string(traced) + " of " + std::to_string(programsRun) + " programs that ran";
    if (skippedByFilter_) p += "; " + std::to_string(skippedByFilter_) + " did not match the pid filter '" + t.pidFilter + "'";
    if (skippedByLimit_)
      p += "; " + std::to_string(skippedByLimit_) + " came after the first " + std::to_string(options_.maxTracedPrograms) +
           " (maxTracedPrograms)";
    if (skippedByBytes_)
      p += "; " + std::to_string(skippedByBytes_) + " came after the trace reached " +
           std::to_string(options_.maxTraceBytes >> 20) + " MiB (maxTraceBytes)";
  }
  for (const ProgramTrace& prog : t.programs)
    if (prog.truncated) {
      p += "; program " + pidString(prog.pid) + " is cut short where the size cap was reached";
      break;
    }
  if (t.totalPrograms > programsRun)
    p += "; " + std::to_string(t.totalPrograms - programsRun) + " programs did not run (the launch stopped early)";
  t.policy = std::move(p);
  return trace_;
}

}  // namespace tilescope::sim
