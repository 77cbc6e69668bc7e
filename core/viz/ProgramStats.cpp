#include "core/viz/ProgramStats.h"

#include <algorithm>
#include <variant>

namespace tilescope::viz {

std::vector<ProgramStats> programStats(const sim::LaunchTrace& trace) {
  std::vector<ProgramStats> out;
  out.reserve(trace.programs.size());
  for (const sim::ProgramTrace& p : trace.programs) {
    ProgramStats s;
    s.pid = p.pid;
    s.linearId = p.linearId;
    for (const sim::TraceEvent& ev : p.events) {
      const auto* e = std::get_if<sim::MemAccessEvent>(&ev);
      if (!e) continue;
      const bool isLoad = e->kind == sim::MemOpKind::Load;
      (isLoad ? s.loads : s.stores) += 1;
      int64_t active = 0;
      int64_t smallest = -1;
      for (size_t l = 0; l < e->offsets.size(); ++l) {
        if (!e->laneActive(l)) continue;
        ++active;
        if (smallest < 0 || e->offsets[l] < smallest) smallest = e->offsets[l];
      }
      s.activeLanes += active;
      s.maskedLanes += static_cast<int64_t>(e->offsets.size()) - active;
      if (const sim::TraceTensor* t = trace.findTensor(e->tensorId))
        s.bytesMoved += active * std::max(1, ir::bitWidth(t->dtype) / 8);
      if (!isLoad && s.storedTensor == 0 && e->tensorId != 0) {
        s.storedTensor = e->tensorId;
        s.storedElement = smallest;
      }
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace tilescope::viz
