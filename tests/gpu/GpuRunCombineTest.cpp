// General combine functions of tl.reduce / tl.associative_scan on a device (ctest label gpu;
// skipped without one): the kernels of tests/lang/CombineKernels.h give the simulator's results,
// which are Triton's (tests/sim/SimulatorCombineTest.cpp), bit for bit.
#include <gtest/gtest.h>

#include <cstring>

#include "core/gpu/runtime/GpuRuntime.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/CombineKernels.h"

using namespace tilescope;

namespace {

lang::ArgSpec constInt(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

// 32-bit device buffers holding the given elements (fp32 or i32).
struct Buffers {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  std::vector<std::pair<uint64_t, size_t>> held;
  uint64_t generation = rt.generation();
  ~Buffers() {
    if (rt.generation() != generation) return;
    for (auto [a, n] : held) rt.release(a, n * 4, generation);
  }
  uint64_t ints(const std::vector<int64_t>& v) {
    std::vector<int32_t> w(v.begin(), v.end());
    return put(w.data(), w.size());
  }
  uint64_t floats(const std::vector<double>& v) {
    std::vector<float> w(v.begin(), v.end());
    return put(w.data(), w.size());
  }
  uint64_t empty(size_t n) {
    std::vector<int32_t> w(n, 0);
    return put(w.data(), n);
  }
  uint64_t put(const void* data, size_t n) {
    const uint64_t a = rt.allocate(n * 4, "combine test");
    rt.upload(a, data, n * 4, "combine test");
    held.emplace_back(a, n);
    return a;
  }
  std::vector<int64_t> readInts(uint64_t a, size_t n) {
    std::vector<int32_t> w(n);
    rt.download(w.data(), a, n * 4, "combine test");
    return {w.begin(), w.end()};
  }
  std::vector<double> readFloats(uint64_t a, size_t n) {
    std::vector<float> w(n);
    rt.download(w.data(), a, n * 4, "combine test");
    return {w.begin(), w.end()};
  }
};

ir::KernelPtr check(const lang::Program& program, const char* name, std::vector<lang::ArgSpec> args) {
  lang::Specialization spec;
  spec.args = std::move(args);
  const lang::CheckResult r = lang::checkKernel(program, name, spec);
  EXPECT_TRUE(r.ok()) << name << ": " << r.diagnostics.render();
  return r.kernel;
}

}  // namespace

TEST(GpuRun, CombineFunctionsMatchTheSimulator) {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  using ir::DType;
  auto program = lang::test::programFrom(test::kCombineSource, "combine.py");
  const int64_t one[3] = {1, 1, 1};
  auto ptr = [](DType t) { return lang::ArgSpec::pointer(t); };
  Buffers b;

  const int R = 4, C = 16;
  const std::vector<double> x = test::argmaxInput(R, C);
  std::vector<double> values;
  std::vector<int64_t> indices;
  test::argmaxExpected(x, R, C, values, indices);
  {
    auto k = check(*program, "row_argmax", {ptr(DType::FP32), ptr(DType::FP32), ptr(DType::I32), constInt(R), constInt(C)});
    ASSERT_TRUE(k);
    const uint64_t xs = b.floats(x), vs = b.empty(R), is = b.empty(R);
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(xs), gpu::GpuArg::pointer(vs), gpu::GpuArg::pointer(is)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    EXPECT_EQ(b.readFloats(vs, R), values);
    EXPECT_EQ(b.readInts(is, R), indices);
  }
  {
    const int N = 16;
    std::vector<int64_t> a, bb;
    for (int i = 0; i < N; ++i) {
      a.push_back(i % 3 - 1 + (i % 5 == 0 ? 3 : 0));
      bb.push_back(i * 5 - 7);
    }
    auto k = check(*program, "linear_recurrence", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(N)});
    ASSERT_TRUE(k);
    const uint64_t as = b.ints(a), bs = b.ints(bb), hs = b.empty(N);
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(as), gpu::GpuArg::pointer(bs), gpu::GpuArg::pointer(hs)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    EXPECT_EQ(b.readInts(hs, N), test::recurrenceExpected(a, bb));
  }
  {
    const std::vector<int64_t> d{3, 1, 4, 1, 5, 9, 2, 6};
    auto k = check(*program, "digit_scans", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(8)});
    ASSERT_TRUE(k);
    const uint64_t ds = b.ints(d), fwd = b.empty(8), rev = b.empty(8), all = b.empty(1);
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(ds), gpu::GpuArg::pointer(fwd), gpu::GpuArg::pointer(rev), gpu::GpuArg::pointer(all)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    EXPECT_EQ(b.readInts(fwd, 8), test::digitScanExpected(d, false));
    EXPECT_EQ(b.readInts(rev, 8), test::digitScanExpected(d, true));
    EXPECT_EQ(b.readInts(all, 1), std::vector<int64_t>{31415926});
  }
  {
    auto k = check(*program, "first_nonzero_scan", {ptr(DType::I32), ptr(DType::I32), ptr(DType::I32), constInt(8)});
    ASSERT_TRUE(k);
    const uint64_t xs = b.ints(test::kSparse), out = b.empty(8), first = b.empty(1);
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(xs), gpu::GpuArg::pointer(out), gpu::GpuArg::pointer(first)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    EXPECT_EQ(b.readInts(out, 8), test::firstNonzeroExpected(test::kSparse));
    EXPECT_EQ(b.readInts(first, 1), std::vector<int64_t>{3});
  }
  {
    const int N = 128;
    std::vector<double> x;
    for (int i = 0; i < N; ++i) x.push_back((i % 17) * 0.375 - 3.0);
    auto k = check(*program, "map_selu", {ptr(DType::FP32), ptr(DType::FP32), ptr(DType::FP32), constInt(N)});
    ASSERT_TRUE(k);
    const uint64_t xs = b.floats(x), ys = b.empty(N), zs = b.empty(N);
    auto r = rt.launch(k, one, {gpu::GpuArg::pointer(xs), gpu::GpuArg::pointer(ys), gpu::GpuArg::pointer(zs)});
    ASSERT_FALSE(r.failure) << r.failure->render();
    const std::vector<double> y = b.readFloats(ys, N), z = b.readFloats(zs, N);
    for (int i = 0; i < N; ++i) {
      // exp on the GPU (2^(x log2 e), as Triton lowers it) is within a few ulp of the simulator's exp here.
      EXPECT_NEAR(y[i], test::seluExpected(static_cast<float>(x[i])), 1e-6) << x[i];
      EXPECT_EQ(z[i], 2.0 * y[i]) << x[i];
    }
  }
}
