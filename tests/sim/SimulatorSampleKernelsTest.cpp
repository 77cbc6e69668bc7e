// The sample kernels (core/testing/SampleKernels.h) on the simulator, checked against independent
// references.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/base/Diagnostic.h"
#include "core/ir/Numerics.h"
#include "core/sim/Simulator.h"
#include "core/testing/SampleKernels.h"

namespace tilescope::sim {
namespace {

using namespace testing;

std::vector<double> randomValues(size_t n, uint32_t seed, double lo = -1, double hi = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

std::vector<double> roundAll(std::vector<double> v, DType t) {
  for (double& x : v) x = roundToDType(t, x);
  return v;
}

void expectOk(const LaunchResult& r) { ASSERT_TRUE(r.ok()) << r.diagnostics.render(); }

TEST(SimulatorSampleKernelsTest, VectorAdd) {
  for (int threads : {1, 2}) {
    Memory mem;
    const int64_t n = 98432;
    const auto xs = roundAll(randomValues(n, 1), DType::FP32);
    const auto ys = roundAll(randomValues(n, 2), DType::FP32);
    const int x = mem.createFromDoubles("x", DType::FP32, {n}, xs);
    const int y = mem.createFromDoubles("y", DType::FP32, {n}, ys);
    const int out = mem.create("output", DType::FP32, {n}, TensorInit::Uninitialized);
    Simulator sim(mem);
    LaunchOptions o;
    o.numThreads = threads;
    const int64_t block = 1024;
    auto r = sim.launch(*addKernel(block), Grid{(n + block - 1) / block},
                        {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::tensor(out), LaunchArg::integer(n)}, o);
    expectOk(r);
    EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics.render();
    EXPECT_EQ(r.programsRun, 97);
    const auto got = mem.readDoubles(out);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], static_cast<double>(static_cast<float>(xs[i]) + static_cast<float>(ys[i]))) << i;
    ASSERT_EQ(r.coverage.tensors.size(), 1u);
    EXPECT_TRUE(r.coverage.tensors[0].complete());
    EXPECT_EQ(r.coverage.tensors[0].argName, "out_ptr");
  }
}

TEST(SimulatorSampleKernelsTest, Softmax) {
  Memory mem;
  const int64_t rows = 7, cols = 13;
  const auto xs = roundAll(randomValues(rows * cols, 3, -5, 5), DType::FP32);
  const int x = mem.createFromDoubles("x", DType::FP32, {rows, cols}, xs);
  const int y = mem.create("y", DType::FP32, {rows, cols}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto r = sim.launch(*softmaxKernel(16), Grid{rows},
                      {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::integer(cols), LaunchArg::integer(cols),
                       LaunchArg::integer(cols)});
  expectOk(r);
  const auto got = mem.readDoubles(y);
  for (int64_t i = 0; i < rows; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < cols; ++j) mx = std::max(mx, xs[i * cols + j]);
    for (int64_t j = 0; j < cols; ++j) sum += std::exp(xs[i * cols + j] - mx);
    double rowSum = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const double ref = std::exp(xs[i * cols + j] - mx) / sum;
      // fp32: x - max (rounded, up to 2^-24 * 10 absolute for |x| <= 5), exp, sum and divide.
      EXPECT_NEAR(got[i * cols + j], ref, 2e-6 * ref + 1e-12) << i << "," << j;
      rowSum += got[i * cols + j];
    }
    EXPECT_NEAR(rowSum, 1.0, 1e-6);
  }
}

struct MatmulCase {
  int64_t m, n, k;
  DType in;
  DType out;
  InputPrecision precision;
};

void runMatmul(const MatmulCase& c) {
  Memory mem;
  const auto as = roundAll(randomValues(c.m * c.k, 4), c.in);
  const auto bs = roundAll(randomValues(c.k * c.n, 5), c.in);
  const int a = mem.createFromDoubles("a", c.in, {c.m, c.k}, as);
  const int b = mem.createFromDoubles("b", c.in, {c.k, c.n}, bs);
  const int out = mem.create("c", c.out, {c.m, c.n}, TensorInit::Uninitialized);
  Simulator sim(mem);
  const int64_t bm = 16, bn = 32, bk = 16;
  auto r = sim.launch(*matmulKernel(bm, bn, bk, c.in, c.out, c.precision), Grid{(c.m + bm - 1) / bm, (c.n + bn - 1) / bn},
                      {LaunchArg::tensor(a), LaunchArg::tensor(b), LaunchArg::tensor(out), LaunchArg::integer(c.m),
                       LaunchArg::integer(c.n), LaunchArg::integer(c.k), LaunchArg::integer(c.k), LaunchArg::integer(1),
                       LaunchArg::integer(c.n), LaunchArg::integer(1), LaunchArg::integer(c.n), LaunchArg::integer(1)});
  expectOk(r);
  EXPECT_TRUE(r.coverage.tensors.at(0).complete()) << r.coverage.render();
  const auto got = mem.readDoubles(out);
  // Tolerance: fp32 accumulation over k steps (k * 2^-24 of sum |a*b|), tf32 inputs (2 * 2^-11
  // relative per product), then the rounding of the stored dtype (half an ulp).
  const double inputRel = c.precision == InputPrecision::TF32 && c.in == DType::FP32 ? 2 * std::ldexp(1.0, -11) : 0;
  const double storeRel = c.out == DType::FP16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -24);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double ref = 0, mag = 0;
      for (int64_t kk = 0; kk < c.k; ++kk) {
        ref += as[i * c.k + kk] * bs[kk * c.n + j];
        mag += std::fabs(as[i * c.k + kk] * bs[kk * c.n + j]);
      }
      const double tol = mag * (c.k * std::ldexp(1.0, -24) + inputRel) + std::fabs(ref) * storeRel + 1e-30;
      ASSERT_NEAR(got[i * c.n + j], ref, tol) << i << "," << j;
    }
}

