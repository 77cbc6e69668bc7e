// Traced launches: what is recorded, the size policy, and the trace's binary/JSON round trips.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/sim/Simulator.h"
#include "core/sim/TraceJson.h"
#include "core/sim/TraceReader.h"
#include "core/sim/TraceWriter.h"
#include "core/testing/SampleKernels.h"

namespace tilescope::sim {
namespace {

using namespace testing;

struct AddSetup {
  Memory mem;
  int x = 0, y = 0, out = 0;
  explicit AddSetup(int64_t n) {
    std::vector<double> xs(n), ys(n);
    for (int64_t i = 0; i < n; ++i) {
      xs[i] = static_cast<double>(i);
      ys[i] = 100.0 + static_cast<double>(i);
    }
    x = mem.createFromDoubles("x", DType::FP32, {n}, xs);
    y = mem.createFromDoubles("y", DType::FP32, {n}, ys);
    out = mem.create("out", DType::FP32, {n}, TensorInit::Uninitialized);
  }
  std::vector<LaunchArg> args(int64_t n) const {
    return {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::tensor(out), LaunchArg::integer(n)};
  }
};

std::vector<const MemAccessEvent*> accesses(const ProgramTrace& p) {
  std::vector<const MemAccessEvent*> out;
  for (const TraceEvent& e : p.events)
    if (const auto* m = std::get_if<MemAccessEvent>(&e)) out.push_back(m);
  return out;
}

TEST(SimulatorTraceTest, RecordsAccessesBindingsAndLocations) {
  AddSetup s(10);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.recordValues = true;
  auto r = sim.launch(*addKernel(4), Grid{3}, s.args(10), o);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  ASSERT_TRUE(r.trace);
  const LaunchTrace& t = *r.trace;
  EXPECT_EQ(t.kernelName, "vec_add");
  EXPECT_EQ(t.totalPrograms, 3);
  EXPECT_EQ(t.droppedPrograms, 0);
  EXPECT_EQ(t.policy, "all 3 programs that ran are traced");
  ASSERT_EQ(t.args.size(), 4u);
  EXPECT_EQ(t.args[3].name, "length");
  EXPECT_EQ(t.args[3].valueText, "10");
  ASSERT_EQ(t.tensors.size(), 3u);
  ASSERT_EQ(t.programs.size(), 3u);
  const ProgramTrace& p2 = t.programs[2];
  EXPECT_EQ(p2.pid, (std::array<int64_t, 3>{2, 0, 0}));
  const auto acc = accesses(p2);
  ASSERT_EQ(acc.size(), 3u);
  EXPECT_EQ(acc[0]->kind, MemOpKind::Load);
  EXPECT_EQ(t.args[acc[0]->argIndex].name, "a_ptr");
  EXPECT_EQ(acc[0]->offsets, (std::vector<int64_t>{8, 9, 10, 11}));
  EXPECT_EQ(acc[0]->mask, (std::vector<uint8_t>{1, 1, 0, 0}));
  ASSERT_TRUE(acc[0]->values);
  EXPECT_EQ(acc[0]->values->floats()[1], 9.0);
  EXPECT_EQ(acc[0]->values->floats()[2], 0.0);  // masked-off lane, no `other`
  EXPECT_EQ(acc[2]->kind, MemOpKind::Store);
  EXPECT_EQ(t.args[acc[2]->argIndex].name, "out_ptr");
  const TraceLocation& loc = t.locations[acc[0]->location];
  EXPECT_EQ(loc.str(), "vec_add.py:7:9");
  EXPECT_EQ(loc.endLine, 7);
  // Every named variable's value, in statement order.
  std::vector<std::string> names;
  for (const TraceEvent& e : p2.events)
    if (const auto* b = std::get_if<BindEvent>(&e)) names.push_back(b->name);
  EXPECT_EQ(names, (std::vector<std::string>{"pid", "first", "idx", "inside", "a", "b", "total"}));
  const auto& idxBind = std::get<BindEvent>(p2.events[2]);
  EXPECT_EQ(t.locations[idxBind.location].line, 5);
  EXPECT_EQ(idxBind.value->ints()[3], 11);
}

TEST(SimulatorTraceTest, LargeGridsKeepTheFirstProgramsAndTheSelectedOnes) {
  const int64_t n = 400;
  AddSetup s(n);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.maxTracedPrograms = 5;
  o.extraTracedPrograms = {{50, 0, 0}, {99, 0, 0}, {1000, 0, 0}};
  auto r = sim.launch(*addKernel(4), Grid{100}, s.args(n), o);
  ASSERT_TRUE(r.ok());
  const LaunchTrace& t = *r.trace;
  ASSERT_EQ(t.programs.size(), 7u);
  EXPECT_EQ(t.programs[5].pid[0], 50);
  EXPECT_EQ(t.programs[6].pid[0], 99);
  EXPECT_EQ(t.droppedPrograms, 93);
  EXPECT_EQ(t.policy, "traced 7 of 100 programs that ran; 93 came after the first 5 (maxTracedPrograms)");
  // Untraced programs ran all the same.
  EXPECT_EQ(s.mem.readDoubles(s.out)[399], 399.0 + 499.0);
}

TEST(SimulatorTraceTest, PidFilterSelectsTracedPrograms) {
  AddSetup s(16);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.pidFilter = *PidFilter::parse(">=2").filter;
  auto r = sim.launch(*addKernel(4), Grid{4}, s.args(16), o);
  ASSERT_EQ(r.trace->programs.size(), 2u);
  EXPECT_EQ(r.trace->programs[0].pid[0], 2);
  EXPECT_EQ(r.trace->pidFilter, "pid_0 >= 2");
  EXPECT_EQ(r.trace->policy, "traced 2 of 4 programs that ran; 2 did not match the pid filter 'pid_0 >= 2'");
}

TEST(SimulatorTraceTest, ByteCapTruncatesAndSaysSo) {
  const int64_t n = 4096;
  AddSetup s(n);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.maxTraceBytes = 40000;  // a few programs' worth of 256-lane events
  auto r = sim.launch(*addKernel(256), Grid{16}, s.args(n), o);
  ASSERT_TRUE(r.ok());
  const LaunchTrace& t = *r.trace;
  ASSERT_FALSE(t.programs.empty());
  EXPECT_LT(t.programs.size(), 16u);
  EXPECT_TRUE(t.programs.back().truncated);
  EXPECT_NE(t.policy.find("came after the trace reached"), std::string::npos) << t.policy;
  EXPECT_NE(t.policy.find("is cut short where the size cap was reached"), std::string::npos) << t.policy;
}

// A program asked for by name (the inspector's trace_pids) is kept even after the others' byte cap
// cut the trace: it has a budget of its own.
TEST(SimulatorTraceTest, ARequestedProgramIsKeptPastTheByteCap) {
  const int64_t n = 4096;
  AddSetup s(n);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.maxTraceBytes = 40000;
  o.extraTracedPrograms = {{14, 0, 0}};
  auto r = sim.launch(*addKernel(256), Grid{16}, s.args(n), o);
  ASSERT_TRUE(r.ok());
  const LaunchTrace& t = *r.trace;
  ASSERT_GE(t.programs.size(), 2u);
  const ProgramTrace& last = t.programs.back();
  EXPECT_EQ(last.linearId, 14);
  EXPECT_FALSE(last.truncated);
  EXPECT_EQ(accesses(last).size(), 3u);  // two loads and a store
  const ProgramTrace& cut = t.programs[t.programs.size() - 2];
  EXPECT_LT(cut.linearId, 14);
  EXPECT_TRUE(cut.truncated) << "the other programs are still cut at the cap";
}

// Traced programs run on several threads; the trace must not depend on that.
TEST(SimulatorTraceTest, ParallelTracedLaunchRecordsTheSameTraceAsASequentialOne) {
  const int64_t n = 4096;
  auto traceWith = [&](int threads, size_t maxBytes) {
    AddSetup s(n);
    Simulator sim(s.mem);
    LaunchOptions o;
    o.trace = true;
    o.numThreads = threads;
    o.maxTraceBytes = maxBytes;
    o.maxTracedPrograms = 40;
    o.extraTracedPrograms = {{60, 0, 0}};
    auto r = sim.launch(*addKernel(32), Grid{n / 32}, s.args(n), o);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    EXPECT_EQ(s.mem.readDoubles(s.out)[n - 1], (n - 1) + 100.0 + (n - 1));
    return traceToJson(*r.trace).dump();
  };
  const std::string sequential = traceWith(1, size_t{256} << 20);
  EXPECT_NE(sequential.find("\"linearId\":60"), std::string::npos);
  for (int round = 0; round < 5; ++round) EXPECT_EQ(traceWith(4, size_t{256} << 20), sequential);
  // Under a byte cap the kept programs are a prefix in linear order, cut where the cap is reached.
  AddSetup s(n);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  o.numThreads = 4;
  o.maxTraceBytes = 20000;
  auto r = sim.launch(*addKernel(32), Grid{n / 32}, s.args(n), o);
  ASSERT_TRUE(r.ok());
  const LaunchTrace& t = *r.trace;
  ASSERT_FALSE(t.programs.empty());
  for (size_t i = 0; i < t.programs.size(); ++i) {
    EXPECT_EQ(t.programs[i].linearId, static_cast<int64_t>(i));
    EXPECT_EQ(t.programs[i].truncated, i + 1 == t.programs.size());
  }
}

TEST(SimulatorTraceTest, OutOfBoundsAccessIsInTheTrace) {
  AddSetup s(6);
  Simulator sim(s.mem);
  LaunchOptions o;
  o.trace = true;
  auto r = sim.launch(*addKernel(4, false), Grid{2}, s.args(6), o);
  ASSERT_EQ(r.status, LaunchStatus::Error);
  ASSERT_EQ(r.trace->programs.size(), 2u);
  const auto acc = accesses(r.trace->programs[1]);
  ASSERT_EQ(acc.size(), 1u);
  EXPECT_EQ(acc[0]->offsets, (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(r.trace->policy, "all 2 programs that ran are traced");
}

TEST(SimulatorTraceTest, RealTraceRoundTripsThroughBinaryAndJson) {
  Memory mem;
  const int64_t h = 20, w = 30;
  std::vector<int64_t> img(3 * h * w);
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<int64_t>((i * 37) % 256);
  const int x = mem.createFromInts("img", DType::U8, {3, h, w}, img);
  const int out = mem.create("out", DType::U8, {h, w}, TensorInit::Uninitialized);
  Simulator sim(mem);
  LaunchOptions o;
  o.trace = true;
  o.recordValues = true;
  auto r = sim.launch(*rgb2greyKernel(16, 16), Grid{2, 2},
                      {LaunchArg::tensor(x), LaunchArg::tensor(out), LaunchArg::integer(h), LaunchArg::integer(w)}, o);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string bytes = TraceWriter::write(*r.trace);
  auto back = TraceReader::read(bytes);
  ASSERT_TRUE(back.trace) << back.error;
  const LaunchTrace& a = *r.trace;
  const LaunchTrace& b = *back.trace;
  ASSERT_EQ(a.programs.size(), b.programs.size());
  for (size_t p = 0; p < a.programs.size(); ++p) {
    ASSERT_EQ(a.programs[p].events.size(), b.programs[p].events.size());
    for (size_t e = 0; e < a.programs[p].events.size(); ++e) {
      const TraceEvent& ea = a.programs[p].events[e];
      const TraceEvent& eb = b.programs[p].events[e];
      ASSERT_EQ(ea.index(), eb.index());
      if (const auto* m = std::get_if<MemAccessEvent>(&ea)) {
        const auto& n = std::get<MemAccessEvent>(eb);
        EXPECT_EQ(m->offsets, n.offsets);
        EXPECT_EQ(m->mask.empty() || std::all_of(m->mask.begin(), m->mask.end(), [](uint8_t v) { return v; }), n.mask.empty());
        EXPECT_TRUE(*m->values == *n.values);
      } else if (const auto* v = std::get_if<BindEvent>(&ea)) {
        EXPECT_TRUE(*v->value == *std::get<BindEvent>(eb).value) << v->name;
      }
    }
  }
  // 2-D offsets of a 16x16 block are affine: the trace stays small.
  EXPECT_LT(bytes.size(), 60000u);
  const nlohmann::json j = traceToJson(b);
  EXPECT_EQ(j["programs"][3]["pid"], (std::vector<int64_t>{1, 1, 0}));
  const auto& firstLoad = j["programs"][0]["events"][5];  // after ys, xs, pix, ok, plane
  EXPECT_EQ(firstLoad["kind"], "load");
  EXPECT_EQ(firstLoad["arg"], "img_ptr");
  EXPECT_EQ(firstLoad["tensorShape"], (std::vector<int64_t>{3, h, w}));
  EXPECT_EQ(firstLoad["offsets"][17], w * 1 + 1);  // lane [1][1] of the 16x16 block of program (0, 0)
}

}  // namespace
}  // namespace tilescope::sim
