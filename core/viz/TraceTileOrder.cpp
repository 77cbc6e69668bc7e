#include "core/viz/TraceTileOrder.h"

#include <algorithm>
#include <map>
#include <set>
#include <variant>

namespace tilescope::viz {

int64_t rowMajorPosition(const std::array<int64_t, 3>& pid, const std::array<int64_t, 3>& grid) {
  return (pid[2] * grid[0] + pid[0]) * grid[1] + pid[1];
}

namespace {

std::string argNameOf(const sim::LaunchTrace& trace, int32_t tensorId) {
  for (const sim::TraceArg& a : trace.args)
    if (a.tensorId == tensorId) return a.name;
  const sim::TraceTensor* t = trace.findTensor(tensorId);
  return t ? t->name : std::string();
}

}  // namespace

TraceTileOrder traceTileOrder(const sim::LaunchTrace& trace, int32_t tensorId) {
  TraceTileOrder r;
  for (const sim::ProgramTrace& p : trace.programs) {
    for (const sim::TraceEvent& ev : p.events) {
      const auto* e = std::get_if<sim::MemAccessEvent>(&ev);
      if (!e || e->kind != sim::MemOpKind::Store || e->tensorId == 0) continue;
      if (tensorId != 0 && e->tensorId != tensorId) continue;
      const sim::TraceTensor* t = trace.findTensor(e->tensorId);
      if (!t || t->shape.size() != 2) continue;
      if (r.tensorId == 0) {
        r.tensorId = e->tensorId;
        r.name = argNameOf(trace, e->tensorId);
        r.tileRows = e->shape.size() == 2 ? e->shape[0] : 1;
        r.tileCols = e->shape.empty() ? 1 : e->shape.back();
        const int64_t rows = (t->shape[0] + r.tileRows - 1) / std::max<int64_t>(1, r.tileRows);
        const int64_t cols = (t->shape[1] + r.tileCols - 1) / std::max<int64_t>(1, r.tileCols);
        r.order.assign(static_cast<size_t>(rows), std::vector<int64_t>(static_cast<size_t>(cols), -1));
      }
      if (e->tensorId != r.tensorId) continue;
      int64_t smallest = -1;
      for (size_t l = 0; l < e->offsets.size(); ++l)
        if (e->laneActive(l) && (smallest < 0 || e->offsets[l] < smallest)) smallest = e->offsets[l];
      if (smallest < 0) continue;
      const int64_t tr = smallest / t->shape[1] / std::max<int64_t>(1, r.tileRows);
      const int64_t tc = smallest % t->shape[1] / std::max<int64_t>(1, r.tileCols);
      if (tr < static_cast<int64_t>(r.order.size()) && tc < static_cast<int64_t>(r.order[tr].size()))
        r.order[tr][tc] = rowMajorPosition(p.pid, trace.grid);
    }
  }
  if (r.tensorId == 0) r.error = "the kernel stores to no 2-D tensor, so there is no output-tile order to show";
  return r;
}

std::vector<InputBlocks> traceBlockLoads(const sim::LaunchTrace& trace, int64_t programs) {
  std::vector<const sim::ProgramTrace*> ordered;
  for (const sim::ProgramTrace& p : trace.programs) ordered.push_back(&p);
  std::stable_sort(ordered.begin(), ordered.end(), [&](const auto* a, const auto* b) {
    return rowMajorPosition(a->pid, trace.grid) < rowMajorPosition(b->pid, trace.grid);
  });
  std::map<int32_t, std::set<std::vector<int64_t>>> blocks;
  for (const sim::ProgramTrace* p : ordered) {
    if (rowMajorPosition(p->pid, trace.grid) >= programs) break;
    for (const sim::TraceEvent& ev : p->events) {
      const auto* e = std::get_if<sim::MemAccessEvent>(&ev);
      if (!e || e->kind != sim::MemOpKind::Load || e->tensorId == 0) continue;
      std::vector<int64_t> elements;
      for (size_t l = 0; l < e->offsets.size(); ++l)
        if (e->laneActive(l)) elements.push_back(e->offsets[l]);
      if (elements.empty()) continue;
      std::sort(elements.begin(), elements.end());
      blocks[e->tensorId].insert(std::move(elements));
    }
  }
  std::vector<InputBlocks> out;
  for (const sim::TraceArg& a : trace.args)
    if (a.tensorId != 0 && blocks.count(a.tensorId))
      out.push_back({a.name, a.tensorId, static_cast<int64_t>(blocks[a.tensorId].size())});
  return out;
}

}  // namespace tilescope::viz
