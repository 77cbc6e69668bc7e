#include "core/sim/TraceReader.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/sim/BinaryCodec.h"
#include "core/sim/TraceWriter.h"

namespace tilescope::sim {

namespace {

ir::DType readDType(ByteReader& r) {
  const uint8_t v = r.u8();
  if (v >= ir::kDTypeCount) {
    r.fail("unknown dtype " + std::to_string(v));
    return ir::DType::I32;
  }
  return static_cast<ir::DType>(v);
}

bool readEvent(ByteReader& r, const LaunchTrace& t, ProgramTrace& prog) {
  const uint8_t tag = r.u8();
  auto location = [&]() {
    const uint64_t l = r.varint();
    if (l >= t.locations.size()) r.fail("location index " + std::to_string(l) + " out of range");
    return static_cast<uint32_t>(l);
  };
  switch (tag) {
    case TraceWriter::Load:
    case TraceWriter::Store:
    case TraceWriter::AtomicRMW:
    case TraceWriter::AtomicCAS: {
      MemAccessEvent m;
      m.kind = static_cast<MemOpKind>(tag);
      m.location = location();
      m.argIndex = static_cast<int32_t>(r.svarint());
      m.tensorId = static_cast<int32_t>(r.varint());
      m.shape = r.shape();
      const ir::Shape lanes = m.shape.empty() ? ir::Shape{1} : m.shape;
      m.offsets = r.intArray(lanes);
      m.mask = r.mask(ir::numElements(lanes));
      if (r.u8()) m.values = makeTileRef(r.tile());
      m.detail = r.str();
      if (m.argIndex >= static_cast<int32_t>(t.args.size())) r.fail("argument index out of range");
      prog.events.emplace_back(std::move(m));
      break;
    }
    case TraceWriter::Bind: {
      BindEvent b;
      b.location = location();
      b.name = r.str();
      b.varId = static_cast<int32_t>(r.varint());
      b.value = makeTileRef(r.tile());
      prog.events.emplace_back(std::move(b));
      break;
    }
    case TraceWriter::Print: {
      PrintEvent p;
      p.location = location();
      p.text = r.str();
      prog.events.emplace_back(std::move(p));
      break;
    }
    default: r.fail("unknown event tag " + std::to_string(tag)); return false;
  }
  return r.ok();
}

bool readCompute(ByteReader& r, const LaunchTrace& t, ProgramTrace& prog) {
  const uint8_t tag = r.u8();
  const uint64_t location = r.varint();
  if (location >= t.locations.size()) r.fail("location index " + std::to_string(location) + " out of range");
  const uint64_t eventIndex = r.varint();
  if (eventIndex > prog.events.size()) r.fail("compute event index past the program's events");
  const auto step = static_cast<int64_t>(r.varint());
  auto tiles = [&r](std::initializer_list<TileRef*> list, int bit) {
    const uint8_t flags = r.u8();
    for (TileRef* t : list)
      if (r.ok() && (flags & (1u << bit++))) *t = makeTileRef(r.tile());
    return flags;
  };
  if (tag == TraceWriter::Dot) {
    DotEvent d;
    d.location = static_cast<uint32_t>(location);
    d.eventIndex = static_cast<uint32_t>(eventIndex);
    d.step = step;
    d.aShape = r.shape();
    d.bShape = r.shape();
    d.resultShape = r.shape();
    d.hasAcc = (tiles({&d.a, &d.b, &d.acc, &d.result}, 1) & 1) != 0;
    prog.compute.emplace_back(std::move(d));
  } else if (tag == TraceWriter::Reduce) {
    ReduceEvent e;
    e.location = static_cast<uint32_t>(location);
    e.eventIndex = static_cast<uint32_t>(eventIndex);
    e.step = step;
    const uint8_t kind = r.u8();
    if (kind > static_cast<uint8_t>(ReduceKind::XorSum)) r.fail("unknown reduction kind " + std::to_string(kind));
    e.kind = static_cast<ReduceKind>(kind);
    e.axis = static_cast<int32_t>(r.svarint());
    e.keepDims = r.u8() != 0;
    e.inputShape = r.shape();
    e.resultShape = r.shape();
    if (e.axis < -1 || e.axis >= static_cast<int32_t>(e.inputShape.size())) r.fail("reduction axis out of range");
    tiles({&e.input, &e.result}, 0);
    prog.compute.emplace_back(std::move(e));
  } else {
    r.fail("unknown compute event tag " + std::to_string(tag));
  }
  return r.ok();
}

}  // namespace

TraceReader::Result TraceReader::read(std::string_view bytes) {
  Result result;
  ByteReader r(bytes);
  const std::string_view magic = r.take(sizeof TraceWriter::kMagic);
  if (!r.ok() || std::memcmp(magic.data(), TraceWriter::kMagic, sizeof TraceWriter::kMagic) != 0) {
    result.error = "not a tilescope trace (bad magic)";
    return result;
  }
  const uint16_t major = r.u16();
  r.u16();  // minor: newer minors only add sections, which we skip
  const uint32_t flags = r.u32();
  if (!r.ok()) {
    result.error = "truncated trace header";
    return result;
  }
  if (major != TraceWriter::kVersionMajor) {
    result.error = "trace format version " + std::to_string(major) + " is not supported (this build reads version " +
                   std::to_string(TraceWriter::kVersionMajor) + ")";
    return result;
  }
  LaunchTrace t;
  t.valuesRecorded = (flags & 1) != 0;
  bool sawLaunch = false;
  bool sawEnd = false;
  while (r.ok() && !sawEnd) {
    const uint8_t tag = r.u8();
    const uint64_t length = r.varint();
    if (!r.ok()) break;
    if (length > r.remaining()) {
      r.fail("section length runs past the end of the data");
      break;
    }
    ByteReader s(r.take(static_cast<size_t>(length)));
    switch (tag) {
      case TraceWriter::End: sawEnd = true; break;
      case TraceWriter::Launch:
        t.kernelName = s.str();
        for (int64_t& g : t.grid) g = static_cast<int64_t>(s.varint());
        t.totalPrograms = static_cast<int64_t>(s.varint());
        t.droppedPrograms = static_cast<int64_t>(s.varint());
        t.policy = s.str();
        t.pidFilter = s.str();
        if (s.remaining() > 0) t.computeDropped = static_cast<int64_t>(s.varint());  // minor 1
        sawLaunch = true;
        break;
      case TraceWriter::Tensors: {
        const uint64_t n = s.varint();
        for (uint64_t i = 0; i < n && s.ok(); ++i) {
          TraceTensor tt;
          tt.id = static_cast<int32_t>(s.varint());
          tt.name = s.str();
          tt.dtype = readDType(s);
          tt.shape = s.shape();
          t.tensors.push_back(std::move(tt));
        }
        break;
      }
      case TraceWriter::Args: {
        const uint64_t n = s.varint();
        for (uint64_t i = 0; i < n && s.ok(); ++i) {
          TraceArg a;
          a.name = s.str();
          a.tensorId = static_cast<int32_t>(s.varint());
          a.dtype = readDType(s);
          a.valueText = s.str();
          t.args.push_back(std::move(a));
        }
        break;
      }
      case TraceWriter::Locations: {
        const uint64_t n = s.varint();
        for (uint64_t i = 0; i < n && s.ok(); ++i) {
          TraceLocation l;
          l.file = s.str();
          l.line = static_cast<int>(s.varint());
          l.column = static_cast<int>(s.varint());
          l.endLine = static_cast<int>(s.varint());
          l.endColumn = static_cast<int>(s.varint());
          t.locations.push_back(std::move(l));
        }
        break;
      }
      case TraceWriter::Program: {
        ProgramTrace prog;
        for (int64_t& v : prog.pid) v = static_cast<int64_t>(s.varint());
        prog.linearId = static_cast<int64_t>(s.varint());
        prog.truncated = s.u8() != 0;
        const uint64_t n = s.varint();
        for (uint64_t i = 0; i < n && s.ok(); ++i)
          if (!readEvent(s, t, prog)) break;
        t.programs.push_back(std::move(prog));
        break;
      }
      case TraceWriter::Compute: {
        if (t.programs.empty()) {
          s.fail("compute section before any program");
          break;
        }
        ProgramTrace& prog = t.programs.back();
        const uint64_t n = s.varint();
        for (uint64_t i = 0; i < n && s.ok(); ++i)
          if (!readCompute(s, t, prog)) break;
        break;
      }
      default: break;  // unknown section from a newer minor version
    }
    if (!s.ok()) {
      result.error = "corrupt section " + std::to_string(tag) + ": " + s.error();
      return result;
    }
  }
  if (!r.ok()) {
    result.error = r.error();
    return result;
  }
  if (!sawLaunch || !sawEnd) {
    result.error = sawLaunch ? "trace is truncated (no end marker)" : "trace has no launch section";
    return result;
  }
  result.trace = std::move(t);
  return result;
}

TraceReader::Result TraceReader::readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {std::nullopt, "cannot open " + path};
  std::stringstream ss;
  ss << f.rdbuf();
  return read(ss.str());
}

}  // namespace tilescope::sim
