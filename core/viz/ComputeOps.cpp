#include "core/viz/ComputeOps.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace tilescope::viz {

namespace {

const sim::TraceLocation* locationOf(const sim::LaunchTrace& trace, uint32_t index) {
  return index < trace.locations.size() ? &trace.locations[index] : nullptr;
}

// Input strides of a row-major shape.
std::vector<int64_t> stridesOf(const ir::Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

}  // namespace

std::vector<ComputeOp> computeOps(const sim::LaunchTrace& trace, const sim::ProgramTrace& program, bool dots) {
  std::vector<ComputeOp> ops;
  std::map<uint32_t, int64_t> count;  // location -> executions
  for (size_t i = 0; i < program.compute.size(); ++i) {
    const sim::ComputeEvent& e = program.compute[i];
    if ((e.index() == 0) != dots) continue;
    const uint32_t location = std::visit([](const auto& x) { return x.location; }, e);
    ComputeOp op;
    op.index = i;
    op.isDot = dots;
    op.step = std::visit([](const auto& x) { return x.step; }, e);
    if (const sim::TraceLocation* l = locationOf(trace, location)) {
      op.file = l->file;
      op.line = l->line;
    }
    ++count[location];
    ops.push_back(std::move(op));
  }
  for (ComputeOp& op : ops) {
    const sim::ComputeEvent& e = program.compute[op.index];
    op.steps = count[std::visit([](const auto& x) { return x.location; }, e)];
    const std::string where = "line " + std::to_string(op.line);
    if (const auto* d = std::get_if<sim::DotEvent>(&e)) {
      op.title = "tl.dot " + where + (op.steps > 1 ? ", K step " + std::to_string(d->step + 1) + " of " + std::to_string(op.steps) : "");
    } else {
      const auto& r = std::get<sim::ReduceEvent>(e);
      op.title = std::string("tl.") + sim::reduceKindName(r.kind) + (r.axis < 0 ? " (all elements)" : " axis " + std::to_string(r.axis)) +
                 ", " + where + (op.steps > 1 ? " (" + std::to_string(op.step + 1) + " of " + std::to_string(op.steps) + ")" : "");
    }
  }
  return ops;
}

std::string dotKRange(const sim::DotEvent& dot, int64_t steps) {
  const int64_t bk = dot.aShape.empty() ? 1 : dot.aShape.back();
  const int64_t first = dot.step * bk;
  return "k = " + std::to_string(first) + " .. " + std::to_string(first + bk - 1) + " (K step " + std::to_string(dot.step + 1) +
         " of " + std::to_string(steps) + ", BK = " + std::to_string(bk) + ")";
}

namespace {

bool sameValues(const sim::TileRef& x, const sim::TileRef& y) {
  if (!x || !y || x->shape() != y->shape()) return false;
  for (int64_t i = 0; i < x->numel(); ++i)
    if (!(x->asDouble(i) == y->asDouble(i)) && !(std::isnan(x->asDouble(i)) && std::isnan(y->asDouble(i)))) return false;
  return true;
}

// The binding of `name` last made before event `end`.
sim::TileRef previousBinding(const sim::ProgramTrace& program, size_t end, const std::string& name) {
  for (size_t i = end; i-- > 0;)
    if (const auto* b = std::get_if<sim::BindEvent>(&program.events[i]); b && b->name == name) return b->value;
  return {};
}

}  // namespace

std::optional<DotAccumulator> dotAccumulator(const sim::ProgramTrace& program, const sim::DotEvent& dot) {
  if (dot.hasAcc) {
    sim::TileRef acc = dot.acc;
    if (!acc) {
      // Left out of the trace when it is the previous compute event's result (TraceRecorder).
      for (size_t i = 0; i < program.compute.size(); ++i)
        if (i > 0 && std::get_if<sim::DotEvent>(&program.compute[i]) == &dot)
          if (const auto* previous = std::get_if<sim::DotEvent>(&program.compute[i - 1]);
              previous && previous->result && previous->result->shape() == dot.resultShape)
            acc = previous->result;
    }
    // `acc += tl.dot(a, b)` runs as tl.dot(a, b, acc) (ir::passes::fuseDotAccumulator), like
    // `acc = tl.dot(a, b, acc)`: named after the variable when the dot's result is bound to the
    // name whose previous value was its accumulator.
    const auto* bound = dot.eventIndex < program.events.size() ? std::get_if<sim::BindEvent>(&program.events[dot.eventIndex]) : nullptr;
    if (bound && sameValues(bound->value, dot.result) && sameValues(previousBinding(program, dot.eventIndex, bound->name), acc))
      return DotAccumulator{bound->name, acc, dot.result};
    return DotAccumulator{"", acc, dot.result};
  }
  if (!dot.result || dot.eventIndex >= program.events.size()) return std::nullopt;
  const auto* after = std::get_if<sim::BindEvent>(&program.events[dot.eventIndex]);
  if (!after || !after->value || after->value->shape() != dot.resultShape) return std::nullopt;
  sim::TileRef before;
  for (size_t i = dot.eventIndex; i-- > 0;)
    if (const auto* b = std::get_if<sim::BindEvent>(&program.events[i]); b && b->name == after->name) {
      before = b->value;
      break;
    }
  if (!before || before->shape() != dot.resultShape) return std::nullopt;
  for (int64_t i = 0; i < dot.result->numel(); ++i) {
    const double want = before->asDouble(i) + dot.result->asDouble(i), got = after->value->asDouble(i);
    if (!(std::fabs(got - want) <= 1e-3 * std::max(1.0, std::fabs(want))) && !(std::isnan(got) && std::isnan(want))) return std::nullopt;
  }
  return DotAccumulator{after->name, before, after->value};
}

std::vector<int64_t> reductionWinners(const sim::ReduceEvent& r) {
  using K = sim::ReduceKind;
  if (!r.input || !r.result || r.kind == K::Sum || r.kind == K::XorSum) return {};
  const ir::Shape& shape = r.input->shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  // The reduced slices: each result element's input indices, base + j * stride for j < length.
  int64_t length = r.input->numel(), stride = 1;
  if (r.axis >= 0 && r.axis < rank) {
    length = shape[static_cast<size_t>(r.axis)];
    stride = stridesOf(shape)[static_cast<size_t>(r.axis)];
  }
  const int64_t slices = length == 0 ? 0 : r.input->numel() / length;
  if (r.result->numel() != slices) return {};
  std::vector<int64_t> winners;
  winners.reserve(static_cast<size_t>(slices));
  for (int64_t s = 0; s < slices; ++s) {
    // Result element s (row-major over the kept dims) starts at: outer part * length * stride + inner part.
    const int64_t base = (s / stride) * length * stride + s % stride;
    int64_t pick = 0;
    if (r.kind == K::ArgMax || r.kind == K::ArgMin) {
      pick = r.result->asInt(s);
    } else {
      const double want = r.result->asDouble(s);
      while (pick + 1 < length && r.input->asDouble(base + pick * stride) != want) ++pick;
    }
    winners.push_back(base + std::clamp<int64_t>(pick, 0, std::max<int64_t>(0, length - 1)) * stride);
  }
  return winners;
}

}  // namespace tilescope::viz
