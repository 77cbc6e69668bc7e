// Traced dots and reductions (ProgramTrace::compute): what the simulator records for tl.dot (with
// its accumulator operand, K step by K step) and tl.max/tl.sum, the tile-size limit, their share of
// the byte cap, and their binary (Compute sections, format 1.1) and JSON round trips.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/Simulator.h"
#include "core/sim/TraceJson.h"
#include "core/sim/TraceReader.h"
#include "core/sim/TraceWriter.h"
#include "core/testing/SampleKernels.h"

namespace tilescope::sim {
namespace {

using namespace testing;

// C = A @ B for an M x K and a K x N fp32 matrix with a[i, k] = (i + 2k) % 5, b[k, j] = (k + j) % 3.
struct MatmulRun {
  Memory mem;
  std::shared_ptr<LaunchTrace> trace;
  int c = 0;
  MatmulRun(int64_t m, int64_t n, int64_t k, int64_t tm, int64_t tn, int64_t tk, LaunchOptions o = {}) {
    std::vector<double> as(static_cast<size_t>(m * k)), bs(static_cast<size_t>(k * n));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < k; ++j) as[i * k + j] = static_cast<double>((i + 2 * j) % 5);
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < n; ++j) bs[i * n + j] = static_cast<double>((i + j) % 3);
    const int a = mem.createFromDoubles("a", DType::FP32, {m, k}, as);
    const int b = mem.createFromDoubles("b", DType::FP32, {k, n}, bs);
    c = mem.create("c", DType::FP32, {m, n}, TensorInit::Uninitialized);
    Simulator sim(mem);
    o.trace = true;
    auto r = sim.launch(*matmulKernel(tm, tn, tk, DType::FP32, DType::FP32, InputPrecision::IEEE), Grid{(m + tm - 1) / tm, (n + tn - 1) / tn},
                        {LaunchArg::tensor(a), LaunchArg::tensor(b), LaunchArg::tensor(c), LaunchArg::integer(m), LaunchArg::integer(n),
                         LaunchArg::integer(k), LaunchArg::integer(k), LaunchArg::integer(1), LaunchArg::integer(n),
                         LaunchArg::integer(1), LaunchArg::integer(n), LaunchArg::integer(1)},
                        o);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    trace = r.trace;
  }
};

struct SoftmaxRun {
  Memory mem;
  std::shared_ptr<LaunchTrace> trace;
  SoftmaxRun(int64_t rows, LaunchOptions o = {}) {
    std::vector<double> xs(static_cast<size_t>(rows * 5));
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>((i * 7) % 11);
    const int x = mem.createFromDoubles("x", DType::FP32, {rows, 5}, xs);
    const int y = mem.create("y", DType::FP32, {rows, 5}, TensorInit::Uninitialized);
    Simulator sim(mem);
    o.trace = true;
    auto r = sim.launch(*softmaxKernel(8), Grid{rows},
                        {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::integer(5), LaunchArg::integer(5), LaunchArg::integer(5)}, o);
    EXPECT_TRUE(r.ok()) << r.diagnostics.render();
    trace = r.trace;
  }
};

std::vector<double> values(const TileRef& t) {
  std::vector<double> v;
  for (int64_t i = 0; t && i < t->numel(); ++i) v.push_back(t->asDouble(i));
  return v;
}

