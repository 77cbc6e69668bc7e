#include "core/sim/TraceJson.h"

#include <cmath>

#include "core/sim/DeviceAddress.h"
#include "core/ir/Numerics.h"

namespace tilescope::sim {

namespace {

nlohmann::json floatJson(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

nlohmann::json tileToJson(const Tile& t) {
  nlohmann::json j;
  j["dtype"] = std::string(ir::dtypeName(t.dtype()));
  j["shape"] = t.shape();
  if (t.isPointer()) {
    j["pointer"] = true;
    nlohmann::json tensors = nlohmann::json::array();
    nlohmann::json offsets = nlohmann::json::array();
    const int size = elementBytes(t.dtype());
    for (int64_t i = 0; i < t.numel(); ++i) {
      tensors.push_back(DeviceAddress::tensorId(t.ints()[i]));
      const int64_t b = DeviceAddress::byteOffset(t.ints()[i]);
      offsets.push_back(b % size == 0 ? nlohmann::json(b / size) : nlohmann::json(static_cast<double>(b) / size));
    }
    j["tensors"] = std::move(tensors);
    j["offsets"] = std::move(offsets);
    return j;
  }
  nlohmann::json data = nlohmann::json::array();
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.hasFloatStorage()) {
      data.push_back(floatJson(t.floats()[i]));
    } else if (t.dtype() == ir::DType::I1) {
      data.push_back(t.ints()[i] != 0);
    } else if (ir::isUnsignedInt(t.dtype())) {
      data.push_back(asUnsigned(t.dtype(), t.ints()[i]));
    } else {
      data.push_back(t.ints()[i]);
    }
  }
  j["data"] = std::move(data);
  return j;
}

nlohmann::json traceToJson(const LaunchTrace& trace) {
  nlohmann::json j;
  j["format"] = "tilescope-trace";
  j["version"] = 1;
  j["kernel"] = trace.kernelName;
  j["grid"] = trace.grid;
  j["totalPrograms"] = trace.totalPrograms;
  j["droppedPrograms"] = trace.droppedPrograms;
  j["policy"] = trace.policy;
  j["pidFilter"] = trace.pidFilter;
  j["valuesRecorded"] = trace.valuesRecorded;
  j["computeDropped"] = trace.computeDropped;
  nlohmann::json tensors = nlohmann::json::array();
  for (const TraceTensor& t : trace.tensors)
    tensors.push_back({{"id", t.id}, {"name", t.name}, {"dtype", std::string(ir::dtypeName(t.dtype))}, {"shape", t.shape}});
  j["tensors"] = std::move(tensors);
  nlohmann::json args = nlohmann::json::array();
  for (const TraceArg& a : trace.args) {
    if (a.tensorId != 0)
      args.push_back({{"name", a.name}, {"tensor", a.tensorId}});
    else
      args.push_back({{"name", a.name}, {"dtype", std::string(ir::dtypeName(a.dtype))}, {"value", a.valueText}});
  }
  j["args"] = std::move(args);

  auto loc = [&](nlohmann::json& e, uint32_t index) {
    if (index >= trace.locations.size()) return;
    const TraceLocation& l = trace.locations[index];
    e["loc"] = l.str();
    e["line"] = l.line;
    e["col"] = l.column;
  };
  nlohmann::json programs = nlohmann::json::array();
  for (const ProgramTrace& p : trace.programs) {
    nlohmann::json events = nlohmann::json::array();
    for (const TraceEvent& ev : p.events) {
      nlohmann::json e;
      if (const auto* m = std::get_if<MemAccessEvent>(&ev)) {
        e["kind"] = memOpKindName(m->kind);
        loc(e, m->location);
        if (m->argIndex >= 0 && m->argIndex < static_cast<int32_t>(trace.args.size())) e["arg"] = trace.args[m->argIndex].name;
        e["tensor"] = m->tensorId;
        if (const TraceTensor* t = trace.findTensor(m->tensorId)) e["tensorShape"] = t->shape;
        e["shape"] = m->shape;
        e["offsets"] = m->offsets;
        nlohmann::json mask = nlohmann::json::array();
        for (size_t i = 0; i < m->offsets.size(); ++i) mask.push_back(m->laneActive(i));
        e["mask"] = std::move(mask);
        if (m->values) e["values"] = tileToJson(*m->values);
        if (!m->detail.empty()) e["op"] = m->detail;
      } else if (const auto* b = std::get_if<BindEvent>(&ev)) {
        e["kind"] = "bind";
        loc(e, b->location);
        e["name"] = b->name;
        if (b->value) e["value"] = tileToJson(*b->value);
      } else {
        const auto& pr = std::get<PrintEvent>(ev);
        e["kind"] = "print";
        loc(e, pr.location);
        e["text"] = pr.text;
      }
      events.push_back(std::move(e));
    }
    nlohmann::json compute = nlohmann::json::array();
    for (const ComputeEvent& ev : p.compute) {
      nlohmann::json e;
      auto tile = [&e](const char* name, const TileRef& t) {
        if (t) e[name] = tileToJson(*t);
      };
      if (const auto* d = std::get_if<DotEvent>(&ev)) {
        e["kind"] = "dot";
        loc(e, d->location);
        e["step"] = d->step;
        e["eventIndex"] = d->eventIndex;
        e["aShape"] = d->aShape;
        e["bShape"] = d->bShape;
        e["shape"] = d->resultShape;
        e["hasAcc"] = d->hasAcc;
        tile("a", d->a);
        tile("b", d->b);
        tile("acc", d->acc);
        tile("result", d->result);
      } else {
        const auto& r = std::get<ReduceEvent>(ev);
        e["kind"] = "reduce";
        loc(e, r.location);
        e["step"] = r.step;
        e["eventIndex"] = r.eventIndex;
        e["op"] = reduceKindName(r.kind);
        e["axis"] = r.axis < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.axis);
        e["keepDims"] = r.keepDims;
        e["inputShape"] = r.inputShape;
        e["shape"] = r.resultShape;
        tile("input", r.input);
        tile("result", r.result);
      }
      compute.push_back(std::move(e));
    }
    programs.push_back({{"pid", p.pid},
                        {"linearId", p.linearId},
                        {"truncated", p.truncated},
                        {"events", std::move(events)},
                        {"compute", std::move(compute)}});
  }
  j["programs"] = std::move(programs);
  return j;
}

}  // namespace tilescope::sim
