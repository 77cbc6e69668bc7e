// tl.dot_scaled on a device (ctest label gpu; skipped without one): fp8, fp4 and bf16 operands with
// e8m0 scales give the simulator's result (tests/sim/SimulatorDotScaledTest.cpp checks it against
// the formats' definitions), within the tensor cores' summation order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"
#include "tests/lang/DotScaledKernels.h"

using namespace tilescope;

TEST(GpuRun, DotScaledMatchesTheSimulator) {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  auto program = lang::test::programFrom(test::kDotScaledSource, "scaled.py");
  constexpr int M = 32, N = 32, K = 64;
  const int64_t one[3] = {1, 1, 1};
  for (const auto& [fa, fb] : std::vector<std::pair<std::string, std::string>>{{"e4m3", "e5m2"}, {"e2m1", "e2m1"}, {"e5m2", "e2m1"}}) {
    SCOPED_TRACE(fa + " x " + fb);
    auto cint = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
    auto cstr = [](const std::string& v) { return lang::ArgSpec::constexprValue(lang::ConstValue::string(v)); };
    const int ka = fa == "e2m1" ? K / 2 : K, kb = fb == "e2m1" ? K / 2 : K;
    lang::Specialization spec;
    spec.args = {lang::ArgSpec::pointer(ir::DType::U8), lang::ArgSpec::pointer(ir::DType::U8), lang::ArgSpec::pointer(ir::DType::U8),
                 lang::ArgSpec::pointer(ir::DType::U8), lang::ArgSpec::pointer(ir::DType::FP32), cint(M), cint(N), cint(K), cint(ka),
                 cint(kb), cstr(fa), cstr(fb), lang::ArgSpec::constexprValue(lang::ConstValue::boolean(true))};
    const lang::CheckResult r = lang::checkKernel(*program, "scaled_mm", spec);
    ASSERT_TRUE(r.ok()) << r.diagnostics.render();
    // Bytes avoiding fp8 NaN/inf codes; scales near 2^0.
    std::vector<uint8_t> a(static_cast<size_t>(M) * ka), b(static_cast<size_t>(kb) * N), sa(M * K / 32), sb(N * K / 32);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>((i * 37 + 5) % 256) & 0xbb;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 53 + 9) % 256) & 0xb7;
    for (size_t i = 0; i < sa.size(); ++i) sa[i] = static_cast<uint8_t>(122 + i % 9);
    for (size_t i = 0; i < sb.size(); ++i) sb[i] = static_cast<uint8_t>(125 + i % 5);

    sim::Memory mem;
    auto tensor = [&](const std::vector<uint8_t>& v) {
      return mem.createFromInts("t", ir::DType::U8, {static_cast<int64_t>(v.size())}, std::vector<int64_t>(v.begin(), v.end()));
    };
    const int as = tensor(a), sas = tensor(sa), bs = tensor(b), sbs = tensor(sb), cs = mem.create("c", ir::DType::FP32, {M * N});
    sim::Simulator simulator(mem);
    auto ran = simulator.launch(*r.kernel, sim::Grid{1},
                                {sim::LaunchArg::tensor(as), sim::LaunchArg::tensor(sas), sim::LaunchArg::tensor(bs),
                                 sim::LaunchArg::tensor(sbs), sim::LaunchArg::tensor(cs)});
    ASSERT_EQ(ran.status, sim::LaunchStatus::Ok) << ran.diagnostics.render();
    const std::vector<double> expected = mem.readDoubles(cs);

    auto upload = [&](const std::vector<uint8_t>& v) {
      const uint64_t d = rt.allocate(v.size(), "dot_scaled test");
      rt.upload(d, v.data(), v.size(), "dot_scaled test");
      return d;
    };
    const uint64_t da = upload(a), dsa = upload(sa), db = upload(b), dsb = upload(sb), dc = rt.allocate(M * N * 4, "dot_scaled test");
    auto launched = rt.launch(r.kernel, one,
                              {gpu::GpuArg::pointer(da), gpu::GpuArg::pointer(dsa), gpu::GpuArg::pointer(db), gpu::GpuArg::pointer(dsb),
                               gpu::GpuArg::pointer(dc)});
    ASSERT_FALSE(launched.failure) << launched.failure->render();
    std::vector<float> c(M * N);
    rt.download(c.data(), dc, c.size() * 4, "dot_scaled test");
    double scale = 1;
    for (double v : expected) scale = std::max(scale, std::fabs(v));
    for (int i = 0; i < M * N; ++i) EXPECT_NEAR(c[i], expected[i], 1e-4 * scale) << i;
  }
}
