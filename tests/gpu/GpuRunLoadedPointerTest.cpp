// Pointers loaded from memory on a device (ctest label gpu; skipped without one): a grouped matmul
// reaching its matrices through tables of data_ptr() addresses matches torch on the GPU as on the
// simulator, and a kernel the GPU backend cannot compile falls back (--backend auto) to the
// simulator, which translates the device addresses in the table to its own tensors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/PythonExecutor.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::PyRun;
using tilescope::testing::runPy;
namespace fs = std::filesystem;

namespace {

std::string pointerTableScript() {
  std::ifstream f(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "pointer_table.py", std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

PyRun runOn(tilescope::host::Backend backend, const std::string& code, const std::string& name) {
  tilescope::python::PythonExecutor ex;
  ex.setBackend(backend);
  return runPy(ex, code, false, name);
}

}  // namespace

TEST(GpuRun, PointerTableGroupedMatmulMatchesTorchOnBothBackends) {
  const std::string script = pointerTableScript();
  ASSERT_FALSE(script.empty());
  const PyRun sim = runOn(tilescope::host::Backend::Simulator, script, "pointer_table.py");
  EXPECT_TRUE(sim.ok) << sim.errorName << ": " << sim.errorValue << "\n" << sim.traceback;
  EXPECT_EQ(sim.out, "grouped matmul matches torch: True\n");
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const PyRun gpu = runOn(tilescope::host::Backend::Gpu, script, "pointer_table.py");
  EXPECT_TRUE(gpu.ok) << gpu.errorName << ": " << gpu.errorValue << "\n" << gpu.traceback << "\n" << gpu.err;
  EXPECT_EQ(gpu.out, "grouped matmul matches torch: True\n");
}

TEST(GpuRun, SimulatorFallbackTranslatesDeviceAddresses) {
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  // Atomics on 16-bit elements stay on the simulator; the table holds device addresses (data_ptr() on a GPU).
  const PyRun r = runOn(tilescope::host::Backend::Auto, R"(import torch
import triton
import triton.language as tl

@triton.jit
def add_half(table, N: tl.constexpr):
    p = tl.load(table + tl.program_id(0)).to(tl.pointer_type(tl.float16))
    offs = tl.arange(0, N)
    tl.atomic_add(p + offs, 1.0)

x = torch.full((8,), 1.5, dtype=torch.float16, device='cuda')
y = torch.full((8,), 3.25, dtype=torch.float16, device='cuda')
table = torch.tensor([x.data_ptr(), y.data_ptr()], device='cuda')
print(table[0].item() == x.data_ptr() and table[0].item() > 2**40 and table[0].item() < 2**62)
add_half[(2,)](table, N=8)
print(x[0].item(), y[0].item())
)", "fallback.py");
  EXPECT_TRUE(r.ok) << r.errorName << ": " << r.errorValue << "\n" << r.traceback << "\n" << r.err;
  EXPECT_EQ(r.out, "True\n2.5 4.25\n");
}