TEST(TraceComputeTest, DotsWithAnAccumulatorOperandStepThroughK) {
  // K = 40 in steps of 16: three dots, the last one's A columns 8..15 masked to zero.
  MatmulRun run(16, 16, 40, 16, 16, 16);
  ASSERT_TRUE(run.trace);
  ASSERT_EQ(run.trace->programs.size(), 1u);
  const ProgramTrace& p = run.trace->programs[0];
  ASSERT_EQ(p.compute.size(), 3u);
  for (int64_t s = 0; s < 3; ++s) {
    const auto& d = std::get<DotEvent>(p.compute[s]);
    EXPECT_EQ(d.step, s);
    EXPECT_TRUE(d.hasAcc);
    EXPECT_EQ(d.aShape, (ir::Shape{16, 16}));
    EXPECT_EQ(run.trace->locations[d.location].line, 17);  // `acc += tl.dot(a, b)` in tile_matmul.py
    ASSERT_TRUE(d.a && d.b && d.result);
    // After the first step acc is the previous dot's result, already in the trace: left out.
    EXPECT_EQ(d.acc != nullptr, s == 0);
    for (int64_t i = 0; i < 16; ++i)
      for (int64_t k = 0; k < 16; ++k)
        ASSERT_EQ(d.a->asDouble(i * 16 + k), s * 16 + k < 40 ? static_cast<double>((i + 2 * (s * 16 + k)) % 5) : 0.0);
  }
  EXPECT_EQ(values(std::get<DotEvent>(p.compute[0]).acc), std::vector<double>(256, 0.0));
  // The last result is what the program stored.
  EXPECT_EQ(values(std::get<DotEvent>(p.compute[2]).result), run.mem.readDoubles(run.c));
}

TEST(TraceComputeTest, ReductionsRecordKindAxisInputAndResult) {
  SoftmaxRun run(2);
  ASSERT_TRUE(run.trace);
  const ProgramTrace& p = run.trace->programs[1];
  ASSERT_EQ(p.compute.size(), 2u);
  const auto& mx = std::get<ReduceEvent>(p.compute[0]);
  EXPECT_EQ(mx.kind, ReduceKind::Max);
  EXPECT_EQ(mx.axis, 0);
  EXPECT_EQ(mx.inputShape, (ir::Shape{8}));
  EXPECT_EQ(mx.resultShape, ir::Shape{});
  const double inf = INFINITY;
  EXPECT_EQ(values(mx.input), (std::vector<double>{2, 9, 5, 1, 8, -inf, -inf, -inf}));  // x[5..9] = 35..63 * 7 % 11
  EXPECT_EQ(values(mx.result), std::vector<double>{9});
  const auto& sum = std::get<ReduceEvent>(p.compute[1]);
  EXPECT_EQ(sum.kind, ReduceKind::Sum);
  EXPECT_EQ(sum.step, 0);
  EXPECT_GT(sum.eventIndex, mx.eventIndex);  // `top` was bound in between
}

TEST(TraceComputeTest, TilesAboveTheLimitKeepOnlyTheirShapes) {
  // A 128 x 256 result (32768 elements) is over kMaxComputeTileElements; the 128 x 16 A is not.
  MatmulRun run(128, 256, 16, 128, 256, 16);
  ASSERT_TRUE(run.trace);
  const auto& d = std::get<DotEvent>(run.trace->programs.at(0).compute.at(0));
  EXPECT_EQ(d.resultShape, (ir::Shape{128, 256}));
  EXPECT_FALSE(d.result);
  EXPECT_FALSE(d.acc);
  EXPECT_TRUE(d.hasAcc);
  ASSERT_TRUE(d.a);
  EXPECT_EQ(d.a->numel(), 128 * 16);
  // And through the binary format.
  auto back = TraceReader::read(TraceWriter::write(*run.trace));
  ASSERT_TRUE(back.trace) << back.error;
  const auto& d2 = std::get<DotEvent>(back.trace->programs.at(0).compute.at(0));
  EXPECT_TRUE(d2.hasAcc);
  EXPECT_FALSE(d2.acc);
  EXPECT_FALSE(d2.result);
  EXPECT_EQ(d2.resultShape, (ir::Shape{128, 256}));
  EXPECT_EQ(values(d2.a), values(d.a));
}

