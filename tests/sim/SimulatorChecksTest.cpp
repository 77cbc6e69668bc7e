// The simulator's checks: out-of-bounds accesses, uninitialized reads, racing writes, argument
// validation, device asserts and other runtime errors.
#include <gtest/gtest.h>

#include "core/sim/Simulator.h"
#include "core/testing/SampleKernels.h"

namespace tilescope::sim {
namespace {

using namespace testing;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<LaunchArg> addArgs(int x, int y, int out, int64_t n) {
  return {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::tensor(out), LaunchArg::integer(n)};
}

TEST(SimulatorChecksTest, MissingMaskReportsTheOutOfBoundsAccess) {
  Memory mem;
  const std::vector<double> v{1, 2, 3, 4, 5, 6};
  const int x = mem.createFromDoubles("x", DType::FP32, {6}, v);
  const int y = mem.createFromDoubles("y", DType::FP32, {6}, v);
  const int out = mem.create("out", DType::FP32, {6});
  Simulator sim(mem);
  auto r = sim.launch(*addKernel(4, /*withMask=*/false), Grid{2}, addArgs(x, y, out, 6));
  ASSERT_EQ(r.status, LaunchStatus::Error);
  ASSERT_EQ(r.diagnostics.errorCount(), 1u);
  const lang::Diagnostic& d = r.diagnostics.items().front();
  const std::string head = d.headline();
  EXPECT_TRUE(contains(head, "vec_add.py:7:9: error: out-of-bounds load in kernel 'vec_add', program pid (1, 0, 0)")) << head << "\n" << d.render();
  EXPECT_TRUE(contains(head, "2 of 4 active lanes are outside a_ptr (tensor 'x', shape [6], fp32)")) << head;
  EXPECT_TRUE(contains(head, "offending element offsets: 6, 7 (valid offsets are 0..5)")) << head;
  const std::string text = d.render();
  EXPECT_TRUE(contains(text, "    a = tl.load(a_ptr + idx, mask=inside)\n        ^~~~~~~")) << text;
  EXPECT_TRUE(contains(text, "note: mask the access")) << text;
  // Program 0 ran fine; the process keeps running and memory stays usable.
  EXPECT_EQ(r.programsRun, 1);
  EXPECT_EQ(mem.readDoubles(out)[3], 8.0);
}

TEST(SimulatorChecksTest, WithOutOfBoundsStopsOffStrayLanesReadZeroAndWarnOnce) {
  Memory mem;
  const std::vector<double> v{1, 2, 3, 4, 5, 6};
  const int x = mem.createFromDoubles("x", DType::FP32, {6}, v);
  const int y = mem.createFromDoubles("y", DType::FP32, {6}, v);
  // The output has room for all 8 lanes, so only the loads stray.
  const int out = mem.createFromDoubles("out", DType::FP32, {8}, std::vector<double>(8, -1));
  Simulator sim(mem);
  LaunchOptions o;
  o.stopOnOutOfBounds = false;
  auto r = sim.launch(*addKernel(4, /*withMask=*/false), Grid{2}, addArgs(x, y, out, 6), o);
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(r.programsRun, 2);
  EXPECT_EQ(mem.readDoubles(out), (std::vector<double>{2, 4, 6, 8, 10, 12, 0, 0}));
  // One warning per access site (x and y), naming the program and offsets as the error would.
  ASSERT_EQ(r.diagnostics.errorCount(), 0u);
  ASSERT_EQ(r.diagnostics.items().size(), 2u) << r.diagnostics.render();
  const std::string head = r.diagnostics.items().front().headline();
  EXPECT_TRUE(contains(head, "vec_add.py:7:9: warning: out-of-bounds load in kernel 'vec_add', program pid (1, 0, 0)"))
      << head;
  EXPECT_TRUE(contains(head, "offending element offsets: 6, 7 (valid offsets are 0..5); those lanes read as 0 and are not written"))
      << head;

  // Stray stores are dropped: an output of 6 elements keeps its size and values.
  const int small = mem.createFromDoubles("small", DType::FP32, {6}, std::vector<double>(6, -1));
  auto r2 = sim.launch(*addKernel(4, /*withMask=*/false), Grid{2}, addArgs(x, y, small, 6), o);
  ASSERT_EQ(r2.status, LaunchStatus::Ok) << r2.diagnostics.render();
  EXPECT_EQ(mem.readDoubles(small), (std::vector<double>{2, 4, 6, 8, 10, 12}));
  EXPECT_TRUE(contains(r2.diagnostics.render(), "warning: out-of-bounds store in kernel 'vec_add'")) << r2.diagnostics.render();
}

TEST(SimulatorChecksTest, TheLowestFailingProgramIsReportedWhateverTheThreads) {
  for (int threads : {1, 2, 4}) {
    Memory mem;
    const int64_t n = 1000;
    const int x = mem.createFromDoubles("x", DType::FP32, {n}, std::vector<double>(n, 1));
    const int y = mem.createFromDoubles("y", DType::FP32, {n}, std::vector<double>(n, 2));
    const int out = mem.create("out", DType::FP32, {n});
    Simulator sim(mem);
    LaunchOptions o;
    o.numThreads = threads;
    // Programs 7, 8 and 9 run past the end; 7 is the one to report.
    auto r = sim.launch(*addKernel(128, false), Grid{10}, addArgs(x, y, out, n), o);
    ASSERT_EQ(r.status, LaunchStatus::Error);
    EXPECT_TRUE(contains(r.diagnostics.items().front().headline(), "program pid (7, 0, 0): 24 of 128 active lanes"))
        << threads << ": " << r.diagnostics.render();
    EXPECT_TRUE(contains(r.diagnostics.items().front().headline(), "offsets: 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, ..."));
  }
}

TEST(SimulatorChecksTest, UninitializedReadsWarnOncePerOp) {
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {8}, std::vector<double>(8, 1));
  const int y = mem.create("y", DType::FP32, {8}, TensorInit::Uninitialized);  // torch.empty
  mem.get(y).markInitialized(0);
  const int out = mem.create("out", DType::FP32, {8});
  Simulator sim(mem);
  auto r = sim.launch(*addKernel(4), Grid{2}, addArgs(x, y, out, 8));
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  ASSERT_EQ(r.diagnostics.items().size(), 1u) << r.diagnostics.render();
  const lang::Diagnostic& w = r.diagnostics.items().front();
  EXPECT_EQ(w.severity, lang::Severity::Warning);
  EXPECT_TRUE(contains(w.headline(), "vec_add.py:8:9: warning: load in kernel 'vec_add' reads 3 element(s) of b_ptr (tensor 'y'"))
      << w.headline();
  EXPECT_TRUE(contains(w.headline(), "first element offset 1 in program pid (0, 0, 0)")) << w.headline();
  // Stores initialize: a second launch reading `out` as y is clean.
  auto r2 = sim.launch(*addKernel(4), Grid{2}, addArgs(x, out, y, 8));
  EXPECT_TRUE(r2.diagnostics.empty()) << r2.diagnostics.render();
  auto r3 = sim.launch(*addKernel(4), Grid{2}, addArgs(x, y, out, 8));
  EXPECT_TRUE(r3.diagnostics.empty()) << r3.diagnostics.render();
}

std::shared_ptr<const Kernel> storePidKernel() {
  KernelBuilder b("store_pid", "@triton.jit\ndef store_pid(z_ptr):\n    tl.store(z_ptr, tl.program_id(0))\n");
  Expr z = b.at("z_ptr").ptrParam("z_ptr", DType::I32);
  b.storeAt("tl.store(z_ptr, tl.program_id(0))", z, b.pid(0));
  return b.build();
}

TEST(SimulatorChecksTest, RacingWritesAreReported) {
  Memory mem;
  const int z = mem.create("z", DType::I32, {4});
  Simulator sim(mem);
  LaunchOptions o;
  o.numThreads = 1;
  auto r = sim.launch(*storePidKernel(), Grid{3}, {LaunchArg::tensor(z)}, o);
  ASSERT_TRUE(r.ok());
  const TensorCoverage& c = r.coverage.tensors.at(0);
  EXPECT_EQ(c.written, 1);
  EXPECT_EQ(c.neverWritten, 3);
  EXPECT_EQ(c.writtenByMany, 1);
  EXPECT_EQ(c.conflicting, 1);
  ASSERT_FALSE(c.conflicts.empty());
  EXPECT_EQ(c.conflicts[0].firstProgram, (std::array<int64_t, 3>{0, 0, 0}));
  EXPECT_EQ(c.conflicts[0].secondProgram, (std::array<int64_t, 3>{1, 0, 0}));
  ASSERT_EQ(r.diagnostics.items().size(), 1u);
  EXPECT_TRUE(contains(r.diagnostics.items()[0].headline(), "1 element(s) of z_ptr (tensor 'z') were written by more than one program"))
      << r.diagnostics.render();
  EXPECT_TRUE(contains(r.coverage.render(), "1 of them with different values (e.g. element 0 by pid (0, 0, 0) and pid (1, 0, 0))"))
      << r.coverage.render();
  // Coverage tracking can be switched off.
  o.checkCoverage = false;
  auto r2 = sim.launch(*storePidKernel(), Grid{3}, {LaunchArg::tensor(z)}, o);
  EXPECT_TRUE(r2.coverage.tensors.empty());
  EXPECT_TRUE(r2.diagnostics.empty());
}

TEST(SimulatorChecksTest, ArgumentsAreValidated) {
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {4}, std::vector<double>(4, 1));
  const int h = mem.create("h", DType::FP16, {4});
  Simulator sim(mem);
  auto k = addKernel(4);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "kernel 'vec_add' takes 4 runtime arguments (a_ptr, b_ptr, out_ptr, length) but the launch passed 1"))
      << r.diagnostics.render();
  r = sim.launch(*k, Grid{1}, {LaunchArg::integer(1), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(4)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "argument 'a_ptr' of kernel 'vec_add' is a pointer (*fp32): pass a tensor"));
  r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(h), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(4)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "was specialized for *fp32 but tensor 'h' holds fp16"));
  r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(int64_t{1} << 40)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "is i32 but the value 1099511627776 does not fit"));
  r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::tensor(x)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "is a scalar (i32): pass a number, not a tensor"));
  r = sim.launch(*k, Grid{-1}, {LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(4)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "negative dimension"));
  // A view that is not 16-byte aligned breaks the divisibility specialization: a warning.
  r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x, 1), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(3)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "specialized as 16-byte aligned but starts at byte 4")) << r.diagnostics.render();
  // An empty grid runs nothing and is fine.
  r = sim.launch(*k, Grid{0}, {LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::tensor(x), LaunchArg::integer(4)});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.programsRun, 0);
}

