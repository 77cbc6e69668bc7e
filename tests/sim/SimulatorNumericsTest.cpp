// Numerics as kernels see them: bf16 sums and dots, float x unsigned, integer division, Philox.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "core/ir/Numerics.h"
#include "core/sim/Philox.h"
#include "core/sim/Simulator.h"
#include "core/testing/SampleKernels.h"

namespace tilescope::sim {
namespace {

using namespace testing;

// out[0] = tl.sum(tl.load(x_ptr + tl.arange(0, BLOCK)))  (bf16 in, bf16 sum, stored as bf16)
std::shared_ptr<const Kernel> sumKernel(int64_t block, DType t) {
  KernelBuilder b("sum_k", R"(@triton.jit
def sum_k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    s = tl.sum(x, axis=0)
    tl.store(out_ptr, s)
)");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", t);
  Expr out = b.at("out_ptr").ptrParam("out_ptr", t);
  b.constexprParam("BLOCK", Constant(block));
  Expr xv = b.letAt("x = tl.load", "x", b.loadAt("tl.load(x_ptr + tl.arange(0, BLOCK))", b.add(x, b.arange(0, block))));
  Expr s = b.letAt("s = tl.sum(x, axis=0)", "s", b.reduce(ReduceOp::Sum, xv, 0));
  b.storeAt("tl.store(out_ptr, s)", out, s);
  return b.build();
}

double runSum(const std::vector<double>& xs, DType t) {
  Memory mem;
  const int x = mem.createFromDoubles("x", t, {static_cast<int64_t>(xs.size())}, xs);
  const int out = mem.create("out", t, {1});
  Simulator sim(mem);
  auto r = sim.launch(*sumKernel(static_cast<int64_t>(xs.size()), t), Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(out)});
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return mem.readDoubles(out)[0];
}

TEST(SimulatorNumericsTest, Bf16SumsKeepNaNAndRoundPerStep) {
  std::vector<double> xs(64);
  double exact = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    xs[i] = roundToDType(DType::BF16, 1.0 + 0.01 * static_cast<double>(i));
    exact += xs[i];
  }
  const double s = runSum(xs, DType::BF16);
  // 64 terms of about 1.3: bf16 keeps 8 bits, each of the 6 tree levels rounds (2^-9 relative).
  EXPECT_NEAR(s, exact, exact * 6 * std::ldexp(1.0, -8));
  EXPECT_EQ(s, roundToDType(DType::BF16, s));
  xs[17] = NAN;
  EXPECT_TRUE(std::isnan(runSum(xs, DType::BF16)));
  // The NaN survives the store: bf16 0x7FFF in memory.
  Memory mem;
  const int t = mem.create("t", DType::BF16, {1});
  mem.get(t).storeFloat(0, NAN);
  EXPECT_EQ(mem.get(t).bytes()[0], 0xFF);
  EXPECT_EQ(mem.get(t).bytes()[1], 0x7F);
}

TEST(SimulatorNumericsTest, FloatTimesUnsignedReadsTheUnsignedValue) {
  // The seed's "Weirdness": 0.5 * uint8 tile must see 200 as 200, not -56.
  KernelBuilder b("scale", R"(@triton.jit
def scale(x_ptr, out_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, 0.5 * x)
)");
  Expr x = b.at("x_ptr").ptrParam("x_ptr", DType::U8);
  Expr out = b.at("out_ptr").ptrParam("out_ptr", DType::FP32);
  Expr offs = b.letAt("offs = tl.arange(0, 4)", "offs", b.arange(0, 4));
  Expr xv = b.letAt("x = tl.load", "x", b.loadAt("tl.load(x_ptr + offs)", b.add(x, offs)));
  b.storeAt("tl.store(out_ptr + offs, 0.5 * x)", b.add(out, offs), b.at("0.5 * x").mul(b.f32(0.5), b.cast(xv, DType::FP32)));
  Memory mem;
  const int xi = mem.createFromInts("x", DType::U8, {4}, std::vector<int64_t>{0, 1, 200, 255});
  const int oi = mem.create("out", DType::FP32, {4});
  Simulator sim(mem);
  auto r = sim.launch(*b.build(), Grid{1}, {LaunchArg::tensor(xi), LaunchArg::tensor(oi)});
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  EXPECT_EQ(mem.readDoubles(oi), (std::vector<double>{0, 0.5, 100, 127.5}));
}