TEST(TraceComputeTest, ComputeEventsUseAtMostAQuarterOfTheByteCap) {
  LaunchOptions o;
  o.maxTraceBytes = 40000;
  o.recordVariables = false;  // memory events alone are small next to the reductions' tiles
  SoftmaxRun run(64, o);
  ASSERT_TRUE(run.trace);
  const LaunchTrace& t = *run.trace;
  EXPECT_GT(t.computeDropped, 0);
  EXPECT_NE(t.policy.find(std::to_string(t.computeDropped) + " dot/reduction events were not recorded"), std::string::npos) << t.policy;
  size_t computeBytes = 0;
  size_t withoutCompute = 0;
  for (const ProgramTrace& p : t.programs) {
    for (const ComputeEvent& e : p.compute) computeBytes += approximateBytes(e);
    // What a program kept is a prefix of what it computed (max, then sum), never the sum alone.
    ASSERT_LE(p.compute.size(), 2u);
    if (!p.compute.empty()) {
      EXPECT_EQ(std::get<ReduceEvent>(p.compute[0]).kind, ReduceKind::Max);
    }
    if (p.compute.empty() && !p.events.empty() && !p.truncated) ++withoutCompute;
  }
  EXPECT_LE(computeBytes, o.maxTraceBytes / kComputeShareOfCap);
  EXPECT_GT(computeBytes, 0u);
  // Memory events go on being recorded after the compute share is used up: every program is traced.
  EXPECT_GT(withoutCompute, 0u);
  EXPECT_EQ(t.programs.size(), 64u);
  EXPECT_EQ(t.droppedPrograms, 0);
}

TEST(TraceComputeTest, RecordComputeOffRecordsNone) {
  LaunchOptions o;
  o.recordCompute = false;
  SoftmaxRun run(2, o);
  ASSERT_TRUE(run.trace);
  for (const ProgramTrace& p : run.trace->programs) EXPECT_TRUE(p.compute.empty());
  EXPECT_EQ(run.trace->computeDropped, 0);
}

TEST(TraceComputeTest, BinaryAndJsonRoundTrips) {
  MatmulRun mm(16, 16, 32, 16, 16, 16);
  SoftmaxRun sm(1);
  for (const LaunchTrace* t : {mm.trace.get(), sm.trace.get()}) {
    ASSERT_TRUE(t);
    const std::string bytes = TraceWriter::write(*t);
    EXPECT_EQ(bytes[10], 1);  // minor version 1
    auto back = TraceReader::read(bytes);
    ASSERT_TRUE(back.trace) << back.error;
    ASSERT_EQ(back.trace->programs.size(), t->programs.size());
    for (size_t i = 0; i < t->programs.size(); ++i) {
      const auto& a = t->programs[i].compute;
      const auto& b = back.trace->programs[i].compute;
      ASSERT_EQ(a.size(), b.size());
      for (size_t j = 0; j < a.size(); ++j) {
        ASSERT_EQ(a[j].index(), b[j].index());
        if (const auto* d = std::get_if<DotEvent>(&a[j])) {
          const auto& e = std::get<DotEvent>(b[j]);
          EXPECT_EQ(e.location, d->location);
          EXPECT_EQ(e.eventIndex, d->eventIndex);
          EXPECT_EQ(e.step, d->step);
          EXPECT_EQ(e.hasAcc, d->hasAcc);
          EXPECT_EQ(values(e.a), values(d->a));
          EXPECT_EQ(values(e.b), values(d->b));
          EXPECT_EQ(values(e.acc), values(d->acc));
          EXPECT_EQ(values(e.result), values(d->result));
        } else {
          const auto& r = std::get<ReduceEvent>(a[j]);
          const auto& e = std::get<ReduceEvent>(b[j]);
          EXPECT_EQ(e.kind, r.kind);
          EXPECT_EQ(e.axis, r.axis);
          EXPECT_EQ(e.step, r.step);
          EXPECT_EQ(e.inputShape, r.inputShape);
          EXPECT_EQ(e.result->dtype(), r.result->dtype());
          EXPECT_EQ(values(e.input), values(r.input));
          EXPECT_EQ(values(e.result), values(r.result));
        }
      }
    }
  }
  const nlohmann::json j = traceToJson(*sm.trace);
  EXPECT_EQ(j["computeDropped"], 0);
  const auto& compute = j["programs"][0]["compute"];
  ASSERT_EQ(compute.size(), 2u);
  EXPECT_EQ(compute[0]["kind"], "reduce");
  EXPECT_EQ(compute[0]["op"], "max");
  EXPECT_EQ(compute[0]["axis"], 0);
  EXPECT_EQ(compute[0]["input"]["data"][5], "-inf");
  EXPECT_EQ(compute[0]["result"]["data"][0], 10.0);  // row 0: [0 7 3 10 6]
  EXPECT_EQ(compute[1]["op"], "sum");
  const nlohmann::json m = traceToJson(*mm.trace);
  EXPECT_EQ(m["programs"][0]["compute"][1]["kind"], "dot");
  EXPECT_EQ(m["programs"][0]["compute"][1]["step"], 1);
  EXPECT_EQ(m["programs"][0]["compute"][1]["aShape"], (std::vector<int64_t>{16, 16}));
}