TEST(SimulatorSampleKernelsTest, MatmulFp32Ieee) { runMatmul({50, 70, 45, DType::FP32, DType::FP32, InputPrecision::IEEE}); }
TEST(SimulatorSampleKernelsTest, MatmulFp32Tf32) { runMatmul({64, 64, 64, DType::FP32, DType::FP32, InputPrecision::TF32}); }
TEST(SimulatorSampleKernelsTest, MatmulFp16ToFp16) { runMatmul({48, 40, 72, DType::FP16, DType::FP16, InputPrecision::IEEE}); }
TEST(SimulatorSampleKernelsTest, MatmulBf16) { runMatmul({32, 32, 40, DType::BF16, DType::FP32, InputPrecision::IEEE}); }

TEST(SimulatorSampleKernelsTest, Rgb2GreyUint8) {
  Memory mem;
  const int64_t h = 37, w = 45;
  std::mt19937 rng(6);
  std::vector<int64_t> img(3 * h * w);
  for (int64_t& v : img) v = static_cast<int64_t>(rng() % 256);
  const int x = mem.createFromInts("img", DType::U8, {3, h, w}, img);
  const int out = mem.create("out", DType::U8, {h, w}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto r = sim.launch(*rgb2greyKernel(32, 32), Grid{(h + 31) / 32, (w + 31) / 32},
                      {LaunchArg::tensor(x), LaunchArg::tensor(out), LaunchArg::integer(h), LaunchArg::integer(w)});
  expectOk(r);
  EXPECT_TRUE(r.coverage.tensors.at(0).complete());
  const auto got = mem.readInts(out);
  for (int64_t i = 0; i < h * w; ++i) {
    // fp32 all the way, as the kernel computes it: (0.299*r + 0.587*g) + 0.114*b, then
    // truncation to uint8. The uint8 values must be read as unsigned (200 is not -56).
    const float rr = static_cast<float>(kGreyRed) * static_cast<float>(img[i]);
    const float gg = static_cast<float>(kGreyGreen) * static_cast<float>(img[h * w + i]);
    const float bb = static_cast<float>(kGreyBlue) * static_cast<float>(img[2 * h * w + i]);
    const float v = (rr + gg) + bb;
    ASSERT_EQ(got[i], static_cast<int64_t>(v)) << i;
  }
}

struct CopyRun {
  std::vector<int64_t> z;
  std::vector<std::string> printed;
  LaunchResult result;
};

CopyRun runCopy(int version) {
  Memory mem;
  const std::vector<int64_t> xs{1, 2, 3, 4, 5, 6};
  const int x = mem.createFromInts("x", DType::I64, {6}, xs);
  const int z = mem.createFromInts("z", DType::I64, {6}, std::vector<int64_t>(6, 0));  // torch.zeros_like
  Simulator sim(mem);
  CopyRun run;
  LaunchOptions o;
  o.hostCall = [&](const HostCallEvent& e) {
    EXPECT_EQ(e.callee, "print_if");
    EXPECT_EQ(e.args.size(), 2u);
    run.printed.push_back(e.args.at(0).text);
    return std::string();
  };
  run.result = sim.launch(*copyKernel(version, 2), Grid{3}, {LaunchArg::tensor(x), LaunchArg::tensor(z), LaunchArg::integer(6)}, o);
  run.z = mem.readInts(z);
  return run;
}

TEST(SimulatorSampleKernelsTest, CopyVersion1WritesOnlyTheFirstBlock) {
  CopyRun r = runCopy(1);
  expectOk(r.result);
  EXPECT_EQ(r.z, (std::vector<int64_t>{1, 2, 0, 0, 0, 0}));  // every program copied block 0
  const TensorCoverage& c = r.result.coverage.tensors.at(0);
  EXPECT_EQ(c.neverWritten, 4);
  EXPECT_EQ(c.neverWrittenRanges, (std::vector<std::pair<int64_t, int64_t>>{{2, 6}}));
  EXPECT_EQ(c.writtenByMany, 2);  // all three programs wrote z[0:2] ...
  EXPECT_EQ(c.conflicting, 0);    // ... with the same values
  EXPECT_NE(r.result.coverage.render().find("never written: dst_ptr[2:6] (4 elements)"), std::string::npos)
      << r.result.coverage.render();
  ASSERT_EQ(r.printed.size(), 3u);
  EXPECT_EQ(r.printed[2], "program [2]: idx [0 1] inside [ True  True] got [1 2]");
}

TEST(SimulatorSampleKernelsTest, CopyVersion2UsesPidTimesN) {
  CopyRun r = runCopy(2);
  expectOk(r.result);
  EXPECT_EQ(r.z, (std::vector<int64_t>{1, 2, 0, 0, 0, 0}));
  EXPECT_EQ(r.result.coverage.tensors.at(0).neverWrittenRanges, (std::vector<std::pair<int64_t, int64_t>>{{2, 6}}));
  ASSERT_EQ(r.printed.size(), 3u);
  EXPECT_EQ(r.printed[1], "program [1]: idx [6 7] inside [False False] got [0 0]");
  EXPECT_EQ(r.printed[2], "program [2]: idx [12 13] inside [False False] got [0 0]");
}

TEST(SimulatorSampleKernelsTest, CopyVersion3IsCorrectAndPrintsEveryProgram) {
  CopyRun r = runCopy(3);
  expectOk(r.result);
  EXPECT_EQ(r.z, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(r.result.coverage.tensors.at(0).complete());
  // One line per program, with Python's (NumPy's) rendering of the values.
  EXPECT_EQ(r.printed, (std::vector<std::string>{"program [0]: idx [0 1] inside [ True  True] got [1 2]",
                                                 "program [1]: idx [2 3] inside [ True  True] got [3 4]",
                                                 "program [2]: idx [4 5] inside [ True  True] got [5 6]"}));
}

TEST(SimulatorSampleKernelsTest, Swizzle2dGroupsOfThree) {
  Memory mem;
  std::vector<int64_t> xs(20);
  for (int i = 0; i < 20; ++i) xs[i] = i;
  const int x = mem.createFromInts("x", DType::I64, {5, 4}, xs);
  const int z = mem.createFromInts("z", DType::I64, {5, 4}, std::vector<int64_t>(20, -1));
  Simulator sim(mem);
  auto r = sim.launch(*swizzleKernel(3), Grid{5, 4}, {LaunchArg::tensor(x), LaunchArg::tensor(z)});
  expectOk(r);
  // Column-major order inside groups of 3 rows (the last group has 2), as tl.swizzle2d's documentation draws it.
  EXPECT_EQ(mem.readInts(z), (std::vector<int64_t>{0, 3, 6, 9,     //
                                                   1, 4, 7, 10,    //
                                                   2, 5, 8, 11,    //
                                                   12, 14, 16, 18,  //
                                                   13, 15, 17, 19}));
  EXPECT_TRUE(r.coverage.tensors.at(0).complete());
}

// Host tensors are the simulator's memory (Memory::adopt): a launch loads from and stores into the
// caller's own buffers, copying nothing, and tracks never-written elements of an adopted torch.empty.
TEST(SimulatorSampleKernels, AdoptedBuffersAreLoadedAndStoredInPlace) {
  const int64_t n = 3000, block = 256;
  std::vector<float> xs(n), ys(n), out(n + 1, -1.0f);  // out[n]: a guard the launch must not touch
  for (int64_t i = 0; i < n; ++i) {
    xs[i] = static_cast<float>(i) * 0.5f;
    ys[i] = 1.0f / static_cast<float>(i + 1);
  }
  auto bytes = [](std::vector<float>& v, int64_t count) {
    return std::span<uint8_t>(reinterpret_cast<uint8_t*>(v.data()), static_cast<size_t>(count) * sizeof(float));
  };
  Memory mem;
  const int x = mem.adopt(0, "x", DType::FP32, {n}, TensorInit::Zeros, bytes(xs, n));
  const int y = mem.adopt(0, "y", DType::FP32, {n}, TensorInit::Zeros, bytes(ys, n));
  const int o = mem.adopt(0, "out", DType::FP32, {n}, TensorInit::Uninitialized, bytes(out, n));
  EXPECT_EQ(mem.get(o).bytes().data(), reinterpret_cast<uint8_t*>(out.data()));
  Simulator sim(mem);
  const LaunchResult r = sim.launch(*addKernel(block), Grid{(n + block - 1) / block},
                                    {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::tensor(o), LaunchArg::integer(n)});
  expectOk(r);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], xs[i] + ys[i]) << i;
  EXPECT_EQ(out[n], -1.0f);
  for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(mem.get(o).isInitialized(i)) << i;
  EXPECT_THROW(mem.adopt(o, "again", DType::FP32, {n}, TensorInit::Zeros, bytes(out, n)), lang::InternalError);
  EXPECT_THROW(mem.adopt(0, "short", DType::FP32, {n + 1}, TensorInit::Zeros, bytes(out, n)), lang::InternalError);
}

}  // namespace
}  // namespace tilescope::sim
