#include "core/sim/Trace.h"

namespace tilescope::sim {

std::string TraceLocation::str() const {
  if (line == 0) return file.empty() ? "<unknown>" : file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const char* memOpKindName(MemOpKind k) {
  switch (k) {
    case MemOpKind::Load: return "load";
    case MemOpKind::Store: return "store";
    case MemOpKind::AtomicRMW: return "atomic_rmw";
    case MemOpKind::AtomicCAS: return "atomic_cas";
  }
  return "?";
}

const ProgramTrace* LaunchTrace::findProgram(const std::array<int64_t, 3>& pid) const {
  for (const ProgramTrace& p : programs)
    if (p.pid == pid) return &p;
  return nullptr;
}

const TraceTensor* LaunchTrace::findTensor(int32_t id) const {
  for (const TraceTensor& t : tensors)
    if (t.id == id) return &t;
  return nullptr;
}

size_t approximateBytes(const TraceEvent& e) {
  constexpr size_t kOverhead = 64;
  if (const auto* m = std::get_if<MemAccessEvent>(&e))
    return kOverhead + m->offsets.size() * sizeof(int64_t) + m->mask.size() + (m->values ? m->values->byteSize() : 0);
  if (const auto* b = std::get_if<BindEvent>(&e)) return kOverhead + b->name.size() + (b->value ? b->value->byteSize() : 0);
  return kOverhead + std::get<PrintEvent>(e).text.size();
}

}  // namespace tilescope::sim
