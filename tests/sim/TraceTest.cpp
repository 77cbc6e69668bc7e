#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/BinaryCodec.h"
#include "core/sim/DeviceAddress.h"
#include "core/sim/TraceJson.h"
#include "core/sim/TraceReader.h"
#include "core/sim/TraceWriter.h"

namespace tilescope::sim {
namespace {

using ir::DType;

LaunchTrace sampleTrace() {
  LaunchTrace t;
  t.kernelName = "copy_k";
  t.grid = {3, 1, 1};
  t.totalPrograms = 3;
  t.droppedPrograms = 1;
  t.policy = "traced the first 2 of 3 programs";
  t.pidFilter = "pid_0 < 2";
  t.valuesRecorded = true;
  t.tensors = {{1, "x", DType::I64, {6}}, {2, "z", DType::I64, {6}}};
  t.args = {{"x_ptr", 1, DType::I64, ""}, {"z_ptr", 2, DType::I64, ""}, {"n", 0, DType::I32, "6"}};
  t.locations = {{"seed.py", 5, 9, 5, 40}, {"seed.py", 6, 5, 6, 35}};
  for (int64_t p = 0; p < 2; ++p) {
    ProgramTrace prog;
    prog.pid = {p, 0, 0};
    prog.linearId = p;
    MemAccessEvent load;
    load.kind = MemOpKind::Load;
    load.location = 0;
    load.argIndex = 0;
    load.tensorId = 1;
    load.shape = {2};
    load.offsets = {2 * p, 2 * p + 1};
    load.values = makeTileRef(Tile::fromInts(DType::I64, {2}, std::vector<int64_t>{2 * p + 1, 2 * p + 2}));
    prog.events.emplace_back(load);
    MemAccessEvent store = load;
    store.kind = MemOpKind::Store;
    store.location = 1;
    store.argIndex = 1;
    store.tensorId = 2;
    store.mask = {1, 0};
    prog.events.emplace_back(store);
    prog.events.emplace_back(BindEvent{0, "offs", 3, makeTileRef(Tile::fromInts(DType::I32, {2}, load.offsets))});
    prog.events.emplace_back(
        BindEvent{0, "y", 4, makeTileRef(Tile::fromFloats(DType::FP32, {3}, std::vector<double>{0.5, NAN, -INFINITY}))});
    prog.events.emplace_back(BindEvent{
        0, "p", 5,
        makeTileRef(Tile::fromPointers(DType::FP32, {2}, std::vector<int64_t>{DeviceAddress::make(1, 0), DeviceAddress::make(1, 4)}))});
    prog.events.emplace_back(PrintEvent{1, "pid (" + std::to_string(p) + ", 0, 0) hello"});
    t.programs.push_back(std::move(prog));
  }
  t.programs[1].truncated = true;
  return t;
}

void expectSameTile(const TileRef& a, const TileRef& b) {
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(*a == *b) << a->debugString() << " vs " << b->debugString();
}

TEST(TraceTest, BinaryRoundTrip) {
  const LaunchTrace t = sampleTrace();
  const std::string bytes = TraceWriter::write(t);
  EXPECT_EQ(bytes.substr(0, 7), "TSTRACE");
  auto r = TraceReader::read(bytes);
  ASSERT_TRUE(r.trace) << r.error;
  const LaunchTrace& u = *r.trace;
  EXPECT_EQ(u.kernelName, t.kernelName);
  EXPECT_EQ(u.grid, t.grid);
  EXPECT_EQ(u.totalPrograms, 3);
  EXPECT_EQ(u.droppedPrograms, 1);
  EXPECT_EQ(u.policy, t.policy);
  EXPECT_EQ(u.pidFilter, t.pidFilter);
  EXPECT_TRUE(u.valuesRecorded);
  ASSERT_EQ(u.tensors.size(), 2u);
  EXPECT_EQ(u.tensors[1].name, "z");
  EXPECT_EQ(u.tensors[1].shape, (std::vector<int64_t>{6}));
  ASSERT_EQ(u.args.size(), 3u);
  EXPECT_EQ(u.args[2].valueText, "6");
  EXPECT_EQ(u.locations, t.locations);
  ASSERT_EQ(u.programs.size(), 2u);
  EXPECT_TRUE(u.programs[1].truncated);
  for (size_t p = 0; p < 2; ++p) {
    const auto& ea = t.programs[p].events;
    const auto& eb = u.programs[p].events;
    ASSERT_EQ(ea.size(), eb.size());
    const auto& la = std::get<MemAccessEvent>(ea[1]);
    const auto& lb = std::get<MemAccessEvent>(eb[1]);
    EXPECT_EQ(lb.kind, MemOpKind::Store);
    EXPECT_EQ(lb.offsets, la.offsets);
    EXPECT_EQ(lb.mask, la.mask);
    EXPECT_EQ(lb.argIndex, 1);
    expectSameTile(la.values, lb.values);
    EXPECT_TRUE(std::get<MemAccessEvent>(eb[0]).mask.empty());
    for (size_t k = 2; k < 5; ++k) expectSameTile(std::get<BindEvent>(ea[k]).value, std::get<BindEvent>(eb[k]).value);
    EXPECT_EQ(std::get<PrintEvent>(eb[5]).text, std::get<PrintEvent>(ea[5]).text);
  }
}

TEST(TraceTest, OffsetsCompress) {
  // A 32x32 tile of affine offsets costs a few bytes, not 4 KiB.
  std::vector<int64_t> offs;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) offs.push_back(1000 + 225 * i + j);
  ByteWriter w;
  w.intArray({32, 32}, offs);
  EXPECT_LT(w.buffer().size(), 12u);
  ByteReader r(w.buffer());
  EXPECT_EQ(r.intArray({32, 32}), offs);
  // Not affine, small values: one byte each.
  offs[5] = 7;
  std::vector<int64_t> small(offs.size());
  for (size_t i = 0; i < offs.size(); ++i) small[i] = static_cast<int64_t>(i % 100);
  ByteWriter w2;
  w2.intArray({32, 32}, small);
  EXPECT_EQ(w2.buffer().size(), 1u + 1024u);
  ByteReader r2(w2.buffer());
  EXPECT_EQ(r2.intArray({32, 32}), small);
  // Not affine, int32 range.
  ByteWriter w3;
  w3.intArray({32, 32}, offs);
  EXPECT_EQ(w3.buffer().size(), 1u + 4096u);
  ByteReader r3(w3.buffer());
  EXPECT_EQ(r3.intArray({32, 32}), offs);
}

TEST(TraceTest, CorruptInputGivesErrors) {
  EXPECT_FALSE(TraceReader::read("garbage").trace);
  EXPECT_NE(TraceReader::read("garbage").error.find("bad magic"), std::string::npos);
  const std::string bytes = TraceWriter::write(sampleTrace());
  for (size_t cut : {size_t{10}, size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    auto r = TraceReader::read(std::string_view(bytes).substr(0, cut));
    EXPECT_FALSE(r.trace) << cut;
    EXPECT_FALSE(r.error.empty());
  }
  std::string wrongVersion = bytes;
  wrongVersion[8] = 9;
  EXPECT_NE(TraceReader::read(wrongVersion).error.find("version 9"), std::string::npos);
  // Flipping payload bytes never crashes.
  for (size_t i = 16; i < bytes.size(); i += 7) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x5A);
    (void)TraceReader::read(b);
  }
}

