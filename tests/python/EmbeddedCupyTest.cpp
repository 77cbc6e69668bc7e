// cupy.RawKernel on embedded CPython (resources/python/cupy over core/python/RawKernel): available only
// on the GPU backend, and on the simulator a call says so instead of running nothing.
#include <gtest/gtest.h>

#include "tests/python/PythonTestUtil.h"

using tilescope::host::ExecutionOutcome;
using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

TEST(EmbeddedCupy, OnTheSimulatorARawKernelSaysItNeedsTheGpuBackend) {
  PythonExecutor executor;
  executor.setBackend(tilescope::host::Backend::Simulator);
  const auto run = runPython(executor,
                             "import torch\n"
                             "import cupy\n"
                             "k = cupy.RawKernel('extern \"C\" __global__ void f(float* p) { p[0] = 1; }', 'f')\n"
                             "print(k.name, cupy.is_available())\n"
                             "k((1,), (1,), (torch.zeros(1, device='cuda'),))\n",
                             "Cell [1]", false);
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.out, "f False\n");
  EXPECT_EQ(run.outcome.errorName, "RuntimeError");
  EXPECT_NE(run.outcome.errorValue.find("runs only on the GPU backend"), std::string::npos) << run.outcome.errorValue;
  EXPECT_NE(run.traceback.find("Cell [1]\", line 5"), std::string::npos) << run.traceback;
}

TEST(EmbeddedCupy, OnlyTheNvrtcBackendIsAccepted) {
  PythonExecutor executor;
  const auto run = runPython(executor, "import cupy\ncupy.RawKernel('', 'f', backend='nvcc')\n");
  ASSERT_EQ(run.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(run.outcome.errorName, "ValueError");
  EXPECT_NE(run.outcome.errorValue.find("only backend='nvrtc'"), std::string::npos) << run.outcome.errorValue;
}
