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

const char* reduceKindName(ReduceKind k) {
  switch (k) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Max: return "max";
    case ReduceKind::Min: return "min";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
    case ReduceKind::XorSum: return "xor_sum";
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

size_t approximateBytes(const ComputeEvent& e) {
  constexpr size_t kOverhead = 96;
  auto bytes = [](const TileRef& t) { return t ? t->byteSize() : 0; };
  if (const auto* d = std::get_if<DotEvent>(&e)) return kOverhead + bytes(d->a) + bytes(d->b) + bytes(d->acc) + bytes(d->result);
  const auto& r = std::get<ReduceEvent>(e);
  return kOverhead + bytes(r.input) + bytes(r.result);
}

}  // namespace tilescope::sim
