// The pointer-array kernel of Triton's grouped-GEMM tutorial (08-grouped-gemm.py, read unmodified
// from $TILESCOPE_TUTORIALS_DIR; skipped when it is not there) in the simulator: each program walks
// the groups' tiles, loads the matrices' addresses from int64 tables, and the products match a
// reference matmul (fp16 inputs, fp32 sums, fp16 results).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "core/sim/DeviceAddress.h"
#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;
namespace fs = std::filesystem;

TEST(SimulatorGroupedGemmTutorial, ThePointerArrayKernelMatchesAMatmul) {
  const char* dir = std::getenv("TILESCOPE_TUTORIALS_DIR");
  if (!dir || !fs::exists(fs::path(dir) / "08-grouped-gemm.py"))
    GTEST_SKIP() << "TILESCOPE_TUTORIALS_DIR does not hold Triton's 08-grouped-gemm.py (set it to a folder of Triton 3.6's tutorials)";
  auto program = lang::test::programFrom(lang::test::readFile(fs::path(dir) / "08-grouped-gemm.py"), "08-grouped-gemm.py");
  auto cint = [](int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::pointer(DType::I64), lang::ArgSpec::pointer(DType::I64), lang::ArgSpec::pointer(DType::I64),
               lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::pointer(DType::I32), lang::ArgSpec::scalar(DType::I32)};
  spec.kwargs = {{"NUM_SM", cint(4)}, {"BLOCK_SIZE_M", cint(32)}, {"BLOCK_SIZE_N", cint(32)}, {"BLOCK_SIZE_K", cint(32)}};
  lang::CheckResult r = lang::checkKernel(*program, "grouped_matmul_kernel", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();

  // Two groups: 64 x 32 @ 32 x 96 and 32 x 64 @ 64 x 32 (multiples of the blocks: the kernel has no masks).
  const std::vector<std::array<int, 3>> sizes = {{64, 96, 32}, {32, 32, 64}};
  Memory mem;
  std::vector<int64_t> aAddr, bAddr, cAddr, gSizes, gLds;
  std::vector<int> cs;
  std::vector<std::vector<double>> as, bs;
  for (size_t g = 0; g < sizes.size(); ++g) {
    const auto [m, n, k] = sizes[g];
    std::vector<double> a(static_cast<size_t>(m) * k), b(static_cast<size_t>(k) * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>((i * 7 + g) % 13) / 8.0 - 0.75;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>((i * 5 + 3 * g) % 11) / 4.0 - 1.25;
    as.push_back(a);
    bs.push_back(b);
    const int at = mem.createFromDoubles("a", DType::FP16, {m, k}, a);
    const int bt = mem.createFromDoubles("b", DType::FP16, {k, n}, b);
    const int ct = mem.create("c", DType::FP16, {m, n});
    cs.push_back(ct);
    aAddr.push_back(DeviceAddress::make(at, 0));
    bAddr.push_back(DeviceAddress::make(bt, 0));
    cAddr.push_back(DeviceAddress::make(ct, 0));
    gSizes.insert(gSizes.end(), {m, n, k});
    gLds.insert(gLds.end(), {k, n, n});
  }
  const int aPtrs = mem.createFromInts("a_ptrs", DType::I64, {2}, aAddr);
  const int bPtrs = mem.createFromInts("b_ptrs", DType::I64, {2}, bAddr);
  const int cPtrs = mem.createFromInts("c_ptrs", DType::I64, {2}, cAddr);
  const int sz = mem.createFromInts("sizes", DType::I32, {6}, gSizes);
  const int lds = mem.createFromInts("lds", DType::I32, {6}, gLds);
  Simulator sim(mem);
  auto ran = sim.launch(*r.kernel, Grid{4},
                        {LaunchArg::tensor(aPtrs), LaunchArg::tensor(bPtrs), LaunchArg::tensor(cPtrs), LaunchArg::tensor(sz),
                         LaunchArg::tensor(lds), LaunchArg::integer(2)});
  ASSERT_EQ(ran.status, LaunchStatus::Ok) << ran.diagnostics.render();
  for (size_t g = 0; g < sizes.size(); ++g) {
    const auto [m, n, k] = sizes[g];
    const std::vector<double> c = mem.readDoubles(cs[g]);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = 0;
        for (int q = 0; q < k; ++q) ref += as[g][i * k + q] * bs[g][q * n + j];
        // The inputs are exact in fp16 and every partial sum is exact in fp32; only the fp16 result rounds.
        EXPECT_NEAR(c[i * n + j], ref, std::fabs(ref) * 1e-3 + 1e-3) << "group " << g << " c[" << i << ", " << j << "]";
      }
  }
}

}  // namespace
}  // namespace tilescope::sim
