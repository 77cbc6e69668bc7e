#include "core/sim/TraceWriter.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

#include "core/sim/BinaryCodec.h"

namespace tilescope::sim {

namespace {

// A section is its tag, its payload length and the payload, so readers can skip unknown ones.
void writeSection(ByteWriter& out, uint8_t tag, ByteWriter& payload) {
  out.u8(tag);
  out.varint(payload.buffer().size());
  out.bytes(payload.buffer());
  payload.buffer().clear();
}

void writeEvent(ByteWriter& w, const TraceEvent& e) {
  if (const auto* m = std::get_if<MemAccessEvent>(&e)) {
    w.u8(static_cast<uint8_t>(m->kind));  // MemOpKind values equal the event tags
    w.varint(m->location);
    w.svarint(m->argIndex);
    w.varint(static_cast<uint64_t>(m->tensorId));
    writeShape(w, m->shape);
    const ir::Shape lanes = m->shape.empty() ? ir::Shape{1} : m->shape;
    w.intArray(lanes, m->offsets);
    w.mask(m->mask);
    w.u8(m->values ? 1 : 0);
    if (m->values) w.tile(*m->values);
    w.str(m->detail);
  } else if (const auto* b = std::get_if<BindEvent>(&e)) {
    w.u8(TraceWriter::Bind);
    w.varint(b->location);
    w.str(b->name);
    w.varint(static_cast<uint64_t>(b->varId));
    w.tile(b->value ? *b->value : Tile());
  } else {
    const auto& p = std::get<PrintEvent>(e);
    w.u8(TraceWriter::Print);
    w.varint(p.location);
    w.str(p.text);
  }
}

// Optional tiles: a presence bit in `flags` (from `bit` on), then the present tiles in order.
void writeCompute(ByteWriter& w, const ComputeEvent& e) {
  auto tiles = [&w](std::initializer_list<const TileRef*> list, uint8_t flags, int bit) {
    for (const TileRef* t : list) {
      if (*t) flags |= uint8_t(1u << bit);
      ++bit;
    }
    w.u8(flags);
    for (const TileRef* t : list)
      if (*t) w.tile(**t);
  };
  if (const auto* d = std::get_if<DotEvent>(&e)) {
    w.u8(TraceWriter::Dot);
    w.varint(d->location);
    w.varint(d->eventIndex);
    w.varint(static_cast<uint64_t>(d->step));
    writeShape(w, d->aShape);
    writeShape(w, d->bShape);
    writeShape(w, d->resultShape);
    tiles({&d->a, &d->b, &d->acc, &d->result}, d->hasAcc ? 1 : 0, 1);
  } else {
    const auto& r = std::get<ReduceEvent>(e);
    w.u8(TraceWriter::Reduce);
    w.varint(r.location);
    w.varint(r.eventIndex);
    w.varint(static_cast<uint64_t>(r.step));
    w.u8(static_cast<uint8_t>(r.kind));
    w.svarint(r.axis);
    w.u8(r.keepDims ? 1 : 0);
    writeShape(w, r.inputShape);
    writeShape(w, r.resultShape);
    tiles({&r.input, &r.result}, 0, 0);
  }
}

}  // namespace

std::string TraceWriter::write(const LaunchTrace& trace) {
  ByteWriter out;
  out.bytes(std::string_view(kMagic, sizeof kMagic));
  out.u16(kVersionMajor);
  out.u16(kVersionMinor);
  out.u32(trace.valuesRecorded ? 1u : 0u);

  ByteWriter p;
  p.str(trace.kernelName);
  for (int64_t g : trace.grid) p.varint(static_cast<uint64_t>(g));
  p.varint(static_cast<uint64_t>(trace.totalPrograms));
  p.varint(static_cast<uint64_t>(trace.droppedPrograms));
  p.str(trace.policy);
  p.str(trace.pidFilter);
  p.varint(static_cast<uint64_t>(trace.computeDropped));  // minor 1
  writeSection(out, Launch, p);

  p.varint(trace.tensors.size());
  for (const TraceTensor& t : trace.tensors) {
    p.varint(static_cast<uint64_t>(t.id));
    p.str(t.name);
    p.u8(static_cast<uint8_t>(t.dtype));
    writeShape(p, t.shape);
  }
  writeSection(out, Tensors, p);

  p.varint(trace.args.size());
  for (const TraceArg& a : trace.args) {
    p.str(a.name);
    p.varint(static_cast<uint64_t>(a.tensorId));
    p.u8(static_cast<uint8_t>(a.dtype));
    p.str(a.valueText);
  }
  writeSection(out, Args, p);

  p.varint(trace.locations.size());
  for (const TraceLocation& l : trace.locations) {
    p.str(l.file);
    p.varint(static_cast<uint64_t>(l.line));
    p.varint(static_cast<uint64_t>(l.column));
    p.varint(static_cast<uint64_t>(l.endLine));
    p.varint(static_cast<uint64_t>(l.endColumn));
  }
  writeSection(out, Locations, p);

  // Programs' sections are independent: encoded on every core (the inspector sends the trace of
  // each launch it shows, so this is on the user's path), then joined in order.
  std::vector<std::string> programs(trace.programs.size());
  const size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), programs.size());
  std::atomic<size_t> next{0};
  auto encode = [&] {
    ByteWriter encoded, payload;
    for (size_t i = next++; i < programs.size(); i = next++) {
      const ProgramTrace& prog = trace.programs[i];
      for (int64_t v : prog.pid) payload.varint(static_cast<uint64_t>(v));
      payload.varint(static_cast<uint64_t>(prog.linearId));
      payload.u8(prog.truncated ? 1 : 0);
      payload.varint(prog.events.size());
      for (const TraceEvent& e : prog.events) writeEvent(payload, e);
      writeSection(encoded, Program, payload);
      if (!prog.compute.empty()) {
        payload.varint(prog.compute.size());
        for (const ComputeEvent& e : prog.compute) writeCompute(payload, e);
        writeSection(encoded, Compute, payload);
      }
      programs[i] = encoded.take();
      encoded.buffer().clear();
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(encode);
  encode();
  for (std::thread& t : pool) t.join();
  size_t total = out.buffer().size() + 2;
  for (const std::string& s : programs) total += s.size();
  out.buffer().reserve(total);
  for (std::string& s : programs) {
    out.bytes(s);
    std::string().swap(s);
  }
  out.u8(End);
  out.varint(0);
  return out.take();
}

bool TraceWriter::writeFile(const LaunchTrace& trace, const std::string& path, std::string* error) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) {
    if (error) *error = "cannot open " + path + " for writing";
    return false;
  }
  const std::string bytes = write(trace);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace tilescope::sim
