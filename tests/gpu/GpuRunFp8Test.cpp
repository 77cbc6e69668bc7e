// fp8 on a device (ctest label gpu; skipped without one): conversions to and from e4m3 and e5m2 give
// the simulator's bits for every fp8 value, the ties between them, overflow, Inf, NaN and subnormals;
// a tl.dot of fp8 operands gives the simulator's sums within the tensor cores' summation order.
// CudaFp8Test.cpp checks the same kernels' CUDA without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/ir/Numerics.h"
#include "core/sim/Simulator.h"
#include "tests/gpu/Fp8Kernels.h"
#include "tests/lang/CheckerTestUtil.h"

using namespace tilescope;

namespace {

constexpr int kN = 2048;

// Every finite fp8 value of both formats, the midpoints between neighbours (ties) and values just
// beside them, the overflow edges, Inf, NaN, signed zeros, fp32 subnormals: padded to kN.
std::vector<float> conversionInputs() {
  std::vector<float> v;
  std::vector<double> grid;
  for (int bits = 0; bits < 256; ++bits) {
    grid.push_back(sim::fp8E4M3BitsToDouble(static_cast<uint8_t>(bits)));
    grid.push_back(sim::fp8E5M2BitsToDouble(static_cast<uint8_t>(bits)));
  }
  std::erase_if(grid, [](double d) { return !std::isfinite(d); });
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  for (size_t i = 0; i < grid.size(); ++i) {
    v.push_back(static_cast<float>(grid[i]));
    if (i + 1 < grid.size()) {
      const float mid = static_cast<float>((grid[i] + grid[i + 1]) / 2);
      v.push_back(mid);
      v.push_back(std::nextafter(mid, std::numeric_limits<float>::infinity()));
      v.push_back(std::nextafter(mid, -std::numeric_limits<float>::infinity()));
    }
  }
  for (float f : {448.0f, 464.0f, 465.0f, 480.0f, 1e4f, 57344.0f, 61440.0f, 61441.0f, 1e9f, 3e38f, 1e-30f, 1e-40f, -0.0f,
                  std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    v.push_back(f);
    v.push_back(-f);
  }
  if (v.size() > static_cast<size_t>(kN)) v.resize(kN);
  while (v.size() < static_cast<size_t>(kN)) v.push_back(static_cast<float>(v.size()) * 0.37f - 300.0f);
  return v;
}

lang::ArgSpec cint(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

}  // namespace

TEST(GpuRun, Fp8ConversionsMatchTheSimulatorBitForBit) {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  auto program = lang::test::programFrom(test::kFp8ConvertSource, "fp8.py");
  // Outputs after the fp32 source, in parameter order: dtype of each.
  const std::vector<ir::DType> outs = {ir::DType::FP8E4NV, ir::DType::FP8E5, ir::DType::FP8E4NV, ir::DType::FP8E5,
                                       ir::DType::FP8E4NV, ir::DType::FP32,  ir::DType::FP32,    ir::DType::FP8E5,
                                       ir::DType::FP8E5};
  const std::vector<std::string> names = {"e4", "e5", "e4_rz", "e5_rz", "e4_from_half", "back4", "back5", "e5_from_e4", "e5_sum"};
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(ir::DType::FP32)};
  for (ir::DType t : outs) spec.args.push_back(lang::ArgSpec::pointer(t));
  spec.args.push_back(cint(kN));
  const lang::CheckResult r = lang::checkKernel(*program, "fp8_convert", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::vector<float> input = conversionInputs();

  sim::Memory mem;
  std::vector<double> asDoubles(input.begin(), input.end());
  std::vector<sim::LaunchArg> simArgs = {sim::LaunchArg::tensor(mem.createFromDoubles("src", ir::DType::FP32, {kN}, asDoubles))};
  std::vector<int> simIds;
  for (size_t i = 0; i < outs.size(); ++i) {
    simIds.push_back(mem.create(names[i], outs[i], {kN}));
    simArgs.push_back(sim::LaunchArg::tensor(simIds.back()));
  }
  sim::Simulator simulator(mem);
  auto ran = simulator.launch(*r.kernel, sim::Grid{1}, simArgs);
  ASSERT_EQ(ran.status, sim::LaunchStatus::Ok) << ran.diagnostics.render();

  const uint64_t src = rt.allocate(kN * 4, "fp8 test");
  rt.upload(src, input.data(), kN * 4, "fp8 test");
  std::vector<gpu::GpuArg> gpuArgs = {gpu::GpuArg::pointer(src)};
  std::vector<uint64_t> device;
  for (ir::DType t : outs) {
    const size_t bytes = static_cast<size_t>(kN) * ir::bitWidth(t) / 8;
    device.push_back(rt.allocate(bytes, "fp8 test"));
    std::vector<uint8_t> poison(bytes, 0xA5);
    rt.upload(device.back(), poison.data(), bytes, "fp8 test");
    gpuArgs.push_back(gpu::GpuArg::pointer(device.back()));
  }
  const int64_t one[3] = {1, 1, 1};
  auto launched = rt.launch(r.kernel, one, gpuArgs);
  ASSERT_FALSE(launched.failure) << launched.failure->render();

  for (size_t o = 0; o < outs.size(); ++o) {
    SCOPED_TRACE(names[o]);
    const auto expected = mem.get(simIds[o]).bytes();
    std::vector<uint8_t> got(expected.size());
    rt.download(got.data(), device[o], got.size(), "fp8 test");
    const int width = ir::bitWidth(outs[o]) / 8;
    int mismatches = 0;
    for (int i = 0; i < kN && mismatches < 10; ++i) {
      uint32_t e = 0, g = 0;
      std::memcpy(&e, expected.data() + static_cast<size_t>(i) * width, width);
      std::memcpy(&g, got.data() + static_cast<size_t>(i) * width, width);
      if (outs[o] == ir::DType::FP32) {
        float ef = 0, gf = 0;
        std::memcpy(&ef, &e, 4);
        std::memcpy(&gf, &g, 4);
        if (std::isnan(ef) && std::isnan(gf)) continue;  // NaN payloads are not part of the semantics
      }
      if (e != g) {
        ++mismatches;
        ADD_FAILURE() << "element " << i << " (input " << input[i] << "): simulator 0x" << std::hex << e << ", GPU 0x" << g;
      }
    }
  }
}

TEST(GpuRun, Fp8DotMatchesTheSimulator) {
  gpu::GpuRuntime& rt = gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  auto program = lang::test::programFrom(test::kFp8MatmulSource, "fp8.py");
  constexpr int M = 96, N = 80, K = 112, BM = 64, BN = 64, BK = 32;
  for (const auto& [ta, tb] : std::vector<std::pair<ir::DType, ir::DType>>{{ir::DType::FP8E5, ir::DType::FP8E5},
                                                                            {ir::DType::FP8E4NV, ir::DType::FP8E5}}) {
    SCOPED_TRACE(std::string(ir::dtypeName(ta)) + " x " + std::string(ir::dtypeName(tb)));
    lang::Specialization spec;
    spec.args = {lang::ArgSpec::pointer(ta), lang::ArgSpec::pointer(tb), lang::ArgSpec::pointer(ir::DType::FP32)};
    // M, N, K, stride_am, stride_ak, stride_bk, stride_bn: B is K-contiguous, as the tutorial's b.T.
    const std::vector<int64_t> ints = {M, N, K, K, 1, 1, K};
    for (size_t i = 0; i < ints.size(); ++i) spec.args.push_back(lang::ArgSpec::scalar(ir::DType::I32));
    spec.args.push_back(cint(BM));
    spec.args.push_back(cint(BN));
    spec.args.push_back(cint(BK));
    const lang::CheckResult r = lang::checkKernel(*program, "fp8_matmul", spec);
    ASSERT_TRUE(r.ok()) << r.diagnostics.render();
    // Bytes avoiding NaN codes, both signs, a wide range of magnitudes.
    std::vector<uint8_t> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>((i * 37 + 5) % 256) & 0xB7;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 53 + 9) % 256) & 0xB7;

    sim::Memory mem;
    auto fp8Tensor = [&](const char* name, ir::DType t, const std::vector<uint8_t>& bytes) {
      const int id = mem.create(name, t, {static_cast<int64_t>(bytes.size())});
      std::memcpy(mem.get(id).bytes().data(), bytes.data(), bytes.size());
      return id;
    };
    const int as = fp8Tensor("a", ta, a), bs = fp8Tensor("b", tb, b), cs = mem.create("c", ir::DType::FP32, {M * N});
    std::vector<sim::LaunchArg> simArgs = {sim::LaunchArg::tensor(as), sim::LaunchArg::tensor(bs), sim::LaunchArg::tensor(cs)};
    for (int64_t v : ints) simArgs.push_back(sim::LaunchArg::integer(v));
    sim::Simulator simulator(mem);
    const sim::Grid grid{(M + BM - 1) / BM, (N + BN - 1) / BN};
    auto ran = simulator.launch(*r.kernel, grid, simArgs);
    ASSERT_EQ(ran.status, sim::LaunchStatus::Ok) << ran.diagnostics.render();
    const std::vector<double> expected = mem.readDoubles(cs);

    auto upload = [&](const std::vector<uint8_t>& v) {
      const uint64_t d = rt.allocate(v.size(), "fp8 dot test");
      rt.upload(d, v.data(), v.size(), "fp8 dot test");
      return d;
    };
    const uint64_t da = upload(a), db = upload(b), dc = rt.allocate(M * N * 4, "fp8 dot test");
    std::vector<gpu::GpuArg> gpuArgs = {gpu::GpuArg::pointer(da), gpu::GpuArg::pointer(db), gpu::GpuArg::pointer(dc)};
    for (int64_t v : ints) gpuArgs.push_back(gpu::GpuArg::integer(v));
    const int64_t dims[3] = {grid.x, grid.y, 1};
    auto launched = rt.launch(r.kernel, dims, gpuArgs);
    ASSERT_FALSE(launched.failure) << launched.failure->render();
    EXPECT_TRUE(launched.compiled->cuda.usesTensorCores);
    std::vector<float> c(M * N);
    rt.download(c.data(), dc, c.size() * 4, "fp8 dot test");
    double scale = 1;
    for (double v : expected) scale = std::max(scale, std::fabs(v));
    for (int i = 0; i < M * N; ++i) EXPECT_NEAR(c[i], expected[i], 1e-5 * scale) << i;
  }
}
