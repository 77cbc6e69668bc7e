// libdevice's own math on a device (ctest label gpu; skipped without one): every function gives the
// simulator's value within CUDA's documented error bounds (a few ulp in fp32; lgamma and tgamma more).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/PythonExecutor.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::PyRun;
using tilescope::testing::runPy;

namespace {

const char* kScript = R"(import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def unary(x_ptr, out_ptr, FN: tl.constexpr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    if FN == 0: y = libdevice.acos(x)
    elif FN == 1: y = libdevice.asinh(x)
    elif FN == 2: y = libdevice.cbrt(x)
    elif FN == 3: y = libdevice.tan(x)
    elif FN == 4: y = libdevice.erfc(x)
    elif FN == 5: y = libdevice.exp10(x)
    elif FN == 6: y = libdevice.log1p(x)
    elif FN == 7: y = libdevice.rint(x)
    elif FN == 8: y = libdevice.round(x)
    elif FN == 9: y = libdevice.tgamma(x + 3.0)
    elif FN == 10: y = libdevice.pow(x + 3.0, x)
    elif FN == 11: y = libdevice.atan2(x, x - 0.3)
    elif FN == 12: y = libdevice.fmod(x * 7.0, 0.75)
    elif FN == 13: y = libdevice.sinpi(x * 5.0)
    elif FN == 14: y = libdevice.normcdf(x)
    elif FN == 15: y = libdevice.rhypot(x, x + 1.0)
    else: y = libdevice.j1(x * 3.0)
    tl.store(out_ptr + offs, y)

for dt in (torch.float32, torch.float64):
    x = torch.tensor([0.25, -0.5, 0.75, 0.1, -0.9, 0.5, 2.5, -2.5], dtype=dt, device='cuda') * 0.39
    for fn in range(17):
        out = torch.empty_like(x)
        unary[(1,)](x, out, FN=fn)
        print(' '.join(repr(v) for v in out.tolist()))
)";

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  std::istringstream in(text);
  for (std::string w; in >> w;) v.push_back(std::stod(w));
  return v;
}

PyRun runOn(tilescope::host::Backend b) {
  tilescope::python::PythonExecutor ex;
  ex.setBackend(b);
  return runPy(ex, kScript, false, "libdevice.py");
}

}  // namespace

TEST(GpuRun, LibdeviceMathMatchesTheSimulator) {
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const PyRun sim = runOn(tilescope::host::Backend::Simulator);
  const PyRun gpu = runOn(tilescope::host::Backend::Gpu);
  ASSERT_TRUE(sim.ok) << sim.errorValue << sim.traceback;
  ASSERT_TRUE(gpu.ok) << gpu.errorValue << gpu.traceback << gpu.err;
  const std::vector<double> s = numbers(sim.out), g = numbers(gpu.out);
  ASSERT_EQ(s.size(), 2u * 17 * 8);
  ASSERT_EQ(g.size(), s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const bool fp32 = i < 17 * 8;
    const double tol = (fp32 ? 4e-6 : 1e-13) * std::max(1.0, std::fabs(s[i]));
    EXPECT_NEAR(g[i], s[i], tol) << (fp32 ? "fp32" : "fp64") << " function " << (i % (17 * 8)) / 8 << " lane " << i % 8;
  }
}
