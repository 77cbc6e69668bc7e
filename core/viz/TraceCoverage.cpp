#include "core/viz/TraceCoverage.h"

#include <map>
#include <variant>

namespace tilescope::viz {

const OutputCoverage* TraceCoverage::find(int tensorId) const {
  for (const OutputCoverage& t : tensors)
    if (t.summary.tensorId == tensorId) return &t;
  return nullptr;
}

std::string TraceCoverage::render() const {
  sim::CoverageReport report;
  for (const OutputCoverage& t : tensors) report.tensors.push_back(t.summary);
  std::string s = report.render();
  if (!note.empty()) s += "note: " + note + "\n";
  return s;
}

namespace {

struct Building {
  OutputCoverage cov;
  std::vector<double> value;         // last written value per element (when values are recorded)
  std::vector<int64_t> lastWriter;   // linear id of the element's latest writer
};

}  // namespace

TraceCoverage traceCoverage(const sim::LaunchTrace& trace) {
  TraceCoverage result;
  result.complete = trace.droppedPrograms == 0 &&
                    static_cast<int64_t>(trace.programs.size()) >= trace.totalPrograms;
  for (const sim::ProgramTrace& p : trace.programs) result.complete = result.complete && !p.truncated;
  result.valuesCompared = trace.valuesRecorded;
  const sim::Grid grid{trace.grid[0], trace.grid[1], trace.grid[2]};

  std::map<int32_t, Building> byTensor;
  for (const sim::ProgramTrace& p : trace.programs) {
    for (const sim::TraceEvent& ev : p.events) {
      const auto* e = std::get_if<sim::MemAccessEvent>(&ev);
      if (!e || e->kind != sim::MemOpKind::Store || e->tensorId == 0) continue;
      const sim::TraceTensor* t = trace.findTensor(e->tensorId);
      if (!t) continue;
      auto [it, inserted] = byTensor.try_emplace(e->tensorId);
      Building& b = it->second;
      if (inserted) {
        b.cov.summary.tensorId = t->id;
        b.cov.summary.tensorName = t->name;
        for (const sim::TraceArg& a : trace.args)
          if (a.tensorId == t->id) {
            b.cov.summary.argName = a.name;
            break;
          }
        b.cov.summary.shape = t->shape;
        int64_t n = 1;
        for (int64_t d : t->shape) n *= d;
        b.cov.summary.elements = n;
        b.cov.writer.assign(static_cast<size_t>(n), -1);
        b.cov.writes.assign(static_cast<size_t>(n), 0);
        b.cov.conflicting.assign(static_cast<size_t>(n), 0);
        b.value.assign(static_cast<size_t>(n), 0.0);
        b.lastWriter.assign(static_cast<size_t>(n), -1);
      }
      const bool haveValues = e->values && e->values->numel() == static_cast<int64_t>(e->offsets.size());
      for (size_t lane = 0; lane < e->offsets.size(); ++lane) {
        if (!e->laneActive(lane)) continue;
        const int64_t el = e->offsets[lane];
        if (el < 0 || el >= b.cov.summary.elements) continue;  // out of bounds: the simulator reported it
        const double v = haveValues ? e->values->asDouble(static_cast<int64_t>(lane)) : 0.0;
        int64_t& first = b.cov.writer[el];
        int64_t& last = b.lastWriter[el];
        if (first < 0) {
          first = last = p.linearId;
          b.cov.writes[el] = 1;
        } else if (last != p.linearId) {  // a program storing twice to its own element is one writer
          if (b.cov.writes[el] < 255) ++b.cov.writes[el];
          const bool bothNan = v != v && b.value[el] != b.value[el];
          if (haveValues && v != b.value[el] && !bothNan && !b.cov.conflicting[el]) {
            b.cov.conflicting[el] = 1;
            if (b.cov.summary.conflicts.size() < sim::kCoverageExamples)
              b.cov.summary.conflicts.push_back({el, grid.pidOf(last), p.pid});
          }
          last = p.linearId;
        }
        b.value[el] = v;
      }
    }
  }
  for (auto& [id, b] : byTensor) {
    sim::TensorCoverage& s = b.cov.summary;
    int64_t runStart = -1;
    for (int64_t el = 0; el < s.elements; ++el) {
      if (b.cov.writer[el] >= 0) {
        ++s.written;
        if (b.cov.writes[el] > 1) ++s.writtenByMany;
        if (b.cov.conflicting[el]) ++s.conflicting;
        if (runStart >= 0 && s.neverWrittenRanges.size() < sim::kCoverageExamples) s.neverWrittenRanges.emplace_back(runStart, el);
        runStart = -1;
      } else {
        ++s.neverWritten;
        if (runStart < 0) runStart = el;
      }
    }
    if (runStart >= 0 && s.neverWrittenRanges.size() < sim::kCoverageExamples) s.neverWrittenRanges.emplace_back(runStart, s.elements);
    result.tensors.push_back(std::move(b.cov));
  }
  if (!result.complete)
    result.note = "only " + std::to_string(trace.programs.size()) + " of " + std::to_string(trace.totalPrograms) +
                  " programs were traced (" + trace.policy + "): elements written by the others show as never written";
  else if (!result.valuesCompared)
    result.note = "values were not recorded, so elements written twice cannot be compared";
  return result;
}

}  // namespace tilescope::viz