TEST(SimulatorNumericsTest, IntegerDivisionInKernelsTruncatesTowardZero) {
  KernelBuilder b("divmod", R"(@triton.jit
def divmod(a_ptr, b_ptr, q_ptr, r_ptr):
    offs = tl.arange(0, 4)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(q_ptr + offs, a // b)
    tl.store(r_ptr + offs, a % b)
)");
  Expr a = b.at("a_ptr").ptrParam("a_ptr", DType::I32);
  Expr bb = b.at("b_ptr").ptrParam("b_ptr", DType::I32);
  Expr q = b.at("q_ptr").ptrParam("q_ptr", DType::I32);
  Expr rr = b.at("r_ptr").ptrParam("r_ptr", DType::I32);
  Expr offs = b.letAt("offs = tl.arange(0, 4)", "offs", b.arange(0, 4));
  Expr av = b.letAt("a = tl.load", "a", b.loadAt("tl.load(a_ptr + offs)", b.add(a, offs)));
  Expr bv = b.letAt("b = tl.load", "b", b.loadAt("tl.load(b_ptr + offs)", b.add(bb, offs)));
  b.storeAt("tl.store(q_ptr + offs, a // b)", b.add(q, offs), b.div(av, bv));
  b.storeAt("tl.store(r_ptr + offs, a % b)", b.add(rr, offs), b.mod(av, bv));
  Memory mem;
  const int ai = mem.createFromInts("a", DType::I32, {4}, std::vector<int64_t>{7, -7, 7, -7});
  const int bi = mem.createFromInts("b", DType::I32, {4}, std::vector<int64_t>{2, 2, -2, -2});
  const int qi = mem.create("q", DType::I32, {4});
  const int ri = mem.create("r", DType::I32, {4});
  Simulator sim(mem);
  ASSERT_TRUE(sim.launch(*b.build(), Grid{1}, {LaunchArg::tensor(ai), LaunchArg::tensor(bi), LaunchArg::tensor(qi), LaunchArg::tensor(ri)}).ok());
  EXPECT_EQ(mem.readInts(qi), (std::vector<int64_t>{3, -3, -3, 3}));   // Python would give 3, -4, -4, 3
  EXPECT_EQ(mem.readInts(ri), (std::vector<int64_t>{1, -1, 1, -1}));   // Python would give 1, 1, -1, -1
}

// out = tl.rand(seed, offs) / tl.randn(seed, offs) / tl.randint(seed, offs)
TEST(SimulatorNumericsTest, PhiloxInKernels) {
  KernelBuilder b("rng", R"(@triton.jit
def rng(u_ptr, n_ptr, i_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(u_ptr + offs, tl.rand(seed, offs))
    tl.store(n_ptr + offs, tl.randn(seed, offs))
    tl.store(i_ptr + offs, tl.randint(seed, offs))
)");
  Expr u = b.at("u_ptr").ptrParam("u_ptr", DType::FP32);
  Expr n = b.at("n_ptr").ptrParam("n_ptr", DType::FP32);
  Expr ip = b.at("i_ptr").ptrParam("i_ptr", DType::U32);
  Expr seed = b.at("seed, BLOCK").scalarParam("seed");
  b.constexprParam("BLOCK", Constant(int64_t{8}));
  Expr offs = b.letAt("offs = ", "offs", b.add(b.mul(b.pid(0), 8), b.arange(0, 8)));
  b.storeAt("tl.store(u_ptr + offs, tl.rand(seed, offs))", b.add(u, offs), b.at("tl.rand(seed, offs)").rand(RandKind::Uniform, seed, offs));
  b.storeAt("tl.store(n_ptr + offs, tl.randn(seed, offs))", b.add(n, offs), b.at("tl.randn(seed, offs)").rand(RandKind::Normal, seed, offs));
  b.storeAt("tl.store(i_ptr + offs, tl.randint(seed, offs))", b.add(ip, offs), b.at("tl.randint(seed, offs)").rand(RandKind::Int, seed, offs));
  Memory mem;
  const int ui = mem.create("u", DType::FP32, {16});
  const int ni = mem.create("n", DType::FP32, {16});
  const int ii = mem.create("i", DType::U32, {16});
  Simulator sim(mem);
  auto r = sim.launch(*b.build(), Grid{2}, {LaunchArg::tensor(ui), LaunchArg::tensor(ni), LaunchArg::tensor(ii), LaunchArg::integer(42)});
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const auto us = mem.readDoubles(ui);
  const auto ns = mem.readDoubles(ni);
  const auto is = mem.readInts(ii);
  // Values from tests/tools/philox_oracle.py (seed 42, offsets 0, 1, 7).
  EXPECT_EQ(us[0], static_cast<double>(std::bit_cast<float>(0x3f462a1eu)));
  EXPECT_EQ(us[1], static_cast<double>(std::bit_cast<float>(0x3cc937b5u)));
  EXPECT_EQ(us[7], static_cast<double>(std::bit_cast<float>(0x3f377b06u)));
  EXPECT_EQ(ns[0], static_cast<double>(std::bit_cast<float>(0x3f291df5u)));
  EXPECT_EQ(ns[1], static_cast<double>(std::bit_cast<float>(0xbfc577a3u)));
  EXPECT_EQ(is[7], 0x5bbd83b1);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(is[i], randint4x32(42, static_cast<uint32_t>(i))[0]);
}

}  // namespace
}  // namespace tilescope::sim
