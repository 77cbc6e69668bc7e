// Tensor-descriptor boxes copied by TMA on a device (ctest label gpu; skipped without one): pipelined
// wgmma K loops over boxes with partial and out-of-bounds edges, zero and NaN padding, fp16 and bf16,
// B given N x K and K x N (tests/gpu/data/tma_boxes.py) print the same on the GPU as on the
// simulator, and on an sm_90 device the compiled kernel copies its boxes with cp.async.bulk.tensor.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/gpu/runtime/GpuRuntime.h"
#include "tests/python/PythonTestUtil.h"

namespace fs = std::filesystem;
using tilescope::testing::PythonRun;
using tilescope::testing::runPython;

namespace {

std::string tmaScript() {
  std::ifstream f(fs::path(TILESCOPE_TEST_DATA_DIR) / "gpu" / "data" / "tma_boxes.py", std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

PythonRun runOn(tilescope::host::Backend backend, const std::string& code) {
  tilescope::python::PythonExecutor ex;
  ex.setBackend(backend);
  return runPython(ex, code, "tma_boxes.py", false);
}

constexpr const char* kExpected =
    "torch.float16 a @ b.T: True\n"
    "torch.float16 a @ b: True\n"
    "torch.bfloat16 a @ b.T: True\n"
    "torch.bfloat16 a @ b: True\n"
    "nan padding past K: True\n"
    "nan padding inside K: False True\n";

}  // namespace

TEST(GpuRun, TmaBoxesMatchTheSimulator) {
  const std::string script = tmaScript();
  ASSERT_FALSE(script.empty());
  const PythonRun sim = runOn(tilescope::host::Backend::Simulator, script);
  EXPECT_TRUE(sim.ok()) << sim.traceback;
  EXPECT_EQ(sim.out, kExpected);
  auto& rt = tilescope::gpu::GpuRuntime::instance();
  if (!rt.available()) GTEST_SKIP() << "no CUDA device: " << rt.unavailableReason();
  // On Hopper (sm_90) the kernel's PTX must show the tensor engine, else this test proves nothing
  // about it; elsewhere the boxes are ordinary loads.
  const std::string probe =
      "\nptx = mm_bt.warmup(a, bt, c, M, N, K, BM=128, BN=128, BK=64, PAD='zero', num_warps=8, num_stages=3, grid=(1,)).asm['ptx']\n"
      "hopper = torch.cuda.get_device_capability()[0] == 9\n"
      "print('tma on hopper only:', ('cp.async.bulk.tensor.2d' in ptx and 'tensormap.cp_fenceproxy' in ptx) == hopper, hopper)\n";
  const PythonRun gpu = runOn(tilescope::host::Backend::Gpu, script + probe);
  EXPECT_TRUE(gpu.ok()) << gpu.traceback << "\n" << gpu.err;
  EXPECT_EQ(gpu.out.substr(0, std::string(kExpected).size()), kExpected) << gpu.out;
  EXPECT_NE(gpu.out.find("tma on hopper only: True"), std::string::npos) << gpu.out;
}
