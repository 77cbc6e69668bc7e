#include "core/viz/ProgramTiles.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <variant>

namespace tilescope::viz {

std::pair<int64_t, int64_t> view2d(const ir::Shape& shape) {
  if (shape.empty()) return {1, 1};
  if (shape.size() == 1) return {1, shape[0]};
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d) rows *= shape[d];
  return {rows, shape.back()};
}

std::string MemoryOp::title() const {
  std::string s = sim::memOpKindName(kind);
  s += " " + (argName.empty() ? (tensorName.empty() ? std::string("?") : tensorName) : argName);
  if (!location.empty()) s += " (" + location + ")";
  return s;
}

std::vector<MemoryOp> memoryOps(const sim::LaunchTrace& trace, const sim::ProgramTrace& program) {
  std::vector<MemoryOp> ops;
  for (size_t i = 0; i < program.events.size(); ++i) {
    const auto* e = std::get_if<sim::MemAccessEvent>(&program.events[i]);
    if (!e) continue;
    MemoryOp op;
    op.eventIndex = i;
    op.kind = e->kind;
    if (e->location < trace.locations.size()) {
      op.location = trace.locations[e->location].str();
      op.file = trace.locations[e->location].file;
      op.line = trace.locations[e->location].line;
    }
    if (e->argIndex >= 0 && static_cast<size_t>(e->argIndex) < trace.args.size()) op.argName = trace.args[e->argIndex].name;
    op.tensorId = e->tensorId;
    if (const sim::TraceTensor* t = trace.findTensor(e->tensorId)) {
      op.tensorName = t->name;
      op.tensorShape = t->shape;
    }
    op.shape = e->shape;
    std::tie(op.rows, op.cols) = view2d(e->shape);
    op.offsets = e->offsets;
    op.mask.resize(op.offsets.size());
    for (size_t l = 0; l < op.offsets.size(); ++l) {
      op.mask[l] = e->laneActive(l);
      (op.mask[l] ? op.activeLanes : op.maskedLanes) += 1;
    }
    if (e->values && e->values->numel() == static_cast<int64_t>(op.offsets.size())) {
      op.hasValues = true;
      op.floatValues = e->values->hasFloatStorage();
      op.values.resize(op.offsets.size());
      for (size_t l = 0; l < op.values.size(); ++l) op.values[l] = e->values->asDouble(static_cast<int64_t>(l));
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::vector<NamedTile> namedTiles(const sim::LaunchTrace& trace, const sim::ProgramTrace& program) {
  std::vector<NamedTile> out;
  std::map<std::string, size_t> index;
  for (const sim::TraceEvent& ev : program.events) {
    const auto* b = std::get_if<sim::BindEvent>(&ev);
    if (!b || !b->value) continue;
    const int line = b->location < trace.locations.size() ? trace.locations[b->location].line : 0;
    auto [it, inserted] = index.emplace(b->name, out.size());
    if (inserted) out.push_back({b->name, line, b->value});
    else out[it->second] = {b->name, line, b->value};
  }
  return out;
}

std::string formatNumber(double v, bool isFloat) {
  if (!isFloat) return std::to_string(static_cast<int64_t>(v));
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".";  // numpy shows floats with a point
  return s;
}

std::string formatTile(const std::vector<std::string>& elements, const ir::Shape& shape) {
  if (shape.empty()) return elements.empty() ? "" : elements[0];
  size_t width = 0;
  for (const std::string& e : elements) width = std::max(width, e.size());
  const auto [rows, cols] = view2d(shape);
  auto cell = [&](int64_t i) { return std::string(width - elements[i].size(), ' ') + elements[i]; };
  std::string s;
  const bool twoD = shape.size() >= 2;
  if (twoD) s += "[";
  for (int64_t r = 0; r < rows; ++r) {
    if (r > 0) s += "\n ";
    s += "[";
    for (int64_t c = 0; c < cols; ++c) s += (c ? " " : "") + cell(r * cols + c);
    s += "]";
  }
  if (twoD) s += "]";
  return s;
}

std::string formatOffsets(const MemoryOp& op) {
  std::vector<std::string> e;
  for (int64_t o : op.offsets) e.push_back(std::to_string(o));
  return formatTile(e, op.shape);
}

std::string formatMask(const MemoryOp& op) {
  std::vector<std::string> e;
  for (bool m : op.mask) e.push_back(m ? "True" : "False");
  return formatTile(e, op.shape);
}

std::string formatValues(const MemoryOp& op) {
  if (!op.hasValues) return "";
  std::vector<std::string> e;
  for (double v : op.values) e.push_back(formatNumber(v, op.floatValues));
  return formatTile(e, op.shape);
}

}  // namespace tilescope::viz