TEST(SimulatorChecksTest, DeviceAssertZeroStepAndDivisionByZero) {
  KernelBuilder b("checks", R"(@triton.jit
def checks(n, step, d):
    offs = tl.arange(0, 4)
    q = offs // d
    for i in range(0, n, step):
        pass
    tl.device_assert(offs < n, "offs out of range")
)");
  Expr n = b.at("n, step").scalarParam("n");
  Expr step = b.at("step, d").scalarParam("step");
  Expr d = b.at("d)").scalarParam("d");
  Expr offs = b.letAt("offs = tl.arange(0, 4)", "offs", b.arange(0, 4));
  b.letAt("q = offs // d", "q", b.at("offs // d").div(offs, d));
  b.at("for i in range(0, n, step):").forRange("i", b.i32(0), n, step, [](Expr) {});
  b.at("tl.device_assert(offs < n, \"offs out of range\")").deviceAssert(b.lt(offs, n), "offs out of range");
  auto k = b.build();
  Memory mem;
  Simulator sim(mem);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::integer(3), LaunchArg::integer(1), LaunchArg::integer(0)});
  ASSERT_EQ(r.status, LaunchStatus::Error);
  EXPECT_TRUE(contains(r.diagnostics.render(),
                       "kernel.py:7:5: error: device assertion failed in kernel 'checks', program pid (0, 0, 0) (first failing element: index 3): offs out of range"))
      << r.diagnostics.render();
  EXPECT_TRUE(contains(r.diagnostics.render(), "kernel.py:4:9: warning: integer division by zero")) << r.diagnostics.render();
  r = sim.launch(*k, Grid{1}, {LaunchArg::integer(4), LaunchArg::integer(0), LaunchArg::integer(1)});
  EXPECT_TRUE(contains(r.diagnostics.render(), "range() step is zero in program pid (0, 0, 0)")) << r.diagnostics.render();
  r = sim.launch(*k, Grid{1}, {LaunchArg::integer(4), LaunchArg::integer(1), LaunchArg::integer(1)});
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
}

TEST(SimulatorChecksTest, PointerIntoNoTensor) {
  KernelBuilder b("stray", "@triton.jit\ndef stray(x_ptr):\n    tl.store(x_ptr + 1099511627776, 1.0)\n");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", DType::FP32);
  b.storeAt("tl.store(x_ptr + 1099511627776, 1.0)", b.add(x, b.lit(DType::I64, 1099511627776.0)), b.f32(1.0));
  Memory mem;
  const int t = mem.create("x", DType::FP32, {4});
  Simulator sim(mem);
  auto r = sim.launch(*b.build(), Grid{1}, {LaunchArg::tensor(t)});
  ASSERT_EQ(r.status, LaunchStatus::Error);
  EXPECT_TRUE(contains(r.diagnostics.render(), "the pointer does not point into any live tensor")) << r.diagnostics.render();
}

}  // namespace
}  // namespace tilescope::sim