TEST(TraceComputeTest, ReaderRejectsAReductionAxisOutsideItsInput) {
  SoftmaxRun run(1);
  ASSERT_TRUE(run.trace);
  std::get<ReduceEvent>(run.trace->programs[0].compute[0]).axis = 3;  // the input is 1-D
  auto back = TraceReader::read(TraceWriter::write(*run.trace));
  EXPECT_FALSE(back.trace);
  EXPECT_NE(back.error.find("reduction axis out of range"), std::string::npos) << back.error;
}

TEST(TraceComputeTest, ReaderRejectsAComputeSectionBeforeAnyProgram) {
  // A Compute section needs a Program before it; one at the start is corrupt, not silently lost.
  SoftmaxRun run(1);
  ASSERT_TRUE(run.trace);
  LaunchTrace empty = *run.trace;
  empty.programs.clear();
  const std::string head = TraceWriter::write(empty);
  // head = header + Launch/Tensors/Args/Locations + End; put a Compute section before its End.
  std::string compute(1, char(TraceWriter::Compute));
  compute += char(1);
  compute += char(0);  // count 0
  const std::string broken = head.substr(0, head.size() - 2) + compute + head.substr(head.size() - 2);
  auto back = TraceReader::read(broken);
  EXPECT_FALSE(back.trace);
  EXPECT_NE(back.error.find("compute section before any program"), std::string::npos) << back.error;
}

TEST(TraceComputeTest, AVersionOneZeroTraceStillReads) {
  // A 1.0 trace: minor version 0, no compute-dropped count after the Launch section's pid filter,
  // no Compute sections.
  SoftmaxRun run(2, [] {
    LaunchOptions o;
    o.recordCompute = false;
    return o;
  }());
  ASSERT_TRUE(run.trace);
  std::string bytes = TraceWriter::write(*run.trace);
  ASSERT_EQ(bytes[16], char(TraceWriter::Launch));
  const auto length = static_cast<uint8_t>(bytes[17]);
  ASSERT_LT(length, 128);                  // a one-byte varint
  ASSERT_EQ(bytes[18 + length - 1], 0);   // the trailing compute-dropped count
  bytes.erase(18 + length - 1, 1);
  bytes[17] = static_cast<char>(length - 1);
  bytes[10] = 0;
  auto back = TraceReader::read(bytes);
  ASSERT_TRUE(back.trace) << back.error;
  EXPECT_EQ(back.trace->computeDropped, 0);
  EXPECT_EQ(back.trace->pidFilter, run.trace->pidFilter);
  EXPECT_EQ(back.trace->programs.size(), 2u);
  EXPECT_TRUE(back.trace->programs[0].compute.empty());
}

}  // namespace
}  // namespace tilescope::sim