TEST(TraceTest, UnknownSectionsAreSkipped) {
  std::string bytes = TraceWriter::write(sampleTrace());
  // Insert a section with tag 99 right after the header.
  const std::string extra = std::string("\x63\x03", 2) + "abc";
  bytes.insert(16, extra);
  auto r = TraceReader::read(bytes);
  ASSERT_TRUE(r.trace) << r.error;
  EXPECT_EQ(r.trace->programs.size(), 2u);
}

TEST(TraceTest, JsonExport) {
  const nlohmann::json j = traceToJson(sampleTrace());
  EXPECT_EQ(j["format"], "tilescope-trace");
  EXPECT_EQ(j["kernel"], "copy_k");
  EXPECT_EQ(j["programs"].size(), 2u);
  const auto& store = j["programs"][1]["events"][1];
  EXPECT_EQ(store["kind"], "store");
  EXPECT_EQ(store["arg"], "z_ptr");
  EXPECT_EQ(store["loc"], "seed.py:6:5");
  EXPECT_EQ(store["offsets"], (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(store["mask"], (std::vector<bool>{true, false}));
  EXPECT_EQ(store["tensorShape"], (std::vector<int64_t>{6}));
  const auto& y = j["programs"][0]["events"][3]["value"];
  EXPECT_EQ(y["data"][1], "nan");
  EXPECT_EQ(y["data"][2], "-inf");
  const auto& p = j["programs"][0]["events"][4]["value"];
  EXPECT_EQ(p["pointer"], true);
  EXPECT_EQ(p["offsets"], (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(p["tensors"], (std::vector<int>{1, 1}));
  EXPECT_EQ(j["args"][2]["value"], "6");
}

}  // namespace
}  // namespace tilescope::sim
