// Tensor descriptors on a device (ctest label gpu; skipped without one): a grouped matmul that makes
// its descriptors in the kernel from tables of addresses, with partial boxes, matches torch on the
// GPU as on the simulator, also with B given transposed (`a @ b.T`, which Hopper multiplies with wgmma
// reading B K-major from the cp.async ring). Box loads are 16-byte cp.async chunks, not TMA.
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

std::string descriptorScript() {
  std::ifstream f(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "tensor_descriptor.py", std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

PyRun runOn(tilescope::host::Backend backend, const std::string& code) {
  tilescope::python::PythonExecutor ex;
  ex.setBackend(backend);
  return runPy(ex, code, false, "tensor_descriptor.py");
}

}  // namespace

TEST(GpuRun, TensorDescriptorGroupedMatmulMatchesTorchOnBothBackends) {
  const std::string script = descriptorScript();
  ASSERT_FALSE(script.empty());
  const PyRun sim = runOn(tilescope::host::Backend::Simulator, script);
  EXPECT_TRUE(sim.ok) << sim.errorName << ": " << sim.errorValue << "\n" << sim.traceback;
  EXPECT_EQ(sim.out, "descriptor grouped matmul matches torch: True\ndescriptor grouped matmul with b.T matches torch: True\n");
  if (!tilescope::gpu::GpuRuntime::instance().available())
    GTEST_SKIP() << "no CUDA device: " << tilescope::gpu::GpuRuntime::instance().unavailableReason();
  const PyRun gpu = runOn(tilescope::host::Backend::Gpu, script);
  EXPECT_TRUE(gpu.ok) << gpu.errorName << ": " << gpu.errorValue << "\n" << gpu.traceback << "\n" << gpu.err;
  EXPECT_EQ(gpu.out, "descriptor grouped matmul matches torch: True\ndescriptor grouped matmul with b.T matches torch: True\n");
}
